# SPDX-License-Identifier: MIT
# bench/replay.mk: `make bench-replay`, the speed of reading recordings:
# noosa --replay into the profiles, opening, noosa dump.  See
# bench/replay-run.sh (NOOSA_BASE=another noosa to compare with).  And
# `make bench-replay-moves`: moves in long recordings with their index and
# checkpoints (bench/replay-moves.sh).
EXTRA_DIST += bench/replay-run.sh bench/replay-moves.sh \
	bench/replay-loop.dapto
check_PROGRAMS += bench/replay-open bench/replay-loop
bench_replay_open_SOURCES = bench/replay-open.c
bench_replay_open_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
bench-replay: bench/profile-calls$(EXEEXT) bench/monitor-loop$(EXEEXT) \
		bench/replay-open$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' NOOSA_BASE='$(NOOSA_BASE)' \
	    $(SHELL) $(srcdir)/bench/replay-run.sh
BENCH_TARGETS += bench-replay
.PHONY: bench-replay

# The loop of the moves benchmark, with the runtime compiled in (as
# monitor-loop).
bench_replay_loop_SOURCES = bench/replay-loop.c \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_bench_replay_loop_SOURCES = bench/rloop_dapto.c bench/rloop_dapto.h
bench_replay_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_replay_loop_CFLAGS = -O2 -g -pthread
bench_replay_loop_LDFLAGS = -pthread
CLEANFILES += bench/rloop_dapto.c bench/rloop_dapto.h bench/rloop_dapto.db
bench/replay_loop-replay-loop.$(OBJEXT): bench/rloop_dapto.h
bench/rloop_dapto.h: bench/rloop_dapto.c
bench/rloop_dapto.c: $(srcdir)/bench/replay-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n rloop $(srcdir)/bench/replay-loop.dapto
bench-replay-moves: bench/replay-loop$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' NOOSA_BASE='$(NOOSA_BASE)' \
	    $(SHELL) $(srcdir)/bench/replay-moves.sh
BENCH_TARGETS += bench-replay-moves
.PHONY: bench-replay-moves
