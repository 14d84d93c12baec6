# SPDX-License-Identifier: MIT
# bench/debug.mk: `make bench-debug`, what the program's C data costs:
# print and n_cvalue at a stop against gdb's print, the index of names
# against gdb reading the same program, start-up with and without a
# first print.  See bench/debug-run.sh.
EXTRA_DIST += bench/debug-run.sh
check_PROGRAMS += bench/debug-index
bench_debug_index_SOURCES = bench/debug-index.c
bench_debug_index_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
bench_debug_index_LDADD = src/libnoosa.la
bench-debug: bench/debug-index$(EXEEXT) tests/debug/dv-O2$(EXEEXT) \
		src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' $(SHELL) $(srcdir)/bench/debug-run.sh
BENCH_TARGETS += bench-debug
.PHONY: bench-debug
