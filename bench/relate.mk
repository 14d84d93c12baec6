# SPDX-License-Identifier: MIT
# bench/relate.mk: relations between events, `make bench-relate`: what a
# question within a component, and a question on a derived event, cost
# the program per event over the same question without the relation,
# with noosa's defaults, pinned to one CPU and to two.  See
# bench/relate-run.sh.

EXTRA_DIST += bench/relate-run.sh
check_PROGRAMS += bench/relate-loop

# The front end's loop's interface (hit(n, k)), and the runtime's sources
# compiled in (optimised, no sanitizers).
bench_relate_loop_SOURCES = bench/relate-loop.c bench/pin.h \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_bench_relate_loop_SOURCES = bench/frontloop_dapto.c \
	bench/frontloop_dapto.h
bench_relate_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench -I$(top_srcdir)/bench
bench_relate_loop_CFLAGS = -O2 -g -pthread
bench_relate_loop_LDFLAGS = -pthread
bench/relate_loop-relate-loop.$(OBJEXT): bench/frontloop_dapto.h

bench-relate: bench/relate-loop$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' $(SHELL) $(srcdir)/bench/relate-run.sh
BENCH_TARGETS += bench-relate
.PHONY: bench-relate
