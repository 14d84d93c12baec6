# SPDX-License-Identifier: MIT
# batch-env.sh - the common start of the harnesses that run `noosa --batch`
# (tests/noosa/lib.sh, tests/profile/lib.sh), sourced with AREA set to the
# tests' directory name: where the trees are, the path normaliser's awk
# functions (TREE_AWK, from tree.awk), and a work directory of the script's
# own, WORK, made afresh and made the current directory.  No start-up
# files or library come from the environment of whoever runs the tests:
# HOME and XDG_CONFIG_HOME are empty directories inside WORK and
# NOOSA_LIBRARY is unset.  fail MESSAGE reports a failure and counts it in
# $failures.

set -u
: "${top_builddir:=.}"
: "${srcdir:=.}"
: "${abs_top_srcdir:=$(cd "$srcdir" && pwd)}"
: "${abs_top_builddir:=$(cd "$top_builddir" && pwd)}"
NOOSA=$abs_top_builddir/src/noosa
EXAMPLES=$abs_top_srcdir/examples/calc
TESTS_SRC=$abs_top_srcdir/tests/$AREA
EXPECTED=$TESTS_SRC/expected
TREE_AWK=$(cat "$abs_top_srcdir/tests/lib/tree.awk") || exit 99
SCRIPT=$(basename "$0" .sh)
# one directory per script, so that scripts can run in parallel
WORK=$abs_top_builddir/tests/$AREA/work/$SCRIPT
rm -rf "$WORK"
mkdir -p "$WORK/home" "$WORK/xdg" || exit 99
HOME=$WORK/home
XDG_CONFIG_HOME=$WORK/xdg
export HOME XDG_CONFIG_HOME
unset NOOSA_LIBRARY
cd "$WORK" || exit 99
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
