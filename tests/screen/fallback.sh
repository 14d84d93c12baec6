#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fallback.sh - noosa without a screen it can use: a terminal type
# curses does not know, or TERM=dumb, says so and runs in batch mode (on
# the same terminal); without a terminal at all it says so too.

. "$srcdir/tests/screen/lib.sh"

for term in no-such-terminal dumb; do
    NOOSA_ENV="TERM=$term"
    start 100 20 "$calc" "$examples/demo.calc"
    wait_for "(TERM=$term)"
    wait_for "running in batch mode"
    cmd 'info program'
    wait_for "State: not running"
    cmd 'quit 3'
    wait_exit
    [ "$status" = 3 ] || fail "noosa exited with status $status, not 3"
    check_asan
done

# no terminal: standard input and output are not one
echo 'info program' | ASAN_OPTIONS="log_path=$work/asan" \
    "$noosa" "$calc" "$examples/demo.calc" > "$work/out" 2> "$work/err" ||
    fail "noosa failed without a terminal"
grep -qF "noosa: no terminal: running in batch mode" "$work/err" ||
    fail "no word of batch mode: $(cat "$work/err")"
grep -qF "State: not running" "$work/out" || fail "batch mode did not run"
check_asan
echo "ok"
