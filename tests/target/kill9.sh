#!/bin/sh
# SPDX-License-Identifier: MIT
# kill9.sh - `kill -9` of the monitor leaves no target process behind
# (PTRACE_O_EXITKILL): the program, busy in three threads, is gone soon
# after noosa dies.
. "$srcdir/tests/target/lib.sh"

pidfile=$WORK/kill9.pid
rm -f "$pidfile"
"$NOOSA" --raw-trace -o "$WORK/kill9.out" "$TT/tt-prog" busy 3 "$pidfile" &
noosa=$!
i=0
while [ ! -s "$pidfile" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ ! -s "$pidfile" ]; then
    echo "FAIL: the program did not start"
    kill -9 $noosa
    exit 1
fi
target=$(cat "$pidfile")
kill -0 "$target" || { echo "FAIL: target $target not running"; exit 1; }
kill -9 $noosa
wait $noosa 2>/dev/null
i=0
while kill -0 "$target" 2>/dev/null && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
if kill -0 "$target" 2>/dev/null; then
    echo "FAIL: target $target outlived the monitor"
    ps -o pid,stat,cmd -p "$target"
    kill -9 "$target"
    exit 1
fi
echo "ok: target $target died with the monitor"
exit 0
