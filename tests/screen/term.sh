#!/bin/sh
# SPDX-License-Identifier: MIT
#
# term.sh - the output pane is the program's terminal: a program that
# colours its output and rewrites a progress line with \r, one that uses
# the alternate screen, and a line editor in raw mode driven with keys
# through noosa look in the pane as they look in a terminal of their own
# of the pane's size (tests/screen/termprog, run in a second tmux session
# and given the same keys).  The colours reach the terminal (capture-pane
# -e); the pty follows the pane's size (SIGWINCH); C-] leaves the pane
# without being sent, other control keys (C-l, bound in noosa) are the
# program's; a paste reaches the program; the pane keeps a scrollback.

. "$srcdir/tests/screen/lib.sh"

NOOSA_ENV="LANG=C.UTF-8"
termprog=$abs_top_builddir/tests/screen/termprog
H=8

# The rows of the output pane (the H rows under its title).
pane_rows() {
    screen_text | awk -v h=$H '/── Output/ { p = 1; next } p && n < h { print; n++ }'
}

# Run termprog MODE in an 80xH terminal of its own (session o).
outside() {
    T kill-session -t =o >/dev/null 2>&1
    T new-session -d -s o -x 80 -y $H \
        "cd '$work'; LANG=C.UTF-8 TERM=screen '$termprog' $1; exec sleep 3600" ||
        fail "cannot start the program outside noosa"
}

outside_has() {
    T capture-pane -p -t =o: | grep -qF -- "$1"
}

wait_outside() {
    poll "\"$1\" outside noosa" outside_has "$1"
}

same_rows() {
    T capture-pane -p -t =o: > "$work/outside.txt"
    pane_rows > "$work/pane.txt"
    cmp -s "$work/outside.txt" "$work/pane.txt"
}

# The pane shows what the terminal of its own shows (polled: the two may
# be drawn a moment apart).
check_same() {
    i=0
    while ! same_rows; do
        i=$((i + 1))
        if [ $i -gt 50 ]; then
            diff "$work/outside.txt" "$work/pane.txt"
            fail "the pane differs from the program's own terminal ($1)"
        fi
        sleep 0.1
    done
}

to_output() {
    keys F6
    wait_for "Output: keys go to the program"
}

# --- colours and a progress line ------------------------------------------
start 80 24 -n -e "screen output-height $H" "$termprog" colours
wait_for "(noosa)"
cmd run
wait_row 0 "exited with status 0"
wait_pane "done"
# \r rewrote one row: the progress is on a single line at 100%
wait_pane_line "progress 100% [##########]"
[ "$(pane_rows | grep -c progress)" = 1 ] || fail "the progress line was not rewritten in place"
# UTF-8 and wide characters
wait_pane "done été 中文|"
# the attributes reach the terminal: an SGR for each, maybe with others
T capture-pane -p -e -t =t: > "$work/attrs.txt"
esc=$(printf '\033')
has_sgr() { # has_sgr N TEXT: SGR N just before TEXT
    grep -Eq "${esc}\\[$1m(${esc}\\[[0-9;]*m)*$2" "$work/attrs.txt" || {
        cat -v "$work/attrs.txt"
        fail "no SGR $1 before $2 in the pane"
    }
}
has_sgr 31 red
has_sgr 1 green-bold
has_sgr 32 green-bold
has_sgr 4 underlined
has_sgr 7 reverse
outside colours
wait_outside "done"
check_same colours
cmd 'quit'
wait_exit

# --- the alternate screen --------------------------------------------------
start 80 24 -n -e "screen output-height $H" "$termprog" alt
wait_for "(noosa)"
cmd run
wait_pane "ALT SCREEN"
pane_rows | grep -qF "before the alternate screen" &&
    fail "the alternate screen shows the main one"
outside alt
wait_outside "ALT SCREEN"
check_same "on the alternate screen"
# the scrollback does not scroll the alternate screen
cmd 'screen scroll -output pageup'
wait_pane "ALT SCREEN"
to_output
type_text x
keys Enter
T send-keys -t =o: -l x
T send-keys -t =o: Enter
wait_pane "back from it"
wait_pane "before the alternate screen"
wait_outside "back from it"
check_same "back from the alternate screen"
keys C-]
wait_gone "Output: keys go to"
cmd 'quit'
wait_exit

# --- a line editor in raw mode ---------------------------------------------
start 80 24 -n -e "screen output-height $H" "$termprog" repl
wait_for "(noosa)"
cmd run
wait_pane "repl ready"
to_output
# the status line says which key gives the keys back to noosa
wait_row 0 "C-]: back to noosa"
outside repl
wait_outside "repl ready"
# the same keys in both: typing, Left three times, an insertion, C-e,
# more typing, Enter; then "size"
for dest in =t: =o:; do
    T send-keys -t $dest -l hllo
    T send-keys -t $dest Left Left Left
    T send-keys -t $dest -l e
    T send-keys -t $dest C-e
    T send-keys -t $dest -l ' world'
    T send-keys -t $dest Enter
    T send-keys -t $dest -l size
    T send-keys -t $dest Enter
done
wait_pane "got [hello world]"
wait_pane "size 80x$H"
wait_outside "size 80x$H"
check_same "a line editor"
# C-l is noosa's redraw elsewhere, the program's here
keys C-l
wait_pane "[ctrl 12]"
# a paste reaches the program
T set-buffer -b p "pasted text"
T paste-buffer -b p -t =t:
keys Enter
wait_pane "got [pasted text]"
# C-] goes back to the command line and is not sent
keys C-]
wait_gone "Output: keys go to"
wait_gone "C-]: back to noosa"
wait_for "(noosa)"
# the pty follows the pane: the program gets SIGWINCH and the new size
cmd 'screen output-height 6'
wait_pane "winch 80x6"
H=6
pane_rows | grep -qF "[ctrl 29]" && fail "C-] was sent to the program"
# the pane's own scrollback: the first lines scrolled off its top, and
# scrolling back shows them
pane_rows | grep -qF "repl ready" && fail "expected repl ready to have scrolled off"
cmd 'screen scroll -output home'
wait_pane "repl ready"
wait_for "lines up"
cmd 'screen scroll -output end'
wait_gone "lines up"
to_output
type_text quit
keys Enter
wait_row 0 "exited with status 0"
keys C-]
cmd 'quit'
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
