#!/bin/sh
# SPDX-License-Identifier: MIT
#
# interrupt.sh - a busy program: the screen stays responsive while it
# runs; C-c (and SIGINT sent to noosa) interrupts the program, which stays
# stopped, and never kills noosa; F5 goes on, F9 kills the program, F10
# then quits at once; no process of the program is left.  SIGTERM makes
# noosa end cleanly, killing the program.

. "$srcdir/tests/screen/lib.sh"

busy='fn fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2); print fib(60)'
start 100 30 "$calc" -e "$busy"
wait_for "(noosa)"
keys F5
wait_row 0 "running"
wait_pids
# the screen answers while the program runs
cmd 'set x [expr {6 * 7}]'
wait_for "42"
keys C-c
wait_row 0 "stopped at interrupt"
wait_for "Program interrupted."
kill -0 "$pid" || fail "C-c killed the program"
keys F5
wait_row 0 "running"
# SIGINT to noosa itself: the same as C-c
kill -INT "$npid"
wait_row 0 "stopped at interrupt"
kill -0 "$npid" || fail "SIGINT killed noosa"
kill -0 "$pid" || fail "SIGINT killed the program"
# C-c when the program is stopped does not kill it either
keys C-c
wait_for "The program is stopped"
kill -0 "$pid" || fail "C-c killed the stopped program"
keys F9
wait_row 0 "killed by SIGKILL"
poll "the program ($pid) to be gone" gone "$pid"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan

# SIGTERM while the program runs: noosa ends cleanly, the program with it
start 100 30 "$calc" -e "$busy"
wait_for "(noosa)"
keys F5
wait_row 0 "running"
wait_pids
kill -TERM "$npid"
wait_exit
[ "$status" = $((128 + 15)) ] || fail "noosa exited with status $status after SIGTERM"
poll "the program ($pid) to be gone" gone "$pid"
check_asan
echo "ok"
