#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tty.sh - the program's terminal elsewhere: with --tty PATH (a second
# tmux session's terminal) the program writes there, not in the output
# pane, whose title says where it is; `tty ""` gives the pane back, `tty
# PATH` sends it away again.  Bad paths are refused with their reason:
# `tty /nonexistent`, a file that is not a terminal, and --tty with one.

. "$srcdir/tests/screen/lib.sh"

termprog=$abs_top_builddir/tests/screen/termprog

# the other terminal: a session that only waits
T kill-session -t =other >/dev/null 2>&1
T new-session -d -s other -x 80 -y 10 "exec sleep 3600" \; \
    set-option -g exit-empty off || fail "cannot start the other terminal"
other=$(T display -p -t =other: '#{pane_tty}')
[ -c "$other" ] || fail "no tty for the other terminal: $other"

other_has() {
    T capture-pane -p -t =other: | grep -qF -- "$1"
}

start 80 24 -n --tty "$other" "$termprog" colours
wait_for "(noosa)"
wait_for "Output: the program's terminal is $other"
cmd run
wait_row 0 "exited with status 0"
poll "the program's output in the other terminal" other_has "progress 100%"
other_has "done" || fail "the other terminal lacks the program's end"
pane_has "progress" && fail "the program wrote in the pane"
cmd 'tty'
wait_for "$other"

# back to the pane
cmd 'tty ""'
wait_gone "the program's terminal is"
cmd run
wait_row 0 "exited with status 0"
wait_pane "progress 100%"

# bad paths
cmd 'tty /nonexistent'
wait_for "error: tty: cannot open /nonexistent: No such file or directory"
# (a short path: the message must fit on the screen's one line of 80
# columns, which a deep work directory's path does not)
plain=$(mktemp /tmp/noosa-plain.XXXXXX)
cmd "tty $plain"
wait_for "error: tty: $plain is not a terminal"
rm -f "$plain"
# and the terminal is still the pane's
cmd 'tty'
wait_gone "the program's terminal is"

# away again with the command
T clear-history -t =other:
T send-keys -t =other: C-l
cmd "tty $other"
wait_for "Output: the program's terminal is $other"
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"

# --tty with a bad path: said before anything starts, status 2
"$noosa" -b --tty /nonexistent "$termprog" colours > "$work/bad.out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "--tty /nonexistent gave status $rc"
grep -qF "noosa: --tty: /nonexistent: No such file or directory" "$work/bad.out" ||
    fail "--tty /nonexistent: $(cat "$work/bad.out")"

# batch mode with --tty: the program's output goes there, not to noosa's
T send-keys -t =other: C-l
"$noosa" -b -n --tty "$other" -e run "$termprog" colours > "$work/batch.out" 2>&1 ||
    fail "batch mode with --tty failed: $(cat "$work/batch.out")"
grep -q "done" "$work/batch.out" && fail "batch mode with --tty wrote the output to noosa's"
check_asan
echo "ok"
