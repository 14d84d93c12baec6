#!/bin/sh
# SPDX-License-Identifier: MIT
# replay-screen.sh - a recording played in the screen (noosa DIR in a
# real terminal, through tests/screen/lib.sh): the recording said, run to
# a breakpoint, step back, goto, send refused, the end of the play on the
# status line, quit.

. "$srcdir/tests/screen/lib.sh"

"$noosa" record -o "$work/rec" "$abs_top_builddir/tests/profile/pt" nest 3 \
    >"$work/record.out" 2>&1 || fail "noosa record: $(cat "$work/record.out")"

start 100 30 -n rec
wait_for "Recording rec of"
wait_for "(noosa)"
cmd 'break other'
wait_for "Breakpoint 1 on event other"
cmd 'run'
wait_for 'Stopped at breakpoint 1 for event "other" (event 9): n=0'
cmd 'step back'
wait_for 'Stopped at tick (event 8): n=0'
cmd 'goto 20'
wait_for 'Stopped at leave (event 20): name="b"'
cmd 'send tick_count'
wait_for "send: not available in a recording: the program is not live"
cmd 'delete 1'
cmd 'continue'
wait_for "Program exited with status 0."
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
