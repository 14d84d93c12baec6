#!/bin/sh
# SPDX-License-Identifier: MIT
# attach.sh - attaching to a program whose threads emit flat out, and
# detaching, several times in a row (noosa -p): each time a handler counts
# events of every thread until it stops the program, and detach then lets
# it go with nothing left inside.  The program runs on through all of it
# and ends normally when told.  Detach used to leave every event on (the
# states were not written once the channel was let go), so threads kept
# entering the runtime and the region could never be given back.
# ATTACH_CYCLES (default 3) attaches; make check-stress runs more.
. "$srcdir/tests/load/lib.sh"

CYCLES=${ATTACH_CYCLES:-3}
"$LT" busy 8 "$WORK/stop" >"$WORK/prog.out" 2>&1 &
prog=$!
i=0
while ! grep -q started "$WORK/prog.out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 200 ] && break
    sleep 0.05
done
k=0
while [ $k -lt "$CYCLES" ]; do
    k=$((k + 1))
    name=attach-$k
    batch "$name" -p $prog -e 'set c 0; array set per {}' \
        -e 'handler add tock count {global c per; incr c; incr per($th); if {$c == 4000} {n_break}}' \
        -e continue -e 'puts "count $c threads [array size per] $n(status)"' \
        -e detach -e 'puts "after $n(status)"'
    status "$name" 0
    has "$name" '^count 4000 threads [1-8] stopped$'
    has "$name" '^Detached from process'
    has "$name" '^after dead$'
    if grep -q 'stays inside' "$WORK/$name.out"; then
        fail "$name: the region was left in the program"
    fi
done
touch "$WORK/stop"
wait $prog
echo $? >"$WORK/prog.rc"
if [ "$(cat "$WORK/prog.rc")" = 0 ] && grep -q '^busy: 8 threads$' "$WORK/prog.out"; then
    echo "ok: the program went on and ended"
else
    fail "the program: status $(cat "$WORK/prog.rc")"
    cat "$WORK/prog.out"
fi
finish
