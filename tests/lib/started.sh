# SPDX-License-Identifier: MIT
# started.sh - wait_started FILE: wait until FILE, the output of a test
# program started in the background (tests/load/lt busy, say), has its
# "started" line, 10 s at most; 1 if it never came.
wait_started() {
    ws_i=0
    while ! grep -q started "$1" 2>/dev/null; do
        ws_i=$((ws_i + 1))
        [ $ws_i -gt 200 ] && return 1
        sleep 0.05
    done
    return 0
}
