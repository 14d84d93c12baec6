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

# backlog NAME EXTRA NOOSA-ARG...: noosa NOOSA-ARG... pt burst 100000
# $WORK/NAME.go EXTRA (EXTRA: nothing or "crash"), stopped once the program
# runs, continued once the program has written its 200000 records into
# the ring and ended: a backlog for noosa at the program's end.  Output
# in NAME.out, exit status in NAME.rc.
backlog() {
    name=$1
    extra=$2
    shift 2
    rm -f "$WORK/$name.go"
    timeout 120 "$NOOSA" "$@" "$PT" burst 100000 "$WORK/$name.go" $extra \
        </dev/null >"$WORK/$name.out" 2>&1 &
    tp=$!
    # timeout's child is noosa, noosa's the program
    nq=
    pp=
    i=0
    while [ $i -lt 400 ] && [ -z "$pp" ]; do
        [ -n "$nq" ] || nq=$(pgrep -P "$tp" | head -1)
        [ -z "$nq" ] || pp=$(pgrep -P "$nq" | head -1)
        i=$((i + 1))
        sleep 0.05
    done
    [ -n "$pp" ] || fail "$name: no program"
    # past the start (the runtime's handshake with noosa)
    sleep 1
    [ -z "$nq" ] || kill -STOP "$nq"
    touch "$WORK/$name.go"
    i=0
    while [ $i -lt 1200 ] && [ -n "$pp" ]; do
        st=$(awk '{print $3}' "/proc/$pp/stat" 2>/dev/null)
        case "$st" in Z | t | T | "") break ;; esac
        i=$((i + 1))
        sleep 0.05
    done
    [ -z "$nq" ] || kill -CONT "$nq"
    wait "$tp"
    echo $? >"$WORK/$name.rc"
}

finish() {
    [ "$failures" -eq 0 ] || exit 1
    exit 0
}
