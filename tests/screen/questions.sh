#!/bin/sh
# SPDX-License-Identifier: MIT
# questions.sh - the screen's questions window, in a real terminal (tmux,
# skipped without it): a question asked at the prompt, its answer in the
# window once the program has run (the table and the histogram's bars),
# the sort key changed from the window, reset from the window (the
# command is echoed), and the window by its key (F8) and through
# `screen window questions`.

. "$srcdir/tests/screen/lib.sh"

start 120 45 -n "$abs_top_builddir/tests/profile/pt" nest 40
wait_for "noosa"
cmd 'question add comp leave duration -by component -hist'
cmd 'question add ticks tick n -by n'
cmd 'question print off'
cmd 'screen window questions'
wait_for " Questions: 2, by count "
wait_for "when the program runs"
keys Escape
cmd run
wait_for "Program exited with status 0."
cmd 'question list'
wait_for "in the program: 121 events checked, 121 counted (the run has ended)"
keys F8
wait_for "question comp: duration from enter to leave by component, histogram"
wait_for "121 events counted by the program in 1 thread"
wait_for "  a                            40 "
wait_for "distribution"
keys s
wait_for " Questions: 2, by key "
keys r
wait_for "question reset"
wait_for "when the program runs"
keys Escape
cmd 'screen window'
wait_for "none"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa did not quit with 0 but $status"
check_asan
echo "ok"
