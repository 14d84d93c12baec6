# SPDX-License-Identifier: MIT
# fuzz: libFuzzer harnesses for the parsers and decoders.  Built only with
# `configure CC=clang --enable-fuzzing`; `make fuzz-run` runs each for
# FUZZ_SECONDS, starting from its seeds in fuzz/seeds/NAME/.
#
# A harness adds itself with:
#   if FUZZING
#   noinst_PROGRAMS += fuzz/NAME
#   FUZZ_TARGETS += fuzz/NAME
#   fuzz_NAME_CFLAGS = $(FUZZ_CFLAGS) ...
#   fuzz_NAME_LDFLAGS = $(FUZZ_CFLAGS)
#   endif

FUZZ_TARGETS =
FUZZ_SECONDS = 30
FUZZ_CFLAGS = -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer

fuzz: $(FUZZ_TARGETS)

fuzz-run: $(FUZZ_TARGETS)
	@set -e; for t in $(FUZZ_TARGETS); do \
	    name=$${t##*/}; \
	    mkdir -p fuzz/corpus/$$name; \
	    echo "fuzz-run: $$name for $(FUZZ_SECONDS) s"; \
	    ./$$t -max_total_time=$(FUZZ_SECONDS) -error_exitcode=1 -print_final_stats=1 \
	        fuzz/corpus/$$name $(srcdir)/fuzz/seeds/$$name 2>fuzz/corpus/$$name.log || \
	        { tail -50 fuzz/corpus/$$name.log; exit 1; }; \
	    grep -E 'stat::number_of_executed_units|Done' fuzz/corpus/$$name.log | tail -2; \
	done

.PHONY: fuzz fuzz-run

include fuzz/dapto.mk
include fuzz/channel.mk
include fuzz/recording.mk
include fuzz/usdt.mk
include fuzz/cexpr.mk
