#!/bin/sh
# SPDX-License-Identifier: MIT
#
# windows.sh - every window the screen has, by name: `screen window`
# with a bad name lists them (none first), each opens with `screen
# window NAME` (a unique prefix will do), draws its title, has the focus
# and answers `screen window`; Esc closes it and `screen window` says
# none.  A window without a title known here fails the test, so a new
# window is tested here too.

. "$srcdir/tests/screen/lib.sh"

start 120 30 -e 'bind F12 {screen message "window=[screen window] focus=[screen focus]"}' \
    "$calc" "$examples/demo.calc"
wait_for "(noosa)"
keys F12
wait_for "window=none focus=command"

cmd 'screen window nosuch'
wait_for 'bad window "nosuch": must be none, '
# the names after "none", from the row with the message
names=$(screen_text | sed -n 's/.*bad window "nosuch": must be none, //p' |
    head -n 1 | sed 's/,//g; s/ or / /; s/ *$//')
[ -n "$names" ] || fail "no window names offered"
for name in $names; do
    case $name in
    handlers) title=" Handlers: events (* with handlers, B with breakpoints) " ;;
    breakpoints) title=" Breakpoints " ;;
    help) title=" Help: keys and commands (Esc closes) " ;;
    profile) title=" Profile: time (off), flat, by self " ;;
    questions) title=" Questions: 0, by count " ;;
    display) title=" Display " ;;
    *) fail "window $name has no title known here: add it" ;;
    esac
    cmd "screen window $name"
    wait_for "$title"
    keys F12
    wait_for "window=$name focus=window"
    keys Escape
    wait_gone "$title"
    keys F12
    wait_for "window=none focus=command"
done
[ "$names" = "handlers breakpoints help profile questions display" ] ||
    fail "windows offered: $names"

# a unique prefix names a window; again with the focus there closes it
cmd 'screen window brea'
wait_for " Breakpoints "
keys F12
wait_for "window=breakpoints focus=window"
keys F3
wait_gone " Breakpoints "
keys F12
wait_for "window=none focus=command"

keys F10
wait_exit
[ "$status" -eq 0 ] || fail "noosa exited with $status"
