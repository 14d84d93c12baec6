#!/bin/sh
# SPDX-License-Identifier: MIT
# holds.sh - what must keep holding under load and abuse: kill -9 of noosa
# at a stop and while the program floods leaves no process behind; kill
# -9 of the program at a stop is reported and noosa goes on (the program
# runs again); SIGSTOP and SIGCONT from outside lose no event; a null
# string shows as (null); a 10 MB string is cut in the transcript.
. "$srcdir/tests/load/lib.sh"

# gone PID WHAT: process PID ends within 5 s.
gone() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$1" 2>/dev/null; then
        fail "$2: process $1 is still there"
        kill -9 "$1"
    else
        echo "ok: $2: no process left"
    fi
}

# started FILE: wait up to 10 s for FILE to hold a pid; print it.
started() {
    i=0
    while [ ! -s "$1" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    cat "$1" 2>/dev/null
}

# noosa_bg NAME ARG...: noosa --batch in the background; its pid in $bg.
noosa_bg() {
    name=$1
    shift
    "$NOOSA" --batch -n "$@" </dev/null >"$WORK/$name.out" \
        2>"$WORK/$name.err" &
    bg=$!
}

# kill -9 of noosa while the program waits at a stop.
rm -f "$WORK/at-stop.pid"
LT_PIDFILE=$WORK/at-stop.pid noosa_bg at-stop -e 'break tick' -e run \
    -e 'puts "stopped: $n(status)"' -e 'after 30000' "$LT" stopped
prog=$(started "$WORK/at-stop.pid")
i=0
while ! grep -q '^stopped: stopped$' "$WORK/at-stop.out" && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -9 "$bg"
wait "$bg" 2>/dev/null
gone "$prog" "kill -9 of noosa at a stop"

# kill -9 of noosa while the program floods the ring.
rm -f "$WORK/flood.pid"
LT_PIDFILE=$WORK/flood.pid noosa_bg flood -e 'handler add tick h {}' \
    -e run "$LT" flood
prog=$(started "$WORK/flood.pid")
sleep 0.5
kill -9 "$bg"
wait "$bg" 2>/dev/null
gone "$prog" "kill -9 of noosa while the program floods"

# kill -9 of the program at a stop: said, and noosa runs it again.
batch killed -e 'break tick' -e run -e 'exec kill -9 $n(pid)' \
    -e 'after 300' -e cont -e 'puts "status $n(status)"' -e run -e cont \
    "$LT" stopped
count killed 2 '^Stopped at breakpoint 1'
has killed '^Program killed by SIGKILL\.$'
has killed '^status dead$'
has killed '^stopped: went on$'
has killed '^Program exited with status 0\.$'

# SIGSTOP and SIGCONT from outside while the program emits: it waits in
# its group-stop, as without noosa, and then every event is counted.
rm -f "$WORK/stopcont.pid"
LT_PIDFILE=$WORK/stopcont.pid noosa_bg stopcont \
    -e 'handler add tick count {global seen; incr seen}' -e 'set seen 0' \
    -e run -e 'puts "seen $seen"' "$LT" loop 20000 x 30000
prog=$(started "$WORK/stopcont.pid")
sleep 0.2
kill -STOP "$prog"
sleep 0.5
state=$(awk '{print $3}' "/proc/$prog/stat" 2>/dev/null)
kill -CONT "$prog"
wait "$bg"
echo $? >"$WORK/stopcont.rc"
case $state in
T | t) echo "ok: the program was stopped by SIGSTOP ($state)" ;;
*) fail "the program was not stopped by SIGSTOP (state ${state:-gone})" ;;
esac
status stopcont 0
has stopcont '^seen 20000$'
has stopcont '^loop: 20000 ticks$'

batch null -e 'trace on' -e run "$LT" null
status null 0
has null '^tick i=-1 label="\(null\)"$'

# 10 MB: the record keeps its first 64 KiB, the transcript less, and says
# that the string goes on.
batch big -e 'trace on' -e run "$LT" big 10
status big 0
has big '^tick i=-2 label="b+"\.\.\. \(truncated\)$'
long=$(awk 'length($0) > 4096' "$WORK/big.out" | wc -l)
if [ "$long" -eq 0 ]; then
    echo "ok: big: no line of more than 4096 characters"
else
    fail "big: $long lines of more than 4096 characters"
fi
finish
