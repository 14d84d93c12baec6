# SPDX-License-Identifier: MIT
# fuzz/dapto.mk: a libFuzzer harness for the dapto compiler (lexer, parser,
# checker and generators, all on a buffer); see fuzz/local.mk.  Seeds are
# the test specifications, good and bad.
EXTRA_DIST += fuzz/dapto-parse.c fuzz/seeds/dapto-parse

if FUZZING
noinst_PROGRAMS += fuzz/dapto-parse
FUZZ_TARGETS += fuzz/dapto-parse
fuzz_dapto_parse_SOURCES = fuzz/dapto-parse.c $(DAPTO_CORE_SOURCES)
fuzz_dapto_parse_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/dapto -I$(top_srcdir)/src/base
fuzz_dapto_parse_CFLAGS = $(WARN_CFLAGS) $(FUZZ_CFLAGS)
fuzz_dapto_parse_LDFLAGS = $(FUZZ_CFLAGS)
endif
