# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of conditions (tests/cond), sourced by
# each script: where cv is, and the batch runs and checks of
# tests/lib/batch-run.sh.
AREA=cond
. "${srcdir:-.}/tests/lib/batch-env.sh"
CV=$abs_top_builddir/tests/cond/cv
. "$abs_top_srcdir/tests/lib/batch-run.sh"
