#!/bin/sh
# SPDX-License-Identifier: MIT
# window.sh - the screen's profile window (F11), in a real terminal (tmux,
# skipped without it): the time profile flat and as a tree, the frequency
# profile, sorting, turning a profile on from the window (the command is
# echoed), and the window through `screen window profile`.

. "$srcdir/tests/screen/lib.sh"

start 110 40 -n "$abs_top_builddir/tests/profile/pt" nest 40
wait_for "noosa"
cmd 'profile time on'
cmd 'profile print off'
cmd run
wait_for "Program exited with status 0."
keys F11
wait_for "Profile: time (on), flat, by self"
wait_for "         40  a"
wait_for "          1  main"
keys t
wait_for "Profile: time (on), tree, by total"
wait_for "         40      b"
keys s
wait_for "tree, by calls"
keys f
wait_for "Profile: frequency (off)"
wait_for "Off: o turns it on"
keys o
wait_for "profile freq on"
wait_for "Profile: frequency (on)"
# the window has the keys: F5 runs the program
keys F5
wait_for "event, then stacks"
wait_for "        40  main/a/b"
keys Escape
cmd 'screen window'
wait_for "none"
cmd 'screen window profile'
wait_for "Profile: frequency (on), tree"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa did not quit with 0 but $status"
check_asan
echo "ok"
