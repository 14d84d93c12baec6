#!/bin/sh
# SPDX-License-Identifier: MIT
# send.sh - operations through `noosa --batch`: n_send returns the
# results as a proper Tcl list (strings with spaces and braces, empty
# strings), send prints them as values are shown everywhere (a result of
# the program's own type as Cell:0xHEX: it printed a bare pointer);
# pointers travel as decimal integers that n_hextodec and n_dectohex
# convert; an operation run from a handler; and
# every way a request can fail, each with its message: the program not
# stopped at an event, an unknown operation, the wrong number of
# arguments, an argument that does not convert, an operation that refuses
# its argument, and one that crashes (the program stays stopped at its
# event and goes on when told).
. "$srcdir/tests/noosa/lib.sh"

cat >ops.tcl <<'EOF2'
handler add cell_made asks {n_say "made: [lrange [n_send cell_info $cell] 0 1]\n"}
break tick
run > ops-prog.out
set r [n_send pieces "a {b"]
n_say "[llength $r] results:\n"
foreach x $r { n_say "  <$x>\n" }
send pieces "x y"
send add -5 2147483647
send tick_count
lassign [n_send list_head] head
n_say "head is a decimal pointer: [string is entier -strict $head]\n"
n_say "through hex and back: [expr {[n_hextodec 0x[n_dectohex $head]] == $head}]\n"
n_say "by its decimal value: [lrange [n_send cell_info $head] 0 1]\n"
send cell_info 0x[n_dectohex $head]
send list_head
n_say "ev(n) $ev(n), ev(text) $ev(text)\n"
EOF2
batch ops -n -x ops.tcl "$NT" list 2
check ops

cat >ops-bad.tcl <<'EOF2'
send add 1 2
n_send add 1 2
break tick
run > ops-bad-prog.out
send
send nosuch 1
send add 1
send add 1 2 3
send add 1 x
send add 1 1.5
send add 99999999999 1
send cell_info 12345
send cell_info nowhere
send crash
n_say "still $n(status) at $n(where)\n"
send add 2 2
continue
send add 1 2
EOF2
batch ops-bad -n -x ops-bad.tcl "$NT" exit 0
check ops-bad

finish
