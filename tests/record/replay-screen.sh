#!/bin/sh
# SPDX-License-Identifier: MIT
# replay-screen.sh - a recording played in the screen (noosa DIR in a
# real terminal, through tests/screen/lib.sh): the recording said, run to
# a breakpoint, the position on the status line (event N of M, its
# time, noosa dump's numbers, from 1), the keys back (S-F7 reverse-step,
# C-F7 step back, S-F5 reverse-continue), step back, goto, send refused,
# the end of the recording on the status line, quit.

. "$srcdir/tests/screen/lib.sh"
# (a terminal whose description has the shifted and control function
# keys, which tmux sends as xterm does; screen's has only F1 to F12)
NOOSA_ENV="TERM=tmux-256color"

"$noosa" record -o "$work/rec" "$abs_top_builddir/tests/profile/pt" nest 3 \
    >"$work/record.out" 2>&1 || fail "noosa record: $(cat "$work/record.out")"

start 100 30 -n rec
wait_for "Recording rec of"
wait_for "(noosa)"
cmd 'break other'
wait_for "Breakpoint 1 on event other"
cmd 'run'
wait_for 'Stopped at breakpoint 1 for event "other" (event 7): n=0'
wait_row_re 0 'stopped at breakpoint 1 .*event 7 of 35, [0-9.]+ ms'
keys S-F7
wait_for 'Stopped at event "tick" (event 6): n=0'
wait_row_re 0 'event 6 of 35, [0-9.]+ ms'
keys C-F7
wait_for 'Stopped at event "enter" (event 5): name="b"'
wait_row_re 0 'event 5 of 35'
cmd 'step back'
wait_for 'Stopped at event "tick" (event 4): n=0'
cmd 'goto 18'
wait_for 'Stopped at event "leave" (event 18): name="b"'
keys S-F5
wait_for 'Stopped at breakpoint 1 for event "other" (event 17): n=1'
wait_row_re 0 'event 17 of 35'
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
