# SPDX-License-Identifier: MIT
# bench/filter.mk: `make bench-filter`, what an event with a filter costs
# the monitored program <protocol#filter>: state 0, recorded without a
# filter, a false filter and a true one.  filter-bench is the monitor
# (tests/runtime/tmon.c), filter-loop the program, pinned to one CPU.

EXTRA_DIST += bench/filter-loop.dapto
check_PROGRAMS += bench/filter-loop bench/filter-bench

bench_filter_loop_SOURCES = bench/filter-loop.c
nodist_bench_filter_loop_SOURCES = bench/fbloop_dapto.c bench/fbloop_dapto.h
bench_filter_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_filter_loop_LDFLAGS = $(AM_LDFLAGS) -no-install
bench_filter_loop_LDADD = lib/libdapto.la
CLEANFILES += bench/fbloop_dapto.c bench/fbloop_dapto.h bench/fbloop_dapto.db
$(bench_filter_loop_OBJECTS): bench/fbloop_dapto.h
bench/fbloop_dapto.h: bench/fbloop_dapto.c
bench/fbloop_dapto.c: $(srcdir)/bench/filter-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n fbloop $(srcdir)/bench/filter-loop.dapto

bench_filter_bench_SOURCES = bench/filter-bench.c tests/runtime/tmon.c \
	tests/runtime/tmon.h tests/runtime/fbuild.c tests/runtime/fbuild.h
bench_filter_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/runtime
bench_filter_bench_LDADD = lib/libchannel.la

bench-filter: bench/filter-loop$(EXEEXT) bench/filter-bench$(EXEEXT)
	@bench/filter-bench$(EXEEXT) bench/filter-loop$(EXEEXT) 10000000 7
BENCH_TARGETS += bench-filter
.PHONY: bench-filter
