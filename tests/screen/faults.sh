#!/bin/sh
# SPDX-License-Identifier: MIT
#
# faults.sh - threads that fault while the program is stopped at a
# breakpoint, with the screen's loop going on meanwhile: the stop stays
# the breakpoint's (nothing is told of the faults yet), and each fault is
# told as a stop of its own once the program goes on, one at a time
# (<design#processes>): with errors ask, continue stops at the first,
# each convert at the next; the program then ends well, none of its
# threads left waiting.  Then errors convert: continue converts them all
# and the program ends; and the same when the threads are a followed
# child's and its parent is the one stopped.

. "$srcdir/tests/screen/lib.sh"

et=$abs_top_builddir/tests/errors/et-errors

# The threads of process $2 that wait at a fault (stopped by noosa:
# state t) number $1.
faulted() {
    n=0
    for f in /proc/"$2"/task/*/stat; do
        st=$(sed 's/.*) \(.\).*/\1/' "$f" 2>/dev/null)
        [ "$st" = t ] && n=$((n + 1))
    done
    [ "$n" = "$1" ]
}

# The thread named on the status line's "stopped at signal" (or nothing).
fault_thread() {
    row 0 | sed -n 's/.*stopped at signal SIGSEGV in thread \([0-9][0-9]*\).*/\1/p'
}

new_fault() {
    t=$(fault_thread)
    [ -n "$t" ] && ! echo " $seen " | grep -qF " $t "
}

# stopped_with POLICY MODE WHAT: et-errors MODE 3 try under errors
# POLICY, stopped at its breakpoint (step 1) while 3 threads of the
# program (of its child $child in mode forked) fault; the stop stays the
# breakpoint's, nothing is told of the faults (WHAT names the case).
stopped_with() {
    start 120 40 -e "errors $1" -e 'break step if {$n == 1}' "$et" "$2" 3 try
    wait_for "(noosa)"
    keys F5
    wait_row 0 'stopped at breakpoint 1 for event "step"'
    wait_pids
    child=
    if [ "$2" = forked ]; then
        wait_for "monitoring both"
        child=$(pgrep -P "$pid" | head -1)
        [ -n "$child" ] || fail "no child of process $pid"
    fi
    poll "three threads waiting at their faults ($3)" faulted 3 "${child:-$pid}"
    # (the loop goes on: it has had the time to hear of them)
    sleep 0.5
    row_has 0 'stopped at breakpoint 1 for event "step"' ||
        fail "the stop at the breakpoint was taken over while stopped there ($3)"
    lacks_text "Program received" ||
        fail "a fault was told while stopped at the breakpoint ($3)"
}

# ends_well PANE: the program (process $pid) exits with status 0 and is
# gone, its pane says PANE, and noosa quits cleanly.
ends_well() {
    wait_row 0 "exited with status 0"
    poll "the program ($pid) to be gone" gone "$pid"
    keys F6
    wait_pane "$1"
    keys F10
    wait_exit
    [ "$status" = 0 ] || fail "noosa exited with status $status"
    check_asan
}

# the three threads fault while the main thread waits at its step
stopped_with ask meanwhile "errors ask"
# continue: the first fault, a stop of its own
seen=
keys F5
poll "a stop at a fault" new_fault
seen=$(fault_thread)
wait_for "What now?"
for k in 2 3; do
    cmd convert
    poll "stop $k at a fault, in another thread" new_fault
    seen="$seen $(fault_thread)"
done
cmd convert
ends_well "meanwhile: 3 faulters joined"

# errors convert: continue converts them all, one after the other.
stopped_with convert meanwhile "errors convert"
keys F5
ends_well "meanwhile: 3 faulters joined"

# The same in a run of two processes: the threads of a child followed
# fault while its parent is stopped at the breakpoint.
stopped_with convert forked "in a child, its parent stopped"
keys F5
ends_well "forked: the child exited with status 0"
poll "the child ($child) to be gone" gone "$child"
echo "ok"
