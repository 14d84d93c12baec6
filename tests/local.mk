# SPDX-License-Identifier: MIT
# tests: each area keeps its rules in its own fragment.
EXTRA_DIST += tests/lib
include tests/dapto/local.mk
include tests/runtime/local.mk
include tests/target/local.mk
include tests/front/local.mk
include tests/examples/local.mk
include tests/errors/local.mk
include tests/profile/local.mk
include tests/noosa/local.mk
include tests/tcl/local.mk
include tests/screen/local.mk
include tests/load/local.mk
include tests/cond/local.mk
include tests/build/local.mk
include tests/record/local.mk
include tests/dap/local.mk
include tests/probes/local.mk
include tests/debug/local.mk
include tests/relate/local.mk
