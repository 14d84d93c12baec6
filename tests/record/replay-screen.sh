#!/bin/sh
# SPDX-License-Identifier: MIT
# replay-screen.sh - a recording played in the screen (noosa DIR in a
# real terminal, through tests/screen/lib.sh): the recording said, run to
# a breakpoint, step back, goto (noosa dump's numbers, from 1), send
# refused, the end of the recording on the status line, quit.

. "$srcdir/tests/screen/lib.sh"

"$noosa" record -o "$work/rec" "$abs_top_builddir/tests/profile/pt" nest 3 \
    >"$work/record.out" 2>&1 || fail "noosa record: $(cat "$work/record.out")"

start 100 30 -n rec
wait_for "Recording rec of"
wait_for "(noosa)"
cmd 'break other'
wait_for "Breakpoint 1 on event other"
cmd 'run'
wait_for 'Stopped at breakpoint 1 for event "other" (event 7): n=0'
cmd 'step back'
wait_for 'Stopped at event "tick" (event 6): n=0'
cmd 'goto 18'
wait_for 'Stopped at event "leave" (event 18): name="b"'
cmd 'send tick_count'
wait_for "send: not available in a recording: the program is not live"
cmd 'delete 1'
cmd 'continue'
wait_for "End of the recording: the program exited with status 0."
wait_row 0 "played to the end"
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
