# SPDX-License-Identifier: MIT
# bench/dapto.mk: benchmark rules; add a phony target to BENCH_TARGETS.
