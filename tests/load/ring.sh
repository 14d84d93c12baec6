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

# A handler run at a stop of each event counts them: every one is seen.
batch count --ring-size=4096 \
    -e 'handler add tick count {global seen; incr seen} -stop' \
    -e 'set seen 0' -e run -e 'puts "seen $seen"' "$LT" loop 5000 hello 0
status count 0
has count '^seen 5000$'
finish
