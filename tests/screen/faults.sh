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

# The threads of process $pid that wait at a fault (stopped by noosa:
# state t) number $1.
faulted() {
    n=0
    for f in /proc/"$pid"/task/*/stat; do
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

start 120 40 -e 'errors ask' -e 'break step if {$n == 1}' "$et" meanwhile 3 try
wait_for "(noosa)"
keys F5
wait_row 0 'stopped at breakpoint 1 for event "step"'
wait_pids
# the three threads fault while the main thread waits at its step
poll "three threads waiting at their faults" faulted 3
# (the loop goes on: it has had the time to hear of them)
sleep 0.5
row_has 0 'stopped at breakpoint 1 for event "step"' ||
    fail "the stop at the breakpoint was taken over while stopped there"
lacks_text "Program received" || fail "a fault was told while stopped at the breakpoint"
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
wait_row 0 "exited with status 0"
poll "the program ($pid) to be gone" gone "$pid"
keys F6
wait_pane "meanwhile: 3 faulters joined"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan

# errors convert: continue converts them all, one after the other.
start 120 40 -e 'errors convert' -e 'break step if {$n == 1}' "$et" meanwhile 3 try
wait_for "(noosa)"
keys F5
wait_row 0 'stopped at breakpoint 1 for event "step"'
wait_pids
poll "three threads waiting at their faults" faulted 3
sleep 0.5
row_has 0 'stopped at breakpoint 1 for event "step"' ||
    fail "the stop at the breakpoint was taken over while stopped there (errors convert)"
lacks_text "Program received" ||
    fail "a fault was told while stopped at the breakpoint (errors convert)"
keys F5
wait_row 0 "exited with status 0"
poll "the program ($pid) to be gone" gone "$pid"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan

# The same in a run of two processes: the threads of a child followed
# fault while its parent is stopped at the breakpoint.
start 120 40 -e 'errors convert' -e 'break step if {$n == 1}' "$et" forked 3 try
wait_for "(noosa)"
keys F5
wait_row 0 'stopped at breakpoint 1 for event "step"'
wait_for "monitoring both"
wait_pids
child=$(pgrep -P "$pid" | head -1)
[ -n "$child" ] || fail "no child of process $pid"
parent=$pid
pid=$child
poll "three threads of the child waiting at their faults" faulted 3
sleep 0.5
row_has 0 'stopped at breakpoint 1 for event "step"' ||
    fail "the stop at the breakpoint was taken over by a fault in another process"
lacks_text "Program received" ||
    fail "a fault in another process was told while stopped at the breakpoint"
keys F5
wait_row 0 "exited with status 0"
poll "the child ($child) to be gone" gone "$child"
poll "the parent ($parent) to be gone" gone "$parent"
keys F6
wait_pane "forked: the child exited with status 0"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
