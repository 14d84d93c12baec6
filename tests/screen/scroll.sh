#!/bin/sh
# SPDX-License-Identifier: MIT
#
# scroll.sh - the transcript's scrollback and follow mode: the output of
# a long command shows from its start; End and Home; --lines bounds the
# scrollback; scrolled back, new lines from the program do not move the
# view (and the output pane's title says there is more below), at the
# end they are followed again.  The mouse wheel scrolls too.

. "$srcdir/tests/screen/lib.sh"

echo 'handler add printed show {n_say "printed: $text\n"}' > "$work/show.tcl"
start 80 24 --lines=60 -x "$work/show.tcl" "$calc"
wait_for "(noosa)"
cmd 'for {set i 0} {$i < 100} {incr i} {n_say "number $i\n"}'
# its start, as far as it was kept
wait_line "number 40"
wait_for "more below (End, PageDown)"
keys F6 F6 End
wait_line "number 99"
wait_gone "more below (End"
# only the last 60 lines are kept
keys Home
wait_gone "number 99"
first=$(row 1 | sed -n 's/^number \([0-9]*\)$/\1/p')
[ -n "$first" ] && [ "$first" -ge 40 ] ||
    fail "Home shows \"$(row 1)\": more than 60 lines kept"
keys End
wait_line "number 99"
# the mouse wheel over the transcript scrolls it
wheel 4 5 10
wait_for "more below (End, PageDown)"
wait_gone "number 99"
wheel 5 5 10
wait_line "number 99"
wait_gone "more below (End"

# scrolled back, the program's lines do not move the view
keys F5
wait_row 0 "running"
keys PageUp
wait_for "more below (End, PageDown)"
keys Escape F6
wait_for "Output: keys go to"
# (calc reads all of its input, then runs it)
type_text 'print 1;'
keys Enter C-d
wait_line "1"
wait_row 0 "exited with status 0"
lacks_text "printed: 1" || fail "the view moved though scrolled back"
has_text "more below (End" || fail "no sign of the lines below"
# at the end again, they are followed
keys F6 F6 End
wait_for "printed: 1"
wait_gone "more below (End"
keys F5
wait_row 0 "running"
keys F6
wait_for "Output: keys go to"
type_text 'print 2;'
keys Enter C-d
wait_row 0 "exited with status 0"
wait_for "printed: 2"
keys F6
wait_gone "Output: keys go to"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
