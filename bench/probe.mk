# SPDX-License-Identifier: MIT
# bench/probe.mk: `make bench-probes`, what a hit of a USDT probe costs
# through noosa and through gdb (bench/probe-run.sh, on tests/probes'
# pp-main), beside a bare stop under ptrace (bench/ptrace-floor.c).

EXTRA_DIST += bench/probe-run.sh
check_PROGRAMS += bench/ptrace-floor
bench_ptrace_floor_SOURCES = bench/ptrace-floor.c bench/pin.h

bench-probes: tests/probes/pp-main$(EXEEXT) tests/probes/pp-rt$(EXEEXT) \
	    bench/ptrace-floor$(EXEEXT) src/noosa$(EXEEXT)
	@NOOSA=src/noosa$(EXEEXT) PP=tests/probes/pp-main$(EXEEXT) \
	    PP_RT=tests/probes/pp-rt$(EXEEXT) \
	    FLOOR=bench/ptrace-floor$(EXEEXT) \
	    $(SHELL) $(srcdir)/bench/probe-run.sh
BENCH_TARGETS += bench-probes
.PHONY: bench-probes
