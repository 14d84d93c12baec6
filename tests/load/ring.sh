#!/bin/sh
# SPDX-License-Identifier: MIT
# ring.sh - one stop per event, with a string in every record, over many
# laps of the ring, the condition evaluated in noosa: every event is seen,
# none is taken for corrupt.
#
# A record of a lap may start where the last lap left the middle of a
# record, bytes the program chose; with an int and a five-character
# string, those bytes look like the commit word of position 2629632 of a
# 1 MiB ring.  The program pauses after each event, so that noosa looks
# at the tail before the next record is written: before the consumer
# zeroed what it gave back, that run ended in "the event ring is corrupt
# at position 2629632".
. "$srcdir/tests/load/lib.sh"

cond='break tick if {$i < 0}'
# (evaluated in noosa: one stop per event is what this test is about)
noosa='conditions noosa'
batch hello -e "$noosa" -e "$cond" -e run "$LT" loop 60000 hello 2000
status hello 0
has hello '^loop: 60000 ticks$'
has hello '^Program exited with status 0\.$'
count hello 0 'protocol error'

# Every length of label from 1 to 24, on a small ring: thousands of laps,
# records of every size from 48 to 64 bytes.
for len in 1 2 3 5 8 9 13 16 17 21 24; do
    label=$(printf '%*s' "$len" '' | tr ' ' 'a')
    batch "len$len" --ring-size=4096 -e "$noosa" -e "$cond" -e run \
        "$LT" loop 20000 "$label" 500
    status "len$len" 0
    has "len$len" '^loop: 20000 ticks$'
    count "len$len" 0 'protocol error'
done

# Beside a loop that never sleeps (two CPUs or more): noosa on CPU 0, the
# program on CPU 1, the loop on the program's CPU, then on noosa's.  A
# side that spins for the other yields its CPU now and then, for the
# other when they share it; a yield to the loop gave it a time slice at
# every stop (3 to 4 ms: these 20000 stops in over a minute, against a
# fraction of a second beside no loop).  Each side says on which CPU it
# waits, and a spinner yields only to the other on its own CPU.
if [ "$(nproc)" -ge 2 ]; then
    for busy in 1 0; do
        taskset -c "$busy" sh -c 'while :; do :; done' &
        loop=$!
        LT_CPU=1 taskset -c 0 timeout -k 5 "$LIMIT" "$NOOSA" --batch -n \
            -e "$noosa" -e "$cond" -e run "$LT" loop 20000 hello 0 \
            </dev/null >"$WORK/busy$busy.out" 2>"$WORK/busy$busy.err"
        echo $? >"$WORK/busy$busy.rc"
        kill "$loop"
        wait "$loop" 2>/dev/null
        status "busy$busy" 0
        has "busy$busy" '^loop: 20000 ticks$'
    done
else
    echo "skip: beside a busy loop: one CPU"
fi

# A handler run at a stop of each event counts them: every one is seen.
batch count --ring-size=4096 \
    -e 'handler add tick count {global seen; incr seen} -stop' \
    -e 'set seen 0' -e run -e 'puts "seen $seen"' "$LT" loop 5000 hello 0
status count 0
has count '^seen 5000$'
finish
