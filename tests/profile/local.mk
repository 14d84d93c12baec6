# SPDX-License-Identifier: MIT
# tests/profile: component stacks, profiles, the event trace, monitors and
# auto-instrumented programs.
#
#   stacks-test     the calling-context tree and the stacks on their own
#   freq.sh         the frequency profile of calc and of pt (Noosa's format,
#                   flat and tree views, sorting, get, reset, off/on)
#   time.sh         the time profile: calls, self <= total, sums, per
#                   thread; folded and Chrome exports (JSON checked)
#   trace.sh        the event trace, its filter, and filtering at the source
#   stacks.sh       mismatched leaves reported once each and tolerated
#
# The programs run under noosa are built without sanitizers whatever the
# configuration, with the runtime's sources compiled in (LeakSanitizer
# cannot run in a traced process); noosa itself is what the sanitizer
# build checks.  pt is the test program (pt.dapto, compiled by the in-tree
# dapto).

PROF_TEST_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-I$(top_srcdir)/tests/lib $(TCL_CFLAGS)

check_PROGRAMS += tests/profile/stacks-test
TESTS += tests/profile/stacks-test
tests_profile_stacks_test_CPPFLAGS = $(PROF_TEST_CPPFLAGS)
tests_profile_stacks_test_LDADD = src/libnoosa.la

PT_CFLAGS = -g -O1 -pthread
PT_LINK = -pthread
PT_RUNTIME = $(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)

EXTRA_DIST += tests/profile/pt.dapto
tests/profile/pt_dapto.h tests/profile/pt_dapto.db: tests/profile/pt_dapto.c
tests/profile/pt_dapto.c: $(srcdir)/tests/profile/pt.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/profile && \
	src/dapto/dapto -o tests/profile $(srcdir)/tests/profile/pt.dapto
CLEANFILES += tests/profile/pt_dapto.c tests/profile/pt_dapto.h \
	tests/profile/pt_dapto.db

check_PROGRAMS += tests/profile/pt
tests_profile_pt_SOURCES = tests/profile/pt.c tests/profile/pt.h $(PT_RUNTIME)
nodist_tests_profile_pt_SOURCES = tests/profile/pt_dapto.c \
	tests/profile/pt_dapto.h
tests_profile_pt_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/profile \
	-I$(top_srcdir)/tests/profile
tests_profile_pt_CFLAGS = $(PT_CFLAGS)
tests_profile_pt_LDFLAGS = $(PT_LINK)
$(tests_profile_pt_OBJECTS): tests/profile/pt_dapto.h

# pt with a runtime of protocol 1.0.3, before thread buffers
# <protocol#tbuf> (tests/record/buffers.sh).
check_PROGRAMS += tests/profile/pt-v3
tests_profile_pt_v3_SOURCES = $(tests_profile_pt_SOURCES)
nodist_tests_profile_pt_v3_SOURCES = $(nodist_tests_profile_pt_SOURCES)
tests_profile_pt_v3_CPPFLAGS = $(tests_profile_pt_CPPFLAGS) \
	-DRUNTIME_PROTO_MINOR=3
tests_profile_pt_v3_CFLAGS = $(PT_CFLAGS)
tests_profile_pt_v3_LDFLAGS = $(PT_LINK)
$(tests_profile_pt_v3_OBJECTS): tests/profile/pt_dapto.h

# calc, monitored (as examples/calc/calc), without sanitizers.
check_PROGRAMS += tests/profile/calc
tests_profile_calc_SOURCES = examples/calc/main.c $(CALC_SOURCES) $(PT_RUNTIME)
nodist_tests_profile_calc_SOURCES = $(CALC_DAPTO_C) $(CALC_DAPTO_H)
tests_profile_calc_CPPFLAGS = $(CALC_MONITOR_CPPFLAGS)
tests_profile_calc_CFLAGS = $(PT_CFLAGS)
tests_profile_calc_LDFLAGS = $(PT_LINK)
$(tests_profile_calc_OBJECTS): $(CALC_DAPTO_H)

PROF_TESTS = tests/profile/freq.sh tests/profile/time.sh \
	tests/profile/readme.sh \
	tests/profile/trace.sh tests/profile/stacks.sh tests/profile/monitor.sh \
	tests/profile/window.sh
TESTS += $(PROF_TESTS)
EXTRA_DIST += $(PROF_TESTS) tests/profile/lib.sh tests/profile/check.tcl \
	tests/profile/expected

clean-local: clean-profile-tests
clean-profile-tests:
	rm -rf tests/profile/work
.PHONY: clean-profile-tests

# Auto-instrumented programs (saint.sh), without sanitizers: the runtime
# as a library of its own, not instrumented, and programs compiled with
# -finstrument-functions and without the optimisations that make a call
# of the source something else in the machine code (inlining, tail calls,
# clones, merged or split functions), so that callgrind counts each call
# the hooks report.  (The user's CFLAGS come last and may say -O2: these
# -fno- options hold whatever the -O level.)
check_LTLIBRARIES += tests/profile/libdapto-plain.la
tests_profile_libdapto_plain_la_SOURCES = $(PT_RUNTIME)
tests_profile_libdapto_plain_la_CFLAGS = -g -O2 -fvisibility=hidden

