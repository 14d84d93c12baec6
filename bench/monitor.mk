# SPDX-License-Identifier: MIT
# bench/monitor.mk: the monitor's benchmarks, `make bench-monitor`: stop
# round trip against gdb's conditional breakpoint, and throughput of
# decoded events.  See bench/monitor-run.sh.

EXTRA_DIST += bench/monitor-loop.dapto bench/monitor-run.sh
check_PROGRAMS += bench/monitor-loop bench/monitor-bench

# The loop compiles the runtime's sources in (optimised, no sanitizers),
# so that it is a plain executable that gdb and noosa can run directly
# (a libtool wrapper script would be traced instead).
bench_monitor_loop_SOURCES = bench/monitor-loop.c bench/pin.h \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_bench_monitor_loop_SOURCES = bench/monloop_dapto.c bench/monloop_dapto.h
bench_monitor_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_monitor_loop_CFLAGS = -O2 -g -pthread
bench_monitor_loop_LDFLAGS = -pthread
CLEANFILES += bench/monloop_dapto.c bench/monloop_dapto.h bench/monloop_dapto.db
bench/monitor_loop-monitor-loop.$(OBJEXT): bench/monloop_dapto.h
bench/monloop_dapto.h: bench/monloop_dapto.c
bench/monloop_dapto.c: $(srcdir)/bench/monitor-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n monloop $(srcdir)/bench/monitor-loop.dapto

bench_monitor_bench_SOURCES = bench/monitor-bench.c
bench_monitor_bench_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
bench_monitor_bench_LDADD = src/libnoosa.la

bench-monitor: bench/monitor-loop$(EXEEXT) bench/monitor-bench$(EXEEXT)
	@top_builddir='$(top_builddir)' GDB='$(GDB)' \
	    $(SHELL) $(srcdir)/bench/monitor-run.sh
BENCH_TARGETS += bench-monitor
.PHONY: bench-monitor
