# SPDX-License-Identifier: MIT
# tests/probes: USDT probes as events <design#probes>.  usdt-test checks
# the note parser on notes made in it; pp-main is a program with
# hand-written probes in its executable, in a library it links (one of
# them guarded by a semaphore) and in one it loads with dlopen, which
# probes.sh runs under noosa (and under gdb, to compare the values);
# python.sh compares noosa with gdb on Debian's python3.  The programs
# under test are built without sanitizers (tests/noosa/local.mk says
# why), with optimisation, so that the compiler puts the probes'
# arguments in registers, on the stack and at symbols.

check_PROGRAMS += tests/probes/usdt-test
TESTS += tests/probes/usdt-test
tests_probes_usdt_test_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-I$(top_srcdir)/tests/lib
tests_probes_usdt_test_LDADD = src/libnoosa.la

PP_CFLAGS = -g -O2 -pthread
check_LTLIBRARIES += tests/probes/libpplib.la tests/probes/libppdl.la
tests_probes_libpplib_la_SOURCES = tests/probes/pp-lib.c tests/probes/pp.h
tests_probes_libpplib_la_CFLAGS = $(PP_CFLAGS)
tests_probes_libpplib_la_LDFLAGS = -rpath /nowhere -shared
tests_probes_libppdl_la_SOURCES = tests/probes/pp-dl.c tests/probes/pp.h
tests_probes_libppdl_la_CFLAGS = $(PP_CFLAGS)
tests_probes_libppdl_la_LDFLAGS = -rpath /nowhere -shared -module -avoid-version
check_PROGRAMS += tests/probes/pp-main
tests_probes_pp_main_SOURCES = tests/probes/pp-main.c tests/probes/pp.h
tests_probes_pp_main_CPPFLAGS = \
	-DPP_DL='"$(abs_top_builddir)/tests/probes/.libs/libppdl.so"'
tests_probes_pp_main_CFLAGS = $(PP_CFLAGS)
tests_probes_pp_main_LDFLAGS = -pthread -no-install
tests_probes_pp_main_LDADD = tests/probes/libpplib.la -ldl
EXTRA_tests_probes_pp_main_DEPENDENCIES = tests/probes/libppdl.la

TESTS += tests/probes/probes.sh tests/probes/python.sh tests/probes/dapto-out.sh
EXTRA_DIST += tests/probes/probes.sh tests/probes/python.sh \
	tests/probes/dapto-out.sh \
	tests/probes/lib.sh

clean-local: clean-probes-tests
clean-probes-tests:
	rm -rf tests/probes/work
.PHONY: clean-probes-tests

# The note parser's fuzz harness over its seeds and mutations of them.
check_PROGRAMS += tests/probes/usdt-fuzz
TESTS += tests/probes/usdt-fuzz
tests_probes_usdt_fuzz_SOURCES = tests/probes/usdt-fuzz.c fuzz/usdt-notes.c
tests_probes_usdt_fuzz_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-DNOOSA_SRCDIR='"$(abs_top_srcdir)"'
tests_probes_usdt_fuzz_LDADD = src/libnoosa.la

# pp-rt: pp-main with the runtime compiled in, whose probes the runtime
# handles itself (inprog.sh).
check_PROGRAMS += tests/probes/pp-rt
tests_probes_pp_rt_SOURCES = tests/probes/pp-main.c tests/probes/pp.h \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
tests_probes_pp_rt_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPP_DL='"$(abs_top_builddir)/tests/probes/.libs/libppdl.so"'
tests_probes_pp_rt_CFLAGS = $(PP_CFLAGS)
tests_probes_pp_rt_LDFLAGS = -pthread -no-install
tests_probes_pp_rt_LDADD = tests/probes/libpplib.la -ldl
EXTRA_tests_probes_pp_rt_DEPENDENCIES = tests/probes/libppdl.la
TESTS += tests/probes/inprog.sh
EXTRA_DIST += tests/probes/inprog.sh

# pp-vec: registers held across probe hits, under ptrace (pp-vec) and
# handled in the program (pp-vec-rt, the runtime compiled in)
# (vecregs.sh) and after noosa is killed while attached (killed.sh);
# hit-regs.sh checks probe-hit.c's objects.
check_PROGRAMS += tests/probes/pp-vec tests/probes/pp-vec-rt
tests_probes_pp_vec_SOURCES = tests/probes/pp-vec.c
tests_probes_pp_vec_CFLAGS = $(PP_CFLAGS)
tests_probes_pp_vec_LDFLAGS = -no-install
tests_probes_pp_vec_rt_SOURCES = tests/probes/pp-vec.c \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
tests_probes_pp_vec_rt_CFLAGS = $(PP_CFLAGS)
tests_probes_pp_vec_rt_LDFLAGS = -pthread -no-install
TESTS += tests/probes/vecregs.sh tests/probes/hit-regs.sh tests/probes/killed.sh
EXTRA_DIST += tests/probes/vecregs.sh tests/probes/hit-regs.sh \
	tests/probes/killed.sh
