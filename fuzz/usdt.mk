# SPDX-License-Identifier: MIT
# fuzz/usdt.mk: a libFuzzer harness for the USDT note parser
# (src/core/usdt.c); see fuzz/local.mk.  Seeds are the note sections of
# real files (python3's, the test program's) and argument texts.
EXTRA_DIST += fuzz/usdt-notes.c fuzz/seeds/usdt-notes

if FUZZING
noinst_PROGRAMS += fuzz/usdt-notes
FUZZ_TARGETS += fuzz/usdt-notes
fuzz_usdt_notes_SOURCES = fuzz/usdt-notes.c src/core/usdt.c \
	src/base/xmalloc.c
fuzz_usdt_notes_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
fuzz_usdt_notes_CFLAGS = $(FUZZ_CFLAGS)
fuzz_usdt_notes_LDFLAGS = $(FUZZ_CFLAGS)
endif
