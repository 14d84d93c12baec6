#!/bin/sh
# SPDX-License-Identifier: MIT
#
# session.sh - a session on the example program in the screen: a
# breakpoint set from the prompt, run, the state on the status line, Tab
# to a value, open it and see its browser's output (and its description
# on the bottom line), the program's own output in the output pane, the
# end of the program on the status line; then quit while the program is
# stopped (asked, answered yes): noosa exits and no process of the
# program is left.  On the way: a mouse click opens a value, F7 steps,
# F4 sets and deletes a breakpoint on the event stopped at.

. "$srcdir/tests/screen/lib.sh"

start 100 30 "$calc" "$examples/demo.calc"
wait_for "(noosa)"
wait_row 0 "not running"
row 0 | grep -qF "calc $examples/demo.calc" ||
    row 0 | grep -qF "calc " || fail "no program on the status line"

cmd 'break binding_made'
wait_for "Breakpoint 1 on event binding_made"
wait_row 0 "1 breakpoint"
keys F5
wait_row 0 'stopped at breakpoint 1 for event "binding_made"'
wait_for 'Stopped at breakpoint 1 for event "binding_made": env=Environment:0x'
wait_pids

# Tab on an empty command line: the first value on screen, described below
keys Tab
wait_for "[1] Environment:0x"
wait_for "calc environment: a scope of name bindings"
keys Enter
wait_for "(noosa) open 1"
wait_for "  str = Value:0x"
# on from the value opened: the stop line's Value, then the browser's own
keys Tab
wait_for "[2] Value:0x"
keys Tab
wait_for "[3] Environment:0x"
keys BTab
wait_for "[2] Value:0x"
keys Escape
wait_for "F1:help"

# a click on a value opens it
at=$(find_text "v=Value:0x")
[ -n "$at" ] || fail "no v=Value:0x on screen"
click ${at% *} $((${at#* } + 2))
wait_for "(noosa) open 2"
wait_for "  <builtin str/1>"

# F7 steps to the next visible event; F4 sets or deletes a breakpoint on
# the event stopped at
keys F7
wait_row_re 0 'stopped at event "[a-z_]+"'
ev=$(row 0 | sed -n 's/.*stopped at event "\([a-z_]*\)".*/\1/p')
[ -n "$ev" ] || fail "no event on the status line"
if [ "$ev" = binding_made ]; then
    keys F4
    wait_for "(noosa) delete 1"
    keys F4
    wait_for "(noosa) break binding_made"
    wait_row 0 "1 breakpoint"
else
    keys F4
    wait_for "(noosa) break $ev"
    wait_row 0 "2 breakpoints"
fi

# on to the end: the program's output shows in the output pane
cmd 'delete'
wait_for 'Delete all '
keys y
no_breakpoints() { ! row_has 0 "breakpoint"; }
poll "no breakpoints on the status line" no_breakpoints
keys F5
wait_row 0 "exited with status 0"
wait_for "Program exited with status 0."
wait_pane "50"
wait_pane "10! = 3628800"
wait_pane "fib(15) = 610"
# and not in the transcript
screen_text | sed -n '2,/Output of the program/p' | grep -qF "10! = 3628800" &&
    fail "the program's output is in the transcript"

# run again, stop, and quit: noosa asks, then kills the program
cmd 'break printed'
keys F5
wait_row 0 'for event "printed"'
wait_pids
keys F10
wait_for "kill it and quit? (y or n)"
keys n
wait_gone "kill it and quit?"
kill -0 "$pid" || fail "the program died though the answer was no"
cmd 'quit'
wait_for "kill it and quit? (y or n)"
keys y
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
poll "the program ($pid) to be gone" gone "$pid"
check_asan
echo "ok"
