# SPDX-License-Identifier: MIT
# bench/cond.mk: conditions in the program, `make bench-cond`: a false
# breakpoint condition per hit with no monitor, evaluated in the program,
# in noosa and by gdb, on the front end's loop (bench/front.mk builds it),
# pinned to one CPU and to two.  See bench/cond-run.sh.

EXTRA_DIST += bench/cond-run.sh

bench-cond: bench/front-loop$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' GDB='$(GDB)' \
	    $(SHELL) $(srcdir)/bench/cond-run.sh
BENCH_TARGETS += bench-cond
.PHONY: bench-cond
