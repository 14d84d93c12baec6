#!/bin/sh
# SPDX-License-Identifier: MIT
# stress.sh - `make check-stress`: the races of tests/load many times over,
# with noosa and the program on one CPU and on two: one stop per event
# over many laps of the ring (ring.sh's shape), threads that come and go
# under a handler and a rare breakpoint (threads.sh's), and filters
# rewritten in the program while its threads read them (tests/cond's
# swap.sh), and attaching to a program whose threads emit flat out and
# detaching, many times in a row (attach.sh's shape, ATTACH_CYCLES 10 a
# run).  RUNS (default 100) runs of each shape on each placement; the
# first failure's output is shown.  Not part of `make check`; .ci/run runs
# it with fewer RUNS.
. "$srcdir/tests/load/lib.sh"

RUNS=${RUNS:-100}
ncpu=$(nproc)
placements="one"
[ "$ncpu" -ge 2 ] && placements="one two"

counts='set bad 0; for {set k 0} {$k < $T} {incr k} {
    if {![info exists c($k)] || $c($k) != $N} {incr bad}
}; puts "threads [array size c] wrong $bad"'

# place P COMMAND...: run COMMAND with noosa on CPU 0 and the program on
# CPU 0 (one) or CPU 1 (two).
place() {
    p=$1
    shift
    if [ "$p" = one ]; then
        LT_CPU=0 taskset -c 0 "$@"
    else
        LT_CPU=1 taskset -c 0 "$@"
    fi
}

start=$(date +%s)
for p in $placements; do
    ok=0
    i=0
    while [ $i -lt "$RUNS" ]; do
        i=$((i + 1))
        name=ring-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'conditions noosa' -e 'break tick if {$i < 0}' -e run "$LT" loop 60000 hello 1000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^loop: 60000 ticks$' "$WORK/$name.out" &&
            ! grep -q 'protocol error' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        name=threads-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'set T 16; set N 4000; set stops 0' \
            -e 'handler add tock count {global c; incr c($th)}' \
            -e 'break rare if {$i == 3999}' -e run \
            -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
            -e 'puts "stops $stops"' -e "$counts" "$LT" threads 16 4000 5 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^stops 16$' "$WORK/$name.out" &&
            grep -q '^threads 16 wrong 0$' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # attach and detach while threads emit (tests/load/attach.sh)
        name=attach-$p-$i
        if place "$p" env ATTACH_CYCLES=10 \
            srcdir="$abs_top_srcdir" top_builddir="$abs_top_builddir" \
            abs_top_srcdir="$abs_top_srcdir" abs_top_builddir="$abs_top_builddir" \
            timeout -k 5 300 sh "$abs_top_srcdir/tests/load/attach.sh" \
            >"$WORK/$name.out" 2>&1; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            tail -40 "$WORK/$name.out"
        fi

        # filters rewritten under threads reading them (tests/cond/swap.sh)
        name=swap-$p-$i
        if place "$p" env COND_SEED=$i SWAP_N=1500 \
            srcdir="$abs_top_srcdir" top_builddir="$abs_top_builddir" \
            abs_top_srcdir="$abs_top_srcdir" abs_top_builddir="$abs_top_builddir" \
            timeout -k 5 120 sh "$abs_top_srcdir/tests/cond/swap.sh" \
            >"$WORK/$name.out" 2>&1; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            tail -40 "$WORK/$name.out"
        fi
    done
    echo "$p CPU: $ok of $((4 * RUNS)) runs passed"
done
echo "stress: $(($(date +%s) - start)) s"
finish
