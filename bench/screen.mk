# SPDX-License-Identifier: MIT
# bench/screen.mk: the screen's benchmarks, `make bench-screen`: a long
# transcript in the real screen (bench/screen-bench.c), and the screen
# keeping up with a program emitting events flat out, in a real terminal
# (bench/screen-run.sh, with tmux).

EXTRA_DIST += bench/screen-run.sh
check_PROGRAMS += bench/screen-bench
bench_screen_bench_SOURCES = bench/screen-bench.c
bench_screen_bench_CPPFLAGS = $(AM_CPPFLAGS) $(TCL_CFLAGS) $(NOOSA_INCLUDES)
bench_screen_bench_LDADD = src/libnoosa.la

bench-screen: bench/screen-bench$(EXEEXT) bench/monitor-loop$(EXEEXT) \
		src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' TMUX='$(TMUX)' TCLSH='$(TCLSH)' \
	    $(SHELL) $(srcdir)/bench/screen-run.sh
BENCH_TARGETS += bench-screen
.PHONY: bench-screen
