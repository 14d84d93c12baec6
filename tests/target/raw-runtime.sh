#!/bin/sh
# SPDX-License-Identifier: MIT
# raw-runtime.sh - programs with the runtime (tt-rt, interface tt.dapto)
# under `noosa --raw-trace`: every value type and interned names; stops
# with operations that succeed, fail and crash; four threads; fork; exit
# status and death by a signal; the describe pass.
. "$srcdir/tests/target/lib.sh"

raw rt-types "$TT/tt-rt" types
check rt-types
# Times (TSC or CLOCK_MONOTONIC, converted to ns since the start) are
# positive, under a minute, and do not go back.
awk '
    / time=/ {
        for (i = 1; i <= NF; i++)
            if ($i ~ /^time=/) { split($i, a, "="); t = a[2] + 0 }
        if (t < 0 || t > 60e9 || t < last) { print "bad time: " $0; bad++ }
        last = t
        n++
    }
    END { if (bad || n < 10) exit 1 }' "$WORK/rt-types.out" || {
    echo "FAIL: rt-types times"
    failures=$((failures + 1))
}

raw rt-stop --stop-at tick --timeout 20000 \
    --send 'add 2 3' --send 'scale 3 0.5' --send 'echo hello' \
    --send 'where' --send 'step' --send 'crash 16' --send 'step' \
    --send 'add 1' --send 'add x 1' --send 'add 99999999999 1' \
    --send 'scale 1 z' --send 'nosuch' "$TT/tt-rt" ticks 2
check rt-stop

raw rt-exit "$TT/tt-rt" exit 7
check rt-exit
raw rt-segv "$TT/tt-rt" segv
check rt-segv
raw rt-kill "$TT/tt-rt" kill
check rt-kill
raw rt-fork "$TT/tt-rt" fork
check rt-fork

# Four threads, 1000 ticks each: every tick of every thread arrives, in
# order within its thread, with the thread id the monitor saw.
raw rt-threads "$TT/tt-rt" threads
awk '
    /^tick / {
        split($2, t, "="); split($4, n, "="); split($5, who, "=")
        if (n[2] == 0) { final++; next }
        k = who[2]
        if (!(k in tid)) tid[k] = t[2]
        else if (tid[k] != t[2]) { print "thread changed: " $0; bad++ }
        if (n[2] != last[k] + 1) { print "out of order: " $0; bad++ }
        last[k] = n[2]
        count++
    }
    END {
        threads = 0
        for (k in tid) threads++
        if (count != 4000 || threads != 4 || final != 1 || bad) {
            print "ticks " count ", threads " threads ", final " final
            exit 1
        }
    }' "$WORK/rt-threads.out" || {
    echo "FAIL: rt-threads"
    failures=$((failures + 1))
}
expect_grep rt-threads "^# exited with status 0"

# The same threads stopping at every tick, several in their own mailboxes
# at once, each running an operation before it goes on.
raw rt-threads-stop --stop-at tick --send 'add 1 2' "$TT/tt-rt" threads
stops=$(grep -c '^tick .*\[stopped\]$' "$WORK/rt-threads-stop.out")
sends=$(grep -c '^# send add 1 2 -> 3$' "$WORK/rt-threads-stop.out")
if [ "$stops" != 4001 ] || [ "$sends" != 4001 ]; then
    echo "FAIL: rt-threads-stop: $stops stops, $sends answers"
    grep -v '^tick\|^# send add 1 2 -> 3$' "$WORK/rt-threads-stop.out" | head
    failures=$((failures + 1))
else
    echo "ok: rt-threads-stop"
fi
expect_grep rt-threads-stop "^# exited with status 0"

timeout 60 "$NOOSA" --describe -o "$WORK/rt-describe.out" "$TT/tt-rt" types
check rt-describe
timeout 60 "$NOOSA" --describe -o "$WORK/plain-describe.out" "$TT/tt-prog"
check plain-describe
finish
