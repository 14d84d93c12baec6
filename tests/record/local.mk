# SPDX-License-Identifier: MIT
# tests/record: recordings (noosa record, noosa dump, replay, exports).
#
#   record.sh       recording pt and queens and dumping them back; what
#                   is recorded; lossless; bytes an enter/leave event takes
#   bad.sh          what is not a readable recording, versions, a
#                   recording cut short, corrupt packets
#   babeltrace.sh   babeltrace2 reads a recording as it is
#   export.sh       Chrome JSON and Perfetto protobuf (protoc --decode)
#   replay.sh       a recording played in batch mode: trace, handlers,
#                   breakpoints, step, step back, goto, profiles
#   live.sh         the record command: a session recorded, live exports
#   flight.sh       the flight recorder: the last events at a crash
#   buffers.sh      recording through the threads' own buffers: many
#                   threads, threads that end, a crash, losses, older
#                   runtimes, a program scribbling on its buffer
#   replay-screen.sh  a recording played in the screen (tmux)
#   profiles.sh     the profiles of a recording played are the live run's
#   moves.sh        moves keep every state as a play from the start makes
#                   it: checkpoints, reverse-continue, reverse-step, step N
#   index.sh        the index: made, kept, used; stale, corrupt, newer;
#                   moves against reading from the start (rec-moves)
#
# The programs are tests/profile's (pt, queens).

RECORD_TESTS = tests/record/record.sh tests/record/bad.sh \
	tests/record/babeltrace.sh tests/record/export.sh tests/record/replay.sh \
	tests/record/live.sh tests/record/flight.sh tests/record/replay-screen.sh \
	tests/record/profiles.sh tests/record/buffers.sh tests/record/killed.sh \
	tests/record/index.sh tests/record/moves.sh
TESTS += $(RECORD_TESTS)
EXTRA_DIST += $(RECORD_TESTS) tests/record/lib.sh tests/record/perfetto.proto \
	tests/record/threads.awk

clean-local: clean-record-tests
clean-record-tests:
	rm -rf tests/record/work
.PHONY: clean-record-tests

# The fuzz harness of the reader over its seeds and mutations of them.
check_PROGRAMS += tests/record/fuzz-seeds
TESTS += tests/record/fuzz-seeds
tests_record_fuzz_seeds_SOURCES = tests/record/fuzz-seeds.c $(REC_FUZZ_SOURCES)
tests_record_fuzz_seeds_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-DNOOSA_SRCDIR='"$(abs_top_srcdir)"'
tests_record_fuzz_seeds_LDADD = -lm

# Moves in a recording against reading it from its start (index.sh).
check_PROGRAMS += tests/record/rec-moves
tests_record_rec_moves_SOURCES = tests/record/rec-moves.c $(REC_READER_SOURCES)
tests_record_rec_moves_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
tests_record_rec_moves_LDADD = -lm

# A recording made to look like a newer minor version's (bad.sh).
check_PROGRAMS += tests/record/rec-inject
tests_record_rec_inject_SOURCES = tests/record/rec-inject.c
tests_record_rec_inject_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