SAINT_CFLAGS = -g -finstrument-functions -fno-inline \
	-fno-optimize-sibling-calls -fno-ipa-icf -fno-ipa-cp -fno-ipa-sra \
	-fno-partial-inlining -fno-reorder-blocks-and-partition
check_PROGRAMS += tests/profile/calc-saint tests/profile/queens \
	tests/profile/queens-nopie tests/profile/saint-main tests/profile/fthreads \
	tests/profile/split
tests_profile_calc_saint_SOURCES = examples/calc/main.c $(CALC_SOURCES)
tests_profile_calc_saint_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples/calc
tests_profile_calc_saint_CFLAGS = $(SAINT_CFLAGS)
tests_profile_calc_saint_LDFLAGS = $(PT_LINK)
tests_profile_calc_saint_LDADD = tests/profile/libdapto-plain.la

tests_profile_queens_SOURCES = examples/saint/queens.c
tests_profile_queens_CFLAGS = $(SAINT_CFLAGS)
tests_profile_queens_LDFLAGS = $(PT_LINK)
tests_profile_queens_LDADD = tests/profile/libdapto-plain.la

tests_profile_queens_nopie_SOURCES = examples/saint/queens.c
tests_profile_queens_nopie_CFLAGS = $(SAINT_CFLAGS) -fno-pie
tests_profile_queens_nopie_LDFLAGS = $(PT_LINK) -no-pie
tests_profile_queens_nopie_LDADD = tests/profile/libdapto-plain.la

tests_profile_fthreads_SOURCES = tests/profile/fthreads.c
tests_profile_fthreads_CFLAGS = $(SAINT_CFLAGS) -pthread
tests_profile_fthreads_LDFLAGS = $(PT_LINK) -pthread
tests_profile_fthreads_LDADD = tests/profile/libdapto-plain.la

tests_profile_split_SOURCES = tests/profile/split.c
nodist_tests_profile_split_SOURCES = tests/profile/pt_dapto.c \
	tests/profile/pt_dapto.h
tests_profile_split_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/profile \
	-I$(top_srcdir)/tests/profile
tests_profile_split_CFLAGS = $(SAINT_CFLAGS) -pthread
tests_profile_split_LDFLAGS = $(PT_LINK) -pthread
tests_profile_split_LDADD = tests/profile/libdapto-plain.la
$(tests_profile_split_OBJECTS): tests/profile/pt_dapto.h

# pt compiled with -finstrument-functions (tests/profile/generated.sh):
# its interface's generated code and dapto.h's functions must not show up
# among its functions.
check_PROGRAMS += tests/profile/pt-instr
tests_profile_pt_instr_SOURCES = tests/profile/pt.c tests/profile/pt.h
nodist_tests_profile_pt_instr_SOURCES = tests/profile/pt_dapto.c \
	tests/profile/pt_dapto.h
tests_profile_pt_instr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/profile \
	-I$(top_srcdir)/tests/profile
tests_profile_pt_instr_CFLAGS = $(SAINT_CFLAGS) -pthread
tests_profile_pt_instr_LDFLAGS = $(PT_LINK) -pthread
tests_profile_pt_instr_LDADD = tests/profile/libdapto-plain.la
$(tests_profile_pt_instr_OBJECTS): tests/profile/pt_dapto.h

check_LTLIBRARIES += tests/profile/libsaintlib.la
tests_profile_libsaintlib_la_SOURCES = tests/profile/saint-lib.c \
	tests/profile/saint-lib.h
tests_profile_libsaintlib_la_CFLAGS = $(SAINT_CFLAGS)
tests_profile_libsaintlib_la_LDFLAGS = -rpath /nowhere -shared
tests_profile_saint_main_SOURCES = tests/profile/saint-main.c
tests_profile_saint_main_CFLAGS = $(SAINT_CFLAGS)
tests_profile_saint_main_LDFLAGS = $(PT_LINK) -no-install
tests_profile_saint_main_LDADD = tests/profile/libsaintlib.la \
	tests/profile/libdapto-plain.la

TESTS += tests/profile/saint.sh tests/profile/direct.sh tests/profile/program.sh \
	tests/profile/processes.sh tests/profile/generated.sh
EXTRA_DIST += tests/profile/saint.sh tests/profile/direct.sh tests/profile/program.sh \
	tests/profile/processes.sh tests/profile/generated.sh

check_PROGRAMS += tests/profile/fnrec-test
TESTS += tests/profile/fnrec-test
tests_profile_fnrec_test_CPPFLAGS = $(PROF_TEST_CPPFLAGS)
tests_profile_fnrec_test_LDADD = src/libnoosa.la

# The direct path of function records against the general one.
check_PROGRAMS += tests/profile/direct-test
TESTS += tests/profile/direct-test
tests_profile_direct_test_CPPFLAGS = $(PROF_TEST_CPPFLAGS)
tests_profile_direct_test_LDADD = src/libnoosa.la
