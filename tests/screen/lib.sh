# SPDX-License-Identifier: MIT
#
# lib.sh - drive noosa's screen in a real terminal: a tmux server on a
# private socket (noosa-test-PID, killed at the end), keys sent with
# send-keys, the screen read with capture-pane.  Waits poll the screen for
# the text expected, with a time limit, rather than sleeping fixed times.
#
# Sourced by the tests, which then call:
#   start COLS ROWS ARG...   run noosa ARG... in a COLSxROWS terminal
#   launch COLS ROWS CMD     run the shell command line CMD there
#   keys KEY...              tmux send-keys (Enter, F5, C-c, Tab, ...)
#   type_text TEXT           type TEXT literally (no Enter)
#   cmd TEXT                 type TEXT and Enter
#   wait_for TEXT            until the screen shows TEXT (a fixed string)
#   wait_row N TEXT          until row N (0 is the top) contains TEXT
#   wait_line TEXT           until a whole row is TEXT
#   wait_row_re N ERE        until row N matches the extended regex ERE
#   wait_gone TEXT           until the screen no longer shows TEXT
#   wait_pane TEXT           until the output pane shows TEXT
#   wait_pane_line TEXT      until a whole row of the output pane is TEXT
#   row N                    the text of row N now
#   wait_exit                until noosa has exited; its status in $status
#   target_pid               the pid on the status line
#   noosa_pid                noosa's pid
#   wait_pids                until the status line names a live child of
#                            noosa: that pid in $pid, noosa's in $npid
#   gone PID                 whether process PID is dead (or a zombie)
#   find_text TEXT           "ROW COL" of TEXT on the screen
#   click ROW COL            a mouse click there; wheel 4|5 ROW COL
#   fail MESSAGE             fail, showing the screen
# The test runs in $work (noosa's current directory; HOME is $work/home).
set -u

: "${srcdir:=.}"
: "${top_srcdir:=$srcdir/../..}"
: "${top_builddir:=../..}"
abs_top_builddir=${abs_top_builddir:-$(cd "$top_builddir" && pwd)}
abs_top_srcdir=${abs_top_srcdir:-$(cd "$top_srcdir" && pwd)}

# the harness exports TMUX as the path of tmux; tmux itself reads TMUX
tmux_bin=${TMUX:-tmux}
unset TMUX
if [ "$tmux_bin" = no ] || ! command -v "$tmux_bin" >/dev/null 2>&1; then
    echo "tmux is not installed: skipped"
    exit 77
fi

name=$(basename "$0" .sh)
work=$abs_top_builddir/tests/screen/work/$name
rm -rf "$work"
mkdir -p "$work/home"
noosa=$abs_top_builddir/src/noosa
calc=$abs_top_builddir/tests/screen/calc
examples=$abs_top_srcdir/examples/calc
sock=noosa-test-$$
limit=30
case "${SANITIZE_FLAGS:-}" in *address*) limit=90 ;; esac

T() {
    "$tmux_bin" -L "$sock" -f /dev/null "$@"
}

cleanup() {
    T kill-server >/dev/null 2>&1
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
}
trap cleanup EXIT

screen_text() {
    T capture-pane -p -t =t: 2>/dev/null
}

fail() {
    echo "FAIL: $*"
    echo "--- the screen:"
    screen_text
    echo "---"
    exit 1
}

# Extra environment for noosa, set by the test before start: NOOSA_ENV.
NOOSA_ENV=${NOOSA_ENV:-}

start() {
    cols=$1
    rows=$2
    shift 2
    launch "$cols" "$rows" "$(printf '"%s"' "$noosa"; for a in "$@"; do
        printf " '%s'" "$a"
    done)"
}

# Run the shell command line CMD in a COLSxROWS terminal, in the same
# environment as noosa by start.
launch() {
    cols=$1
    rows=$2
    {
        echo "#!/bin/sh"
        echo "cd '$work' || exit 1"
        echo "export HOME='$work/home' TERM=screen"
        echo "unset VISUAL EDITOR XDG_STATE_HOME XDG_CONFIG_HOME NO_COLOR"
        echo "unset NOOSA_NO_MOUSE LINES COLUMNS"
        echo "export ASAN_OPTIONS='log_path=$work/asan'"
        [ -n "$NOOSA_ENV" ] && echo "export $NOOSA_ENV"
        echo "$3"
        echo "echo \$? > '$work/status'"
        echo "exec sleep 3600"
    } > "$work/run.sh"
    rm -f "$work/status"
    # The server outlives its sessions (exit-empty off): a server that
    # exits with its last session can still take the next client, which
    # then fails with "server exited unexpectedly".
    T kill-session -t =t >/dev/null 2>&1
    T new-session -d -s t -x "$cols" -y "$rows" "sh '$work/run.sh'" \; \
        set-option -g exit-empty off || fail "cannot start tmux"
}

