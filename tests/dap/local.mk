# SPDX-License-Identifier: MIT
# tests/dap: the debug adapter (noosa --dap) driven by a client of the
# protocol written with Python's standard library (dapclient.py; each
# NAME.sh runs NAME.py), on dp, a program of our own (dp.dapto, compiled
# by the in-tree dapto), built twice whatever CFLAGS say, both with debug
# information: dp-O0, whose stubs are called (the line table gives each
# call's line), and dp-O2, whose stubs are inlined (the inlined
# subroutines give their call lines).  As for tests/noosa, the programs
# compile the runtime's sources in and are built without sanitizers.

DP_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/dap -I$(top_srcdir)/tests/dap
DP_FILES = $(srcdir)/tests/dap/dp.c $(addprefix $(srcdir)/,\
	$(filter %.c,$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)))
DP_DEPS = $(DP_FILES) tests/dap/dp_dapto.c tests/dap/dp_dapto.h \
	$(srcdir)/tests/dap/dp.h

EXTRA_DIST += tests/dap/dp.dapto tests/dap/dp.c tests/dap/dp.h
tests/dap/dp_dapto.h tests/dap/dp_dapto.db: tests/dap/dp_dapto.c
tests/dap/dp_dapto.c: $(srcdir)/tests/dap/dp.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/dap && \
	src/dapto/dapto -o tests/dap $(abs_top_srcdir)/tests/dap/dp.dapto

# the optimisation last, so that it wins over the user's CFLAGS
tests/dap/dp-O0$(EXEEXT): $(DP_DEPS)
	$(AM_V_CCLD)$(CC) $(DEFS) $(DP_CPPFLAGS) $(CPPFLAGS) $(CFLAGS) \
	  -g -O0 -pthread -o $@ $(DP_FILES) tests/dap/dp_dapto.c
tests/dap/dp-O2$(EXEEXT): $(DP_DEPS)
	$(AM_V_CCLD)$(CC) $(DEFS) $(DP_CPPFLAGS) $(CPPFLAGS) $(CFLAGS) \
	  -g -O2 -pthread -o $@ $(DP_FILES) tests/dap/dp_dapto.c
check_SCRIPTS += tests/dap/dp-O0$(EXEEXT) tests/dap/dp-O2$(EXEEXT)
CLEANFILES += tests/dap/dp_dapto.c tests/dap/dp_dapto.h tests/dap/dp_dapto.db \
	tests/dap/dp-O0$(EXEEXT) tests/dap/dp-O2$(EXEEXT)

# The tests: each NAME.sh runs NAME.py, whose comment says what it checks.
DAP_TESTS = tests/dap/session.sh tests/dap/errors.sh tests/dap/attach.sh \
	tests/dap/replay.sh tests/dap/malformed.sh tests/dap/terminal.sh \
	tests/dap/editors.sh tests/dap/pause.sh
TESTS += $(DAP_TESTS)
EXTRA_DIST += $(DAP_TESTS) $(DAP_TESTS:.sh=.py) tests/dap/dapclient.py \
	tests/dap/browsers tests/dap/stress.py
clean-local: clean-dap-tests
clean-dap-tests:
	rm -rf tests/dap/work
.PHONY: clean-dap-tests
