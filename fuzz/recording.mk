# SPDX-License-Identifier: MIT
# fuzz/recording.mk: libFuzzer harness of the reader of recordings
# (src/record); see fuzz/local.mk.  Its seeds are also read by
# tests/record/fuzz-seeds in every `make check`, so the harness is built
# and run (under the sanitizers of an --enable-asan build) without clang.
EXTRA_DIST += fuzz/recording-reader.c fuzz/seeds/recording-reader
REC_READER_SOURCES = src/base/xmalloc.c src/core/decode.c src/core/registry.c \
	src/core/reader.c src/core/clock.c src/core/value.c \
	src/record/recread.c src/record/recmeta.c src/record/recstream.c \
	src/record/recindex.c \
	src/record/export.c
REC_FUZZ_SOURCES = fuzz/recording-reader.c $(REC_READER_SOURCES)
if FUZZING
noinst_PROGRAMS += fuzz/recording-reader
FUZZ_TARGETS += fuzz/recording-reader
fuzz_recording_reader_SOURCES = $(REC_FUZZ_SOURCES)
fuzz_recording_reader_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
fuzz_recording_reader_CFLAGS = $(FUZZ_CFLAGS)
fuzz_recording_reader_LDFLAGS = $(FUZZ_CFLAGS)
fuzz_recording_reader_LDADD = -lm
endif
