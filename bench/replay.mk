# SPDX-License-Identifier: MIT
# bench/replay.mk: `make bench-replay`, the speed of reading recordings:
# noosa --replay into the profiles, opening, noosa dump.  See
# bench/replay-run.sh (NOOSA_BASE=another noosa to compare with).
EXTRA_DIST += bench/replay-run.sh
check_PROGRAMS += bench/replay-open
bench_replay_open_SOURCES = bench/replay-open.c
bench_replay_open_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
bench-replay: bench/profile-calls$(EXEEXT) bench/monitor-loop$(EXEEXT) \
		bench/replay-open$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' NOOSA_BASE='$(NOOSA_BASE)' \
	    $(SHELL) $(srcdir)/bench/replay-run.sh
BENCH_TARGETS += bench-replay
.PHONY: bench-replay
