#!/bin/sh
# SPDX-License-Identifier: MIT
# killed.sh - a recording stays readable by babeltrace2 and noosa dump
# however the run ends: noosa record killed with SIGKILL at a random
# moment (with thread buffers, through the ring, as a flight recorder),
# noosa killed while its record command records a session, and the
# program killed under noosa record.  A packet whose write SIGKILL cut
# used to end a file, and babeltrace2 refused the whole recording
# ("Invalid packet size", about one kill in five); the files are now cut
# to their last whole packet (src/record/recguard.c).  The same at once:
# noosa's file size limit lowered under it to the middle of its next
# packet (prlimit), so that the write is cut and noosa dies of SIGXFSZ
# right there (noosa record and the record command).  KILL_RUNS (default
# 3) kills of each kind at random (make check-stress runs more);
# KILL_SEED=N repeats a run.  Skipped without babeltrace2.
. "${srcdir:-.}/tests/record/lib.sh"

command -v babeltrace2 >/dev/null 2>&1 || {
    echo "SKIP: babeltrace2 is not installed (Debian package babeltrace2)"
    exit 77
}

RUNS=${KILL_RUNS:-3}
seed=${KILL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (KILL_SEED=$seed repeats this run)"
rand=$seed
# next_delay: a delay from 0.02 to 0.25 s in $delay, from the seed on.
next_delay() {
    rand=$(((rand * 1103515245 + 12345) % 2147483648))
    delay=$(printf '0.%02d' $((2 + (rand / 65536) % 24)))
}

# guarded DIR: whether a process still has DIR open (the process that
# cuts the files of a recording whose writer died, while it works).
guarded() {
    ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q -- " $1\$"
}

# readable NAME: the recording NAME (its writer gone) is taken whole by
# babeltrace2 and noosa dump; a directory left empty (killed before it
# had its metadata) counts apart.
readable() {
    i=0
    while guarded "$WORK/$1"; do
        i=$((i + 1))
        if [ $i -gt 200 ]; then
            fail "$1: still guarded after 10 s"
            return
        fi
        sleep 0.05
    done
    if [ ! -e "$WORK/$1/metadata" ]; then
        empty=$((empty + 1))
        return
    fi
    if ! babeltrace2 -o dummy "$WORK/$1" >/dev/null 2>"$WORK/$1.bt-err"; then
        fail "$1 ($why): babeltrace2: $(grep -m1 -i -e error -e invalid "$WORK/$1.bt-err" | cut -c1-300)"
        return
    fi
    if ! "$NOOSA" dump "$WORK/$1" >/dev/null 2>"$WORK/$1.dump-err"; then
        fail "$1: noosa dump: $(head -3 "$WORK/$1.dump-err")"
        return
    fi
    if grep -q -i -e 'cut short' -e 'corrupt' -e 'skipped' "$WORK/$1.dump-err"; then
        fail "$1: noosa dump found a packet cut: $(head -3 "$WORK/$1.dump-err")"
        return
    fi
    good=$((good + 1))
    rm -rf "${WORK:?}/$1" "$WORK/$1".*
}

# kill_after PID: SIGKILL to PID after the next delay.
kill_after() {
    next_delay
    sleep "$delay"
    kill -9 "$1" 2>/dev/null
    why="killed after $delay s"
}

good=0
empty=0

# cut_write NAME NOOSA-ARG...: noosa NOOSA-ARG... recording to $WORK/NAME from
# a program that emits slowly (a packet every tenth of a second), its
# file size limit lowered to 30000 bytes past its thread file's end once
# that has a packet: the next packet's write is cut there, and noosa dies
# of SIGXFSZ at the next.
cut_write() {
    name=$1
    shift
    "$@" "$LT" loop 3000000 x 20000 </dev/null >/dev/null 2>&1 &
    pid=$!
    i=0
    until [ -s "$(ls "$WORK/$name"/thread_* 2>/dev/null | head -1)" ]; do
        i=$((i + 1))
        [ $i -gt 1000 ] && break
        sleep 0.01
    done
    size=$(stat -c %s "$(ls "$WORK/$name"/thread_* | head -1)")
    prlimit --pid $pid --fsize=$((size + 30000)):unlimited
    wait $pid
    rc=$?
    [ $rc = 153 ] || fail "$name: noosa ended with status $rc, not of SIGXFSZ"
    why="cut by its file size limit"
    readable "$name"
    [ ! -e "$WORK/$name" ] || fail "$name: not readable"
}
if command -v prlimit >/dev/null 2>&1; then
    LT=$abs_top_builddir/tests/load/lt
    cut_write cut-record "$NOOSA" record -o "$WORK/cut-record"
    cut_write cut-live "$NOOSA" -b -n -e "record start $WORK/cut-live" -e run
else
    echo "prlimit (util-linux) is not installed: the cut write not tried"
fi

k=0
while [ $k -lt "$RUNS" ]; do
    k=$((k + 1))
    for how in buffers ring flight; do
        name=rec-$how-$k
        case $how in
        buffers) opt= ;;
        ring) opt=--shared-ring ;;
        flight) opt=--flight=1M ;;
        esac
        "$NOOSA" record -o "$WORK/$name" $opt "$PT" threads 3 20000000 \
            </dev/null >/dev/null 2>&1 &
        kill_after $!
        wait 2>/dev/null
        readable "$name"
    done

    # the record command of a session, noosa killed
    name=live-$k
    "$NOOSA" -b -n -e "record start $WORK/$name" -e run \
        "$PT" threads 3 20000000 </dev/null >/dev/null 2>&1 &
    kill_after $!
    wait 2>/dev/null
    readable "$name"

    # the program killed: noosa records to its end and ends the recording
    name=prog-$k
    "$NOOSA" record -o "$WORK/$name" "$PT" threads 3 20000000 \
        </dev/null >"$WORK/$name.out" 2>&1 &
    noosa=$!
    next_delay
    sleep "$delay"
    why="its program killed after $delay s"
    pkill -9 -P $noosa 2>/dev/null
    wait $noosa 2>/dev/null
    readable "$name"
    if [ -e "$WORK/$name.out" ] &&
        ! grep -q 'killed by SIGKILL' "$WORK/$name.out"; then
        fail "$name: noosa record did not say how the program ended: $(cat "$WORK/$name.out")"
    fi
done
total=$((RUNS * 5 + 2))
echo "$good of $total recordings readable, $empty left empty (killed before any metadata)"
[ $good -ge $((total * 3 / 4)) ] || fail "only $good of $total recordings made"
if [ "$failures" -ne 0 ]; then
    echo "$failures failed"
    exit 1
fi
exit 0
