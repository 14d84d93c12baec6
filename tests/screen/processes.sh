#!/bin/sh
# SPDX-License-Identifier: MIT
#
# processes.sh - a program that forks workers, every one monitored
# (follow-fork both): the status line names the process stopped at and
# how many are live, the transcript says which process stopped; C-c
# interrupts every process and the run is stopped once all are; F5 lets
# them all go on; F9 kills them all, none left.  A program that executes
# one without a monitoring interface is let go; noosa, its parent, reaps
# it when it ends, while the screen waits for nothing, and says so.

. "$srcdir/tests/screen/lib.sh"

lt=$abs_top_builddir/tests/load/lt
# (ticks enough to run until F9 kills them: 100 million took under a
# second once an event asked nothing cost 2 ns)
start 120 30 "$lt" workers 2 100000000000
wait_for "(noosa)"
cmd 'break tick if {$i == 1000}'
wait_for "Breakpoint 1 on event tick"
keys F5
wait_row_re 0 ' pid [0-9]+ of 3 processes  stopped at breakpoint 1 for event "tick"'
pid=$(target_pid)
wait_for "Stopped at breakpoint 1 for event \"tick\" in process $pid: i=1000"
# the other worker stops there too once this one goes on.  Its pid is
# read from the transcript: the status line, caught while curses redraws
# it, can show the pid of "running" (the first process) before the words
# of the last stop are overwritten.
stops() {
    screen_text | sed -n \
        's/^Stopped at breakpoint 1 for event "tick" in process \([0-9]*\): i=1000 .*/\1/p'
}
two_stops() {
    [ "$(stops | wc -l)" -ge 2 ]
}
keys F5
poll "the other worker's stop" two_stops
other=$(stops | sed -n 2p)
[ -n "$other" ] && [ "$other" != "$pid" ] ||
    fail "the second stop is not in the other worker ($pid, $other)"
wait_row_re 0 " pid $other of 3 processes  stopped at breakpoint 1"
cmd 'delete'
wait_for 'Delete the breakpoint?'
keys y
keys F5
wait_row_re 0 " pid [0-9]+ of 3 processes  running"
keys C-c
wait_row_re 0 " pid [0-9]+ of 3 processes  stopped at interrupt"
wait_for "Program interrupted."
for p in $pid $other; do
    grep -q '^State:.*t' "/proc/$p/status" ||
        fail "C-c did not stop process $p: $(grep State /proc/$p/status)"
done
keys F5
wait_row_re 0 " pid [0-9]+ of 3 processes  running"
keys F9
wait_row 0 "killed by SIGKILL"
for p in $pid $other; do
    poll "process $p to be gone" gone "$p"
done
keys F10
wait_exit

lg=$work/lg
rm -f "$lg".*
start 120 30 "$lt" exec /bin/sh -c \
    'echo $$ >"$1.pid"; while [ ! -e "$1.go" ]; do sleep 0.05; done; exit 3' \
    letgo "$lg"
wait_for "(noosa)"
keys F5
wait_for "which has no monitoring interface: let go, it goes on unmonitored."
poll "the pid of the program let go" test -s "$lg.pid"
pid=$(cat "$lg.pid")
touch "$lg.go"
wait_for "Process $pid, let go, exited with status 3."
[ ! -d "/proc/$pid" ] || fail "process $pid left: $(grep State "/proc/$pid/status")"
keys F10
wait_exit
