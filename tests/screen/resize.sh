#!/bin/sh
# SPDX-License-Identifier: MIT
#
# resize.sh - the screen at 80x24, then resized (SIGWINCH through the
# signal pipe): the panes are laid out again, long lines wrap to the new
# width, a terminal too small says so, and the program's pty takes the
# output pane's size.

. "$srcdir/tests/screen/lib.sh"

long=$(printf 'abcdefghij%.0s' 1 2 3 4 5 6 7 8 9 10 11 12)
start 80 24 "$calc" "$examples/demo.calc"
wait_for "(noosa)"
# 80x24: status, 15 rows of transcript, the output title and 5 rows,
# the command line, the bottom line
wait_row 16 "Output of the program"
wait_row 22 "(noosa)"
wait_row 0 "not running"
cmd "n_say $long\\n"
# 120 characters wrap at 80
wrapped() {
    screen_text | grep -qx "abcdefghij.*abcdefghij" &&
        [ "$(screen_text | grep -c "^abcdefghij")" -ge 2 ]
}
poll "the long line wrapped at 80 columns" wrapped

T resize-window -t =t: -x 130 -y 40
wait_row 28 "Output of the program"
wait_row 38 "(noosa)"
wait_row 0 "not running"
wait_line "$long"

# too small to work in
T resize-window -t =t: -x 30 -y 8
wait_for "small (30x8)"
# and back
T resize-window -t =t: -x 80 -y 24
wait_row 16 "Output of the program"
wait_row 22 "(noosa)"
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan

# the program's terminal has the output pane's size: 5 rows of 80, then
# 9 rows of 130
start 80 24 /bin/sh -c 'stty size; read line; stty size'
wait_for "(noosa)"
keys F5
wait_for "5 80"
T resize-window -t =t: -x 130 -y 40
wait_row 28 "Output of the program"
keys F6
wait_for "Output: keys go to"
keys Enter
wait_for "9 130"
wait_row 0 "exited with status 0"
keys F6
wait_gone "Output: keys go to"
cmd 'quit'
wait_exit
check_asan
echo "ok"
