# SPDX-License-Identifier: MIT
# bench/replay.mk: `make bench-replay`, the speed of reading recordings:
# noosa --replay into the profiles, opening, noosa dump.  See
# bench/replay-run.sh (NOOSA_BASE=another noosa to compare with).
EXTRA_DIST += bench/replay-run.sh
bench-replay: bench/profile-calls$(EXEEXT) bench/monitor-loop$(EXEEXT) \
		src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' NOOSA_BASE='$(NOOSA_BASE)' \
	    $(SHELL) $(srcdir)/bench/replay-run.sh
BENCH_TARGETS += bench-replay
.PHONY: bench-replay
