#!/bin/sh
# SPDX-License-Identifier: MIT
#
# input.sh - a program that reads its standard input (calc with no file
# reads its program there): in the output pane, what is typed goes to
# the program through its pty (echoed by the pty), Enter ends a line, C-d
# ends the input; the program's answer shows in the output pane, never
# over the rest of the screen.

. "$srcdir/tests/screen/lib.sh"

start 90 28 "$calc"
wait_for "(noosa)"
# F5 runs the program; F6 goes from the command line to the output pane
# (it went to the transcript first, where what was typed for the program
# ran as a command)
run_to_output() {
    keys F5
    wait_row 0 "running"
    keys F6
    wait_for "Output: keys go to the program"
}

run_to_output
type_text 'print 6 * 7, "is", "the answer";'
keys Enter
type_text 'print len("abc") + 1000'
keys Enter
keys C-d
wait_row 0 "exited with status 0"
wait_pane 'print 6 * 7, "is", "the answer";'
wait_pane '42 is the answer'
wait_pane '1003'
# the status line, transcript and command line are intact
row 0 | grep -qF "exited with status 0" || fail "the status line was overwritten"
wait_for "Program exited with status 0."

# a second run reads from the pty again
keys F5
wait_row 0 "running"
type_text 'print "again"'
keys Enter C-d
wait_row 0 "exited with status 0"
wait_pane_line "again"
# F6 goes round to the command line again, by the transcript
keys F6
wait_gone "Output: keys go to"
wait_row 0 "keys: the transcript, Esc: back"
keys F6
wait_gone "keys: the transcript"

# The pty is the program's controlling terminal: a key the terminal turns
# into a signal (Ctrl-\ here; Ctrl-C is noosa's interrupt key) signals the
# program, not noosa; and /dev/tty is the pty.
run_to_output
keys -H 1c
wait_row 0 "killed by SIGQUIT"
keys F6
wait_gone "Output: keys go to"
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"

# A program that writes to /dev/tty writes into its own pane.
printf 'echo to-the-tty > /dev/tty\n' > "$work/tty.sh"
start 90 28 /bin/sh "$work/tty.sh"
wait_for "(noosa)"
keys F5
wait_row 0 "exited with status 0"
wait_pane "to-the-tty"
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
