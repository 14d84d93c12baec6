#!/bin/sh
# SPDX-License-Identifier: MIT
# window.sh - the screen's profile window (F11), in a real terminal (tmux,
# skipped without it): the time profile flat and as a tree, the frequency
# profile, sorting, turning a profile on from the window (the command is
# echoed), and the window through `screen window profile`.

set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
abs_top_builddir=${abs_top_builddir:-$(cd "$top_builddir" && pwd)}
tmux_bin=${TMUX:-tmux}
unset TMUX
if [ "$tmux_bin" = no ] || ! command -v "$tmux_bin" >/dev/null 2>&1; then
    echo "tmux is not installed: skipped"
    exit 77
fi
work=$abs_top_builddir/tests/profile/work/window
rm -rf "$work"
mkdir -p "$work/home"
sock=noosa-prof-test-$$
limit=30
case "${SANITIZE_FLAGS:-}" in *address*) limit=90 ;; esac

T() { "$tmux_bin" -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1' EXIT
screen_text() { T capture-pane -p -t t 2>/dev/null; }
fail() {
    echo "FAIL: $*"
    echo "--- the screen:"
    screen_text
    echo "---"
    exit 1
}
has_text() { screen_text | grep -qF -- "$1"; }
wait_for() {
    i=0
    while [ $i -lt $((limit * 10)) ]; do
        has_text "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "timed out waiting for \"$1\""
}
keys() { T send-keys -t t "$@"; }
cmd() { T send-keys -t t -l "$1"; T send-keys -t t Enter; }

cat >"$work/run.sh" <<EOF2
#!/bin/sh
cd '$work' || exit 1
export HOME='$work/home' TERM=screen
unset VISUAL EDITOR XDG_STATE_HOME XDG_CONFIG_HOME NO_COLOR
export ASAN_OPTIONS='log_path=$work/asan'
'$abs_top_builddir/src/noosa' -n '$abs_top_builddir/tests/profile/pt' nest 40
echo \$? > '$work/status'
exec sleep 3600
EOF2
T new-session -d -s t -x 110 -y 40 "sh '$work/run.sh'" || fail "cannot start tmux"
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
i=0
while [ ! -s "$work/status" ] && [ $i -lt $((limit * 10)) ]; do
    sleep 0.1
    i=$((i + 1))
done
[ "$(cat "$work/status" 2>/dev/null)" = 0 ] || fail "noosa did not quit with 0"
if ls "$work"/asan.* >/dev/null 2>&1; then
    cat "$work"/asan.*
    fail "the sanitizers reported errors"
fi
echo "ok"
