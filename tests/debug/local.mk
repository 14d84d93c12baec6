# SPDX-License-Identifier: MIT
# tests/debug: the program's C data at a stop (print, frames, browsing,
# display, n_cvalue), end to end through noosa --batch on dv, which is
# built at -O0 and -O2 from one source (the scripts make copies without
# debug information and stripped of every symbol).  print.sh compares
# noosa's output with gdb's at the same stops.

EXTRA_DIST += tests/debug/dv.dapto tests/debug/dv.h
dv_sources = tests/debug/dv.c tests/debug/dv.h \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
dv_cppflags = $(AM_CPPFLAGS) -I$(top_builddir)/tests/debug \
	-I$(top_srcdir)/tests/debug
check_PROGRAMS += tests/debug/dv tests/debug/dv-O2
tests_debug_dv_SOURCES = $(dv_sources)
nodist_tests_debug_dv_SOURCES = tests/debug/dv_dapto.c tests/debug/dv_dapto.h
tests_debug_dv_CPPFLAGS = $(dv_cppflags) -DDV_OPT0
tests_debug_dv_CFLAGS = -g -O0 -pthread
tests_debug_dv_LDFLAGS = -pthread
tests_debug_dv_O2_SOURCES = $(dv_sources)
nodist_tests_debug_dv_O2_SOURCES = tests/debug/dv_dapto.c tests/debug/dv_dapto.h
tests_debug_dv_O2_CPPFLAGS = $(dv_cppflags) -DDV_OPT2
tests_debug_dv_O2_CFLAGS = -g -O2 -pthread
tests_debug_dv_O2_LDFLAGS = -pthread
CLEANFILES += tests/debug/dv_dapto.c tests/debug/dv_dapto.h \
	tests/debug/dv_dapto.db
tests/debug/dv-dv.$(OBJEXT) \
tests/debug/dv_O2-dv.$(OBJEXT): tests/debug/dv_dapto.h
tests/debug/dv_dapto.h: tests/debug/dv_dapto.c
tests/debug/dv_dapto.c: $(srcdir)/tests/debug/dv.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/debug && \
	src/dapto/dapto -o tests/debug -n dv $(srcdir)/tests/debug/dv.dapto

# The fuzz harness of print's expressions over its seeds and mutations of
# them (fuzz/cexpr.mk), in every check and under the sanitizers.
check_PROGRAMS += tests/debug/cexpr-seeds
TESTS += tests/debug/cexpr-seeds
tests_debug_cexpr_seeds_SOURCES = tests/debug/cexpr-seeds.c fuzz/cexpr.c
tests_debug_cexpr_seeds_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-DNOOSA_SRCDIR='"$(abs_top_srcdir)"'
tests_debug_cexpr_seeds_LDADD = src/libnoosa.la

TESTS += tests/debug/print.sh tests/debug/frames.sh tests/debug/browse.sh \
	tests/debug/tcl.sh tests/debug/errors.sh tests/debug/display.sh
EXTRA_DIST += tests/debug/lib.sh tests/debug/print.sh tests/debug/frames.sh \
	tests/debug/browse.sh tests/debug/tcl.sh tests/debug/errors.sh \
	tests/debug/display.sh tests/debug/exprs tests/debug/fault-exprs
clean-local: clean-debug-tests
clean-debug-tests:
	rm -rf tests/debug/work
.PHONY: clean-debug-tests
