#!/bin/sh
# SPDX-License-Identifier: MIT
#
# demo.sh - `make demo` opens the screen on the bundled example with its
# handler file (examples/calc/calc.handlers) and browsers loaded: run, the
# handlers print bindings with browsable values and break_on_fact stops
# the program; the values open through the browsers.

. "$srcdir/tests/screen/lib.sh"

launch 100 40 "unset MAKEFLAGS MFLAGS MAKELEVEL; cd '$abs_top_builddir' && ${MAKE:-make} -s demo"
wait_for "(noosa)"
# make demo runs the program at once (-e run): no F5 needed
wait_row 0 'stopped at handler "break_on_fact" for event "binding_made"'
# The status line names the program and its input (relative to the build,
# ./ when built in the source tree; shortened with ... when the state
# needs the room).
wait_row_re 0 '^ *calc [^ ]*(examples/calc/demo\.calc|\.\.\.)  pid [0-9]+  stopped at handler'
wait_for "fact is bound: stopping"
wait_for "square = Value:0x"
keys Tab
wait_for "calc value: an int, a str or a function"
keys Enter
wait_for "(noosa) open 1"
wait_for " builtin"
keys Escape F2
wait_for "*  binding_made"
wait_for "[x] show_binding"
keys F10
wait_for "kill it and quit? (y or n)"
keys y
wait_exit
[ "$status" = 0 ] || fail "make demo exited with status $status"
check_asan
echo "ok"
