# SPDX-License-Identifier: MIT
# tests/load: monitoring under load, end to end through noosa --batch on
# lt (lt.dapto): one stop per event over many laps of the ring, threads
# that come and go under a handler and a breakpoint, a program that
# corrupts the channel, operations that never answer, processes the
# program creates.  Built like tests/noosa's programs: -g -O0, no
# sanitizers (they do not work under ptrace), the runtime compiled in.
# `make check-stress` repeats the races many times on both CPU
# placements (stress.sh).

EXTRA_DIST += tests/load/lt.dapto tests/load/lt.h
tests/load/lt_dapto.h tests/load/lt_dapto.db: tests/load/lt_dapto.c
tests/load/lt_dapto.c: $(srcdir)/tests/load/lt.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/load && \
	src/dapto/dapto -o tests/load $(abs_top_srcdir)/tests/load/lt.dapto
CLEANFILES += tests/load/lt_dapto.c tests/load/lt_dapto.h \
	tests/load/lt_dapto.db

check_PROGRAMS += tests/load/lt
tests_load_lt_SOURCES = tests/load/lt.c tests/load/lt.h $(NT_RUNTIME)
nodist_tests_load_lt_SOURCES = tests/load/lt_dapto.c tests/load/lt_dapto.h
tests_load_lt_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/load \
	-I$(top_srcdir)/tests/load
tests_load_lt_CFLAGS = $(NT_CFLAGS)
tests_load_lt_LDFLAGS = $(NT_LINKFLAGS)
$(tests_load_lt_OBJECTS): tests/load/lt_dapto.h

LOAD_TESTS = tests/load/ring.sh tests/load/threads.sh \
	tests/load/broken.sh tests/load/operations.sh \
	tests/load/processes.sh tests/load/holds.sh tests/load/attach.sh \
	tests/load/ended.sh tests/load/trails.sh tests/load/defaults.sh \
	tests/load/signals.sh
TESTS += $(LOAD_TESTS)
EXTRA_DIST += $(LOAD_TESTS) tests/load/lib.sh tests/load/stress.sh \
	tests/load/trails.awk

# Not in the default suite: each race many times, both CPU placements.
check-stress: $(check_PROGRAMS) $(check_SCRIPTS) src/noosa$(EXEEXT)
	$(AM_V_at)srcdir=$(srcdir) top_builddir=$(top_builddir) PYTHON3='$(PYTHON3)' \
	    $(SHELL) $(srcdir)/tests/load/stress.sh
.PHONY: check-stress

clean-local: clean-load-tests
clean-load-tests:
	rm -rf tests/load/work
.PHONY: clean-load-tests
