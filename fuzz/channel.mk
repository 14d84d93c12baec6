# SPDX-License-Identifier: MIT
# fuzz/channel.mk: libFuzzer harness of the monitor's record decoder
# (reader, registry, values); see fuzz/local.mk.
EXTRA_DIST += fuzz/channel-reader.c fuzz/seeds/channel-reader
if FUZZING
noinst_PROGRAMS += fuzz/channel-reader
FUZZ_TARGETS += fuzz/channel-reader
fuzz_channel_reader_SOURCES = fuzz/channel-reader.c \
	src/base/xmalloc.c src/core/decode.c src/core/registry.c src/core/reader.c src/core/clock.c \
	src/core/value.c
fuzz_channel_reader_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
fuzz_channel_reader_CFLAGS = $(FUZZ_CFLAGS)
fuzz_channel_reader_LDFLAGS = $(FUZZ_CFLAGS)
endif
