# SPDX-License-Identifier: MIT
# bench: benchmarks, run by `make bench` (never by `make check`).  Each
# reports ratios against a baseline measured in the same run; figures are
# recorded in bench/README.
EXTRA_DIST += bench/README
BENCH_TARGETS =
include bench/dapto.mk
include bench/runtime.mk
include bench/filter.mk
include bench/monitor.mk
include bench/profile.mk
include bench/front.mk
include bench/cond.mk
include bench/question.mk
include bench/relate.mk
include bench/zlib.mk
include bench/screen.mk
include bench/attach.mk
include bench/processes.mk
include bench/defaults.mk
include bench/probe.mk

bench: $(BENCH_TARGETS)
.PHONY: bench
include bench/record.mk
include bench/replay.mk
include bench/dap.mk
include bench/debug.mk
