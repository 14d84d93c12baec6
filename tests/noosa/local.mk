# SPDX-License-Identifier: MIT
# tests/noosa: end-to-end tests of noosa's Tcl front end through
# `noosa --batch`, on the example program calc, on nt, a program of our
# own (nt.dapto, compiled by the in-tree dapto), and on tree, whose
# interface tests/dapto/spec/tree.dapto has an aspect and an event of one
# name.  Expected transcripts
# are in tests/noosa/expected, compared after normalising pids, addresses,
# times and thread ids (see lib.sh); REGEN=1 rewrites them.
#
# The programs run under noosa are built without sanitizers whatever the
# configuration, compiling the runtime's sources in (as tests/target does):
# LeakSanitizer cannot run in a traced process, so a sanitized target
# would end with status 1.  noosa itself is what the sanitizer build
# checks.  nt-v99 is nt with a copy of the runtime that speaks protocol
# major 99; calc is examples/calc/calc built that way; plain has no
# runtime at all.

NT_CFLAGS = -g -O0 -pthread
NT_LINKFLAGS = -pthread
NT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/noosa \
	-I$(top_srcdir)/tests/noosa
NT_RUNTIME = $(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)

EXTRA_DIST += tests/noosa/nt.dapto
tests/noosa/nt_dapto.h tests/noosa/nt_dapto.db: tests/noosa/nt_dapto.c
tests/noosa/nt_dapto.c: $(srcdir)/tests/noosa/nt.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/noosa && \
	src/dapto/dapto -o tests/noosa $(abs_top_srcdir)/tests/noosa/nt.dapto
CLEANFILES += tests/noosa/nt_dapto.c tests/noosa/nt_dapto.h \
	tests/noosa/nt_dapto.db

# tree: a program with the interface tests/dapto/spec/tree.dapto, where
# an aspect and its event are both called tree.
tests/noosa/tree_dapto.h tests/noosa/tree_dapto.db: tests/noosa/tree_dapto.c
tests/noosa/tree_dapto.c: $(srcdir)/tests/dapto/spec/tree.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/noosa && \
	src/dapto/dapto -o tests/noosa $(abs_top_srcdir)/tests/dapto/spec/tree.dapto
CLEANFILES += tests/noosa/tree_dapto.c tests/noosa/tree_dapto.h \
	tests/noosa/tree_dapto.db

check_PROGRAMS += tests/noosa/nt tests/noosa/nt-v99 tests/noosa/calc \
	tests/noosa/plain tests/noosa/tree tests/noosa/old-runtime
tests_noosa_nt_SOURCES = tests/noosa/nt.c tests/noosa/nt.h $(NT_RUNTIME)
nodist_tests_noosa_nt_SOURCES = tests/noosa/nt_dapto.c tests/noosa/nt_dapto.h
tests_noosa_nt_CPPFLAGS = $(NT_CPPFLAGS)
tests_noosa_nt_CFLAGS = $(NT_CFLAGS)
tests_noosa_nt_LDFLAGS = $(NT_LINKFLAGS)

tests_noosa_nt_v99_SOURCES = $(tests_noosa_nt_SOURCES)
nodist_tests_noosa_nt_v99_SOURCES = $(nodist_tests_noosa_nt_SOURCES)
tests_noosa_nt_v99_CPPFLAGS = $(NT_CPPFLAGS) -DRUNTIME_PROTO_MAJOR=99
tests_noosa_nt_v99_CFLAGS = $(NT_CFLAGS)
tests_noosa_nt_v99_LDFLAGS = $(NT_LINKFLAGS)
$(tests_noosa_nt_OBJECTS) $(tests_noosa_nt_v99_OBJECTS): tests/noosa/nt_dapto.h

tests_noosa_calc_SOURCES = examples/calc/main.c $(CALC_SOURCES) $(NT_RUNTIME)
nodist_tests_noosa_calc_SOURCES = $(CALC_DAPTO_C) $(CALC_DAPTO_H)
tests_noosa_calc_CPPFLAGS = $(CALC_MONITOR_CPPFLAGS)
tests_noosa_calc_CFLAGS = $(NT_CFLAGS)
tests_noosa_calc_LDFLAGS = $(NT_LINKFLAGS)
$(tests_noosa_calc_OBJECTS): $(CALC_DAPTO_H)

tests_noosa_tree_SOURCES = tests/noosa/tree.c $(NT_RUNTIME)
nodist_tests_noosa_tree_SOURCES = tests/noosa/tree_dapto.c \
	tests/noosa/tree_dapto.h
tests_noosa_tree_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/noosa \
	-I$(top_srcdir)/tests/dapto/spec
tests_noosa_tree_CFLAGS = $(NT_CFLAGS)
tests_noosa_tree_LDFLAGS = $(NT_LINKFLAGS)
$(tests_noosa_tree_OBJECTS): tests/noosa/tree_dapto.h

tests_noosa_old_runtime_SOURCES = tests/noosa/old-runtime.c
tests_noosa_old_runtime_CFLAGS = $(NT_CFLAGS)
tests_noosa_old_runtime_LDFLAGS = $(NT_LINKFLAGS)

tests_noosa_plain_SOURCES = tests/noosa/plain.c
tests_noosa_plain_CFLAGS = $(NT_CFLAGS)
tests_noosa_plain_LDFLAGS = $(NT_LINKFLAGS)

# The end-to-end tests, and man.sh for noosa(1) and noosa-tcl(7); see
# each script's comment.
NOOSA_E2E_TESTS = tests/noosa/cli.sh tests/noosa/breaks.sh \
	tests/noosa/handlers.sh tests/noosa/send.sh tests/noosa/browse.sh \
	tests/noosa/startup.sh tests/noosa/data.sh tests/noosa/info.sh \
	tests/noosa/names.sh tests/noosa/man.sh tests/noosa/man-commands.sh \
	tests/noosa/commands.sh tests/noosa/attach.sh tests/noosa/gdb.sh \
	tests/noosa/conditions.sh
TESTS += $(NOOSA_E2E_TESTS)
EXTRA_DIST += $(NOOSA_E2E_TESTS) tests/noosa/lib.sh tests/noosa/expected \
	tests/noosa/browsers tests/noosa/small.calc
clean-local: clean-noosa-tests
clean-noosa-tests:
	rm -rf tests/noosa/work
.PHONY: clean-noosa-tests
