# SPDX-License-Identifier: MIT
# lib.sh - helpers for the scripts of tests/probes, sourced by each: where
# things are, `noosa --batch -n` in a work directory of the script's own
# (batch-env.sh), and has/hasnt, which look for a fixed string in what a
# run printed.

AREA=probes
. "${srcdir:-.}/tests/lib/batch-env.sh"
PP=$abs_top_builddir/tests/probes/pp-main

# batch NAME ARG...: noosa --batch -n ARG..., output in NAME.out, NAME.err,
# NAME.rc.
batch() {
    name=$1
    shift
    timeout 120 "$NOOSA" --batch -n "$@" </dev/null >"$WORK/$name.out" \
        2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
}

# has NAME TEXT: run NAME printed TEXT (a fixed string); hasnt: did not.
has() {
    grep -qF -- "$2" "$WORK/$1.out" ||
        fail "$1: no \"$2\" in: $(head -c 2000 "$WORK/$1.out")"
}
hasnt() {
    if grep -qF -- "$2" "$WORK/$1.out"; then
        fail "$1: \"$2\" printed"
    fi
}

# status NAME N: run NAME exited with status N.
status() {
    [ "$(cat "$WORK/$1.rc")" = "$2" ] ||
        fail "$1: exit status $(cat "$WORK/$1.rc"), not $2: $(cat "$WORK/$1.err")"
}

# pp_values: the values pp-main's probes give in a run, one line a hit,
# the same whichever way noosa takes the hits (ptrace stops or in the
# program).
pp_values() {
    cat <<'OUT'
tick arg1=0 arg2=0 arg3=0
pair a=40 who=parent
global arg1=9
constant arg1=42
guarded arg1=0
work arg1=0 arg2=from the library
plain arg1=0
tick arg1=1 arg2=1000000000 arg3=-1
pair a=41 who=parent
global arg1=9
constant arg1=42
guarded arg1=-1
work arg1=1 arg2=from the library
plain arg1=3
tick arg1=2 arg2=2000000000 arg3=-2
pair a=42 who=parent
global arg1=9
constant arg1=42
guarded arg1=-2
work arg1=2 arg2=from the library
plain arg1=6
loaded arg1=7 arg2=49
OUT
}
