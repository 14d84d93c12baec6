# SPDX-License-Identifier: MIT
# fuzz/cexpr.mk: a libFuzzer harness of print's C expressions, evaluated
# with no program behind them (src/debug/cexpr.c); see fuzz/local.mk.
# Its seeds are also run, with mutations, by tests/debug/cexpr-seeds in
# every `make check`.
EXTRA_DIST += fuzz/cexpr.c fuzz/seeds/cexpr
if FUZZING
noinst_PROGRAMS += fuzz/cexpr
FUZZ_TARGETS += fuzz/cexpr
fuzz_cexpr_SOURCES = fuzz/cexpr.c
fuzz_cexpr_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES)
fuzz_cexpr_CFLAGS = $(FUZZ_CFLAGS)
fuzz_cexpr_LDFLAGS = $(FUZZ_CFLAGS)
fuzz_cexpr_LDADD = src/libnoosa.la
endif
