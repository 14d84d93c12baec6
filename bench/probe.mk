# SPDX-License-Identifier: MIT
# bench/probe.mk: `make bench-probes`, what a hit of a USDT probe costs
# through noosa and through gdb (bench/probe-run.sh, on tests/probes'
# pp-main).

EXTRA_DIST += bench/probe-run.sh

bench-probes: tests/probes/pp-main$(EXEEXT) tests/probes/pp-rt$(EXEEXT) \
	    src/noosa$(EXEEXT)
	@NOOSA=src/noosa$(EXEEXT) PP=tests/probes/pp-main$(EXEEXT) \
	    PP_RT=tests/probes/pp-rt$(EXEEXT) \
	    $(SHELL) $(srcdir)/bench/probe-run.sh
BENCH_TARGETS += bench-probes
.PHONY: bench-probes
