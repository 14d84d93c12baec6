#!/bin/sh
# SPDX-License-Identifier: MIT
#
# breaks.sh - the breakpoints window: a breakpoint added there (the
# prompt offers the chosen event), its condition and where it runs (in
# the program, with its counts), its hits counted as the program stops,
# disabled and enabled, deleted; each change echoed as the command it
# runs, and the status line counting the active ones.  F10 at a stop says
# the program is stopped; delete typed without numbers asks first.

. "$srcdir/tests/screen/lib.sh"

start 100 40 "$calc" "$examples/demo.calc"
wait_for "(noosa)"
keys F3
wait_for "Breakpoints"
wait_for "No breakpoints: a adds one"
keys a
wait_row 38 "break"
type_text 'printed if {$text ne "50"}'
keys Enter
wait_for '(noosa) break printed if {$text ne "50"}'
wait_for 'Breakpoint 1 on event printed if $text ne "50"'
wait_for ' 1    y         0  printed                  $text ne "50"  -- in the program, once it runs'
wait_row 0 "1 breakpoint"
# the window has the focus again after its prompt: a second one
keys a
type_text 'binding_made'
keys Enter
wait_for ' 2    y         0  binding_made'
wait_row 0 "2 breakpoints"
# disable the chosen one (the second), then run: the condition skips the
# first print
keys Space
wait_for "(noosa) disable 2"
wait_for ' 2    n         0  binding_made'
wait_row 0 "1 breakpoint"
keys F5
wait_row 0 'stopped at breakpoint 1 for event "printed"'
wait_for 'text="10! = 3628800"'
wait_for ' 1    y         1  printed'
# the condition ran in the program, which counted it
wait_for 'printed                  $text ne "50"  -- in the program: 2 checked, 1 passed'
keys F5
wait_for ' 1    y         2  printed'
# enable the second again, delete the first
keys Space
wait_for "(noosa) enable 2"
wait_for ' 2    y         0  binding_made'
keys Up d
wait_for "(noosa) delete 1"
wait_gone ' 1    y         2  printed'
keys F5
wait_row 0 'stopped at breakpoint 2 for event "binding_made"'
wait_for ' 2    y         1  binding_made'
# F3 again closes the window
keys F3
wait_gone "Breakpoints"
# F10 at a stop says the program is stopped (it said "running"); no
keys F10
wait_row_re 39 '^The program \(pid [0-9]+\) is stopped: kill it and quit\? \(y or n\)'
keys n
wait_gone 'kill it and quit?'
# delete typed without a number asks first (it deleted them all at once);
# no keeps them, yes deletes them
cmd 'break printed'
cmd 'delete'
wait_for 'Delete all 2 breakpoints? (y or n)'
keys n
wait_for 'Not confirmed: nothing done.'
cmd 'info breakpoints'
wait_row 0 "2 breakpoints"
cmd 'delete'
wait_for 'Delete all 2 breakpoints? (y or n)'
keys y
cmd 'info breakpoints'
wait_for 'No breakpoints.'
keys F9
wait_row 0 "killed by SIGKILL"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
