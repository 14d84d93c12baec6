#!/bin/sh
# SPDX-License-Identifier: MIT
# trails.sh - each thread keeps its last events in a trail of its own
# <protocol#ttrail>: 200 threads, 16 at a time (more than the region's
# trails, so that later threads take the trails of ended ones), tocks
# kept while a SIGALRM handler keeps ticks in whichever thread it
# interrupts; then a fault.  The report shows each thread's events in
# its order without a gap, and the last wave's whole (30 tocks each), or
# ending at its last (2000 each, beyond what a trail holds).
. "$srcdir/tests/load/lib.sh"

check() {
    awk -v FIRST=184 -v N="$2" -v WHOLE="$3" -f "$abs_top_srcdir/tests/load/trails.awk" \
        "$WORK/$1.out" >"$WORK/$1.check"
    cat "$WORK/$1.check" >>"$WORK/$1.out"
}

batch whole -e 'errors last 1000' -e run "$LT" trails 200 30 16
status whole 1
has whole '^trails: 200 threads'
has whole '^Last [0-9]+ events before the error \(oldest first; between threads, to the millisecond\):$'
check whole 30 1
has whole '^trails threads [0-9]+ last-wave 16 gaps 0 bad 0$'

batch wrapped -e 'errors last 1000' -e run "$LT" trails 200 2000 16
status wrapped 1
check wrapped 2000 0
has wrapped '^trails threads [0-9]+ last-wave [1-9][0-9]* gaps 0 bad 0$'

finish
