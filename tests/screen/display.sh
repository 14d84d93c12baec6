#!/bin/sh
# SPDX-License-Identifier: MIT
#
# display.sh - the program's C data on the screen: display EXPR opens the
# display window, whose values are evaluated again at every stop (and
# not repeated in the transcript while it is open; once it is closed, the
# transcript shows them at each stop); the event's parameter of a C type
# is a value that Tab reaches and Enter opens, with no Tcl written, and a
# click on a member that is a pointer follows it; undisplay alone asks
# before it forgets them all.  The program is tests/debug's dv.

. "$srcdir/tests/screen/lib.sh"

dv=$abs_top_builddir/tests/debug/dv
start 120 40 "$dv"
wait_for "(noosa)"
cmd 'break visit'
wait_for "Breakpoint 1 on event visit"
keys F5
wait_for 'Stopped at breakpoint 1 for event "visit": depth=0 node=0x'

cmd 'display n->count'
wait_for " Display "
wait_for " 1: n->count = 0"
cmd 'display/x depth'
wait_for " 2: /x depth = 0x0"
# the focus stayed on the command line
cmd 'continue'
wait_for 'for event "visit": depth=1 node='
wait_for " 1: n->count = 10"
wait_for " 2: /x depth = 0x1"
# in the window only, while it is open
screen_text | grep -q '^1: n->count = 10' && fail "a display in the transcript"

# closed: the transcript shows them at the next stop, as gdb does
cmd 'screen window none'
wait_gone " Display "
cmd 'continue'
wait_for 'for event "visit": depth=2 node='
wait_for "1: n->count = 20"
wait_for "2: /x depth = 0x2"

# the event's node (ptr<struct node>) is a value: Tab selects the first
# value on screen (the first stop line's), Enter opens it: node0 as it is
# now (the program added 100 to its weight after the event)
cmd 'values'
wait_for "struct node *:0x"
keys Tab
wait_for "struct node *:0x"
keys Enter
wait_for "(noosa) open "
wait_for '*node = (struct node) {'
wait_for '  name = "node0'
wait_for '  weight = 100'

# a click on its next (a pointer member) opens what it points to
at=$(find_text "  next = 0x")
[ -n "$at" ] || fail "no next member on screen"
click ${at% *} $((${at#* } + 10))
wait_for '*node->next = (struct node) {'
wait_for '  name = "node1'

# back to the command line
keys Escape
wait_for "F1:help"

# undisplay alone asks first, as delete does: no keeps them, yes forgets
cmd 'undisplay'
wait_for 'Delete all auto-display expressions? (y or n)'
keys n
wait_for 'Not confirmed: nothing done.'
cmd 'info display'
wait_for 'Auto-display expressions now in effect:'
cmd 'undisplay'
keys y
cmd 'info display'
wait_for 'There are no auto-display expressions now.'
cmd 'kill'
wait_for "Program killed by SIGKILL."
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
echo "ok: display window and C values on the screen"
