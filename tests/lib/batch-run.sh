# SPDX-License-Identifier: MIT
# batch-run.sh - running `noosa --batch` with a time limit (a hang is a
# failure, not a stuck suite) and checks on what it printed, for the
# harnesses of tests/load and tests/cond; sourced after batch-env.sh.
# Each run NAME leaves in $WORK NAME.out (standard output), NAME.err
# (standard error) and NAME.rc (the exit status, 124 when it hit the time
# limit).

# batch NAME ARG...: noosa --batch -n ARG... in $WORK, at most $LIMIT
# seconds (default 60), standard input from /dev/null.
LIMIT=60
batch() {
    name=$1
    shift
    timeout -k 5 "$LIMIT" "$NOOSA" --batch -n "$@" </dev/null \
        >"$WORK/$name.out" 2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
}

# show NAME: what run NAME printed, for a failure's log.
show() {
    echo "--- $1: stdout"
    tail -n 40 "$WORK/$1.out"
    echo "--- $1: stderr"
    tail -n 20 "$WORK/$1.err"
    echo "--- $1: exit status $(cat "$WORK/$1.rc")"
}

# status NAME N: run NAME ended with exit status N.
status() {
    rc=$(cat "$WORK/$1.rc")
    if [ "$rc" = "$2" ]; then
        echo "ok: $1 exit status $2"
    else
        fail "$1: exit status $rc, expected $2"
        show "$1"
    fi
}

# count NAME N PATTERN: N lines of run NAME's output (both streams)
# match the extended regular expression PATTERN.
count() {
    n=$(cat "$WORK/$1.out" "$WORK/$1.err" | grep -E -c -e "$3")
    if [ "$n" -eq "$2" ]; then
        echo "ok: $1 has $2 of /$3/"
    else
        fail "$1: $n lines match /$3/, expected $2"
        show "$1"
    fi
}

# has NAME PATTERN: some line of run NAME's output matches PATTERN.
has() {
    if cat "$WORK/$1.out" "$WORK/$1.err" | grep -E -q -e "$2"; then
        echo "ok: $1 has /$2/"
    else
        fail "$1: nothing matches /$2/"
        show "$1"
    fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures failed"
        exit 1
    fi
    exit 0
}
