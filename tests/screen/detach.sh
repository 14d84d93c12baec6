#!/bin/sh
# SPDX-License-Identifier: MIT
#
# detach.sh - a program attached to in the screen and let go: after
# detach the status line says it goes on unmonitored (it said "not
# running"), and once it has ended, that it has; F10 while attached asks
# to let it go, not to kill it.

. "$srcdir/tests/screen/lib.sh"
. "$abs_top_srcdir/tests/lib/started.sh"

lt=$abs_top_builddir/tests/load/lt
"$lt" busy 2 "$work/stop" >"$work/prog.out" 2>&1 &
prog=$!
wait_started "$work/prog.out"
trap 'touch "$work/stop"; cleanup' EXIT

start 100 30 -n -p "$prog"
wait_for "Attached to process $prog"
keys F10
wait_for "The program (pid $prog) is stopped: let it go on unmonitored and quit? (y or n)"
keys n
wait_gone "and quit?"
cmd 'detach'
wait_for "Detached from process $prog"
wait_row 0 "detached: process $prog goes on unmonitored"
cmd 'info program'
wait_for "State: detached: process $prog goes on unmonitored"
touch "$work/stop"
wait $prog
cmd 'info program'
wait_for "State: detached: process $prog has ended since"
wait_row 0 "detached: process $prog has ended since"
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
