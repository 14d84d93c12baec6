# SPDX-License-Identifier: MIT
# bench/runtime.mk: benchmark rules; add a phony target to BENCH_TARGETS.
