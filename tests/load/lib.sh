# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of monitoring under load (tests/load),
# sourced by each script: where lt is, and the batch runs and checks of
# tests/lib/batch-run.sh.

AREA=load
. "${srcdir:-.}/tests/lib/batch-env.sh"
LT=$abs_top_builddir/tests/load/lt
. "$abs_top_srcdir/tests/lib/batch-run.sh"

