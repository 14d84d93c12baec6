# SPDX-License-Identifier: MIT
# bench/runtime.mk: `make bench-runtime`, the cost of recorded events in
# the monitored program with a consumer draining the ring concurrently,
# the consumer's rate, and the round trip of a stop.  runtime-bench is the
# monitor (tests/runtime/tmon.c), runtime-loop the program.

EXTRA_DIST += bench/runtime-loop.dapto
check_PROGRAMS += bench/runtime-loop bench/runtime-bench

bench_runtime_loop_SOURCES = bench/runtime-loop.c bench/pin.h
nodist_bench_runtime_loop_SOURCES = bench/rtloop_dapto.c bench/rtloop_dapto.h
bench_runtime_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_runtime_loop_LDFLAGS = $(AM_LDFLAGS) -no-install
bench_runtime_loop_LDADD = lib/libdapto.la
CLEANFILES += bench/rtloop_dapto.c bench/rtloop_dapto.h bench/rtloop_dapto.db
$(bench_runtime_loop_OBJECTS): bench/rtloop_dapto.h
bench/rtloop_dapto.h: bench/rtloop_dapto.c
bench/rtloop_dapto.c: $(srcdir)/bench/runtime-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n rtloop $(srcdir)/bench/runtime-loop.dapto

bench_runtime_bench_SOURCES = bench/runtime-bench.c tests/runtime/tmon.c \
	tests/runtime/tmon.h
bench_runtime_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/runtime
bench_runtime_bench_LDADD = lib/libchannel.la

# TSC and CLOCK_MONOTONIC timestamps, through the ring and through the
# threads' own buffers (tsc+threads), the monitor on CPU 0 and the program
# on CPU 1 when taskset is there; then both processes on CPU 0.
RUNTIME_BENCH_ARGS = 10000000 5 20000
RUNTIME_BENCH_ARGS_ONE_CPU = 2000000 5 5000
bench-runtime: bench/runtime-loop$(EXEEXT) bench/runtime-bench$(EXEEXT)
	@if command -v taskset >/dev/null; then \
	    echo "monitor on CPU 0, program on CPU 1:"; pin="taskset -c 0"; \
	    export BENCH_CPU=1; \
	else pin=; fi; \
	for c in tsc tsc+threads ns; do \
	    $$pin bench/runtime-bench$(EXEEXT) bench/runtime-loop$(EXEEXT) $$c \
	        $(RUNTIME_BENCH_ARGS) || exit 1; \
	done
	@if command -v taskset >/dev/null; then \
	    echo "both processes on CPU 0:"; \
	    for c in tsc tsc+threads; do \
	        taskset -c 0 bench/runtime-bench$(EXEEXT) \
	            bench/runtime-loop$(EXEEXT) $$c $(RUNTIME_BENCH_ARGS_ONE_CPU) \
	            || exit 1; \
	    done; \
	fi
BENCH_TARGETS += bench-runtime
.PHONY: bench-runtime
