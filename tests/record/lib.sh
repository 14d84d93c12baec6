# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of recordings (tests/record), sourced by
# each script: where things are (batch-env.sh), and record NAME ARG...:
# `noosa record -o NAME ARG...` with its output in NAME.rec-out,
# NAME.rec-err and NAME.rec-rc.

AREA=record
. "${srcdir:-.}/tests/lib/batch-env.sh"
PT=$abs_top_builddir/tests/profile/pt
QUEENS=$abs_top_builddir/tests/profile/queens

record() {
    name=$1
    shift
    timeout 120 "$NOOSA" record -o "$name" "$@" </dev/null \
        >"$WORK/$name.rec-out" 2>"$WORK/$name.rec-err"
    echo $? >"$WORK/$name.rec-rc"
}

# has FILE TEXT: FILE holds the fixed string TEXT, else a failure.
has() {
    grep -qF -- "$2" "$1" || fail "$1 does not say: $2"
}

# count FILE PATTERN: lines of FILE matching the extended PATTERN.
count() {
    grep -cE -- "$2" "$1"
}

finish() {
    [ "$failures" -eq 0 ] || exit 1
    exit 0
}