keys() {
    T send-keys -t =t: "$@"
}

# tmux takes a ';' ending an argument for the end of its command
type_text() {
    case $1 in
    *\;)
        [ "$1" = ";" ] || T send-keys -t =t: -l "${1%;}"
        T send-keys -t =t: '\;'
        ;;
    *)
        T send-keys -t =t: -l "$1"
        ;;
    esac
}

cmd() {
    type_text "$1"
    T send-keys -t =t: Enter
}

# Poll every 0.1 s until CHECK (a shell command) succeeds, or fail with
# WHAT after $limit seconds.
poll() {
    what=$1
    shift
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        if "$@"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    fail "timed out waiting for $what"
}

has_text() {
    screen_text | grep -qF -- "$1"
}

lacks_text() {
    ! screen_text | grep -qF -- "$1"
}

row() {
    screen_text | sed -n "$(($1 + 1))p"
}

row_has() {
    row "$1" | grep -qF -- "$2"
}

wait_for() {
    poll "\"$1\"" has_text "$1"
}

# The output pane: from its title ("Output ...") down.
pane_has() {
    screen_text | sed -n '/Output/,$p' | grep -qF -- "$1"
}

pane_has_line() {
    screen_text | sed -n '/Output/,$p' | grep -qxF -- "$1"
}

wait_pane() {
    poll "\"$1\" in the output pane" pane_has "$1"
}

wait_pane_line() {
    poll "a row \"$1\" in the output pane" pane_has_line "$1"
}

wait_gone() {
    poll "\"$1\" to go" lacks_text "$1"
}

has_line() {
    screen_text | grep -qxF -- "$1"
}

wait_line() {
    poll "a row \"$1\"" has_line "$1"
}

wait_row() {
    poll "\"$2\" on row $1" row_has "$1" "$2"
}

row_matches() {
    row "$1" | grep -Eq -- "$2"
}

# Curses may be in the middle of redrawing a row when it is read: a check
# of more than one part of a row waits for all of them at once.
wait_row_re() {
    poll "row $1 to match $2" row_matches "$1" "$2"
}

exited() {
    [ -s "$work/status" ]
}

wait_exit() {
    poll "noosa to exit" exited
    status=$(cat "$work/status")
}

target_pid() {
    row 0 | sed -n 's/.* pid \([0-9][0-9]*\) .*/\1/p'
}

# The pid of noosa (the child of the pane's shell).
noosa_pid() {
    pgrep -P "$(T display -p -t =t: '#{pane_pid}')" -x noosa | head -1
}

# The status line is read while curses may be redrawing it (the terminal
# can show "running" before the pid in front of it is complete), so the
# pid read counts only once it is a child of noosa.
pids_agree() {
    pid=$(target_pid)
    npid=$(noosa_pid)
    [ -n "$pid" ] && [ -n "$npid" ] &&
        [ "$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)" = "$npid" ]
}

wait_pids() {
    poll "the pids of noosa and of the program" pids_agree
}

gone() {
    [ ! -d "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# "ROW COL" (from 0) of the first TEXT on the screen, or nothing.
find_text() {
    screen_text | awk -v t="$1" \
        'index($0, t) > 0 { print NR - 1, index($0, t) - 1; exit }'
}

# A click of the first mouse button at ROW, COL, as an xterm reports it
# (X10 encoding: the terminal is "screen").
click() {
    T send-keys -t =t: -l "$(printf "\033[M \\$(printf %o $(($2 + 33)))\\$(printf %o $(($1 + 33)))")"
}

# The wheel turned up (4) or down (5) at ROW, COL.
wheel() {
    b=$(($1 == 4 ? 96 : 97))
    T send-keys -t =t: -l "$(printf "\033[M\\$(printf %o $b)\\$(printf %o $(($3 + 33)))\\$(printf %o $(($2 + 33)))")"
}

# The sanitizers found nothing (run at the end of each test).
check_asan() {
    if ls "$work"/asan.* >/dev/null 2>&1; then
        cat "$work"/asan.*
        fail "the sanitizers reported errors"
    fi
}
