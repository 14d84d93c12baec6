# SPDX-License-Identifier: MIT
# bench/processes.mk: `make bench-processes`, a run of several processes
# (follow-fork both) against one, and what following a child costs
# (bench/processes-run.sh, on tests/load's lt).

EXTRA_DIST += bench/processes-run.sh

bench-processes: tests/load/lt$(EXEEXT) src/noosa$(EXEEXT)
	@NOOSA=src/noosa$(EXEEXT) LT=tests/load/lt$(EXEEXT) \
	    $(SHELL) $(srcdir)/bench/processes-run.sh
BENCH_TARGETS += bench-processes
.PHONY: bench-processes
