#!/bin/sh
# SPDX-License-Identifier: MIT
# flight.sh - the flight recorder: noosa record --flight keeps only the
# last events of each thread and writes them when the program hits a
# run-time error (a null pointer, dapto_error) or ends; what it let go is
# said when it is read, and babeltrace2 reads it; from the prompt, record
# start -flight and record dump.

. "${srcdir:-.}/tests/record/lib.sh"

# a null pointer after 20000 x nest: 200000 events, about 16 KiB kept
record crash --flight=16k "$PT" crash 20000
[ "$(cat crash.rec-rc)" = 139 ] || fail "crash: status $(cat crash.rec-rc), not 139"
grep -q "^noosa: SIGSEGV in thread [0-9]*: the flight recording is in crash$" \
    crash.rec-err || fail "crash: the message ($(cat crash.rec-err))"
"$NOOSA" dump crash >crash.dump 2>crash.err
grep -q "noosa: crash: thread_[0-9]*: its [0-9]* earlier events were not kept (a flight recording)" \
    crash.err || fail "crash: the note ($(cat crash.err))"
has crash.dump "# a flight recording:"
has crash.dump "# the program was killed by signal 11"
# the last event is the one before the crash
[ "$(grep -E '^[0-9]' crash.dump | tail -1 | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //')" = \
    'enter name="crash"' ] || fail "crash: the last event"
# a backlog in the ring at the crash: noosa stopped while pt writes
# 200000 records into a 16 MiB ring and crashes; continued, the flight
# recording must end with the event before the crash all the same
backlog crashlog crash record --flight=16k --ring-size=16777216 -o crashlog
[ "$(cat crashlog.rc)" = 139 ] || fail "crashlog: status $(cat crashlog.rc), not 139"
"$NOOSA" dump crashlog >crashlog.dump 2>crashlog.err
[ "$(grep -E '^[0-9]' crashlog.dump | tail -1 | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //')" = \
    'enter name="crash"' ] ||
    fail "crashlog: the last event is $(grep -E '^[0-9]' crashlog.dump | tail -1)"
n=$(count crash.dump '^[0-9]')
[ "$n" -gt 500 ] && [ "$n" -lt 20000 ] || fail "crash: $n events kept"
size=$(cat crash/thread_* | wc -c)
[ "$size" -le $((16384 + 8192)) ] || fail "crash: $size bytes kept"
if command -v babeltrace2 >/dev/null 2>&1; then
    babeltrace2 crash >crash.bt 2>crash.bt-err || fail "babeltrace2: $(cat crash.bt-err)"
    grep -q ' enter: ' crash.bt || fail "babeltrace2: no enter"
fi

# dapto_error
record err --flight=8k "$PT" error 5000
[ "$(cat err.rec-rc)" = 134 ] || fail "error: status $(cat err.rec-rc), not 134"
has err.rec-err "SIGABRT in thread"
"$NOOSA" dump err >err.dump 2>/dev/null
[ "$(grep -E '^[0-9]' err.dump | tail -1 | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //')" = \
    'enter name="error"' ] || fail "error: the last event"

# an ordinary end: written at the exit
record end --flight=8k "$PT" nest 5000
"$NOOSA" dump end >end.dump 2>/dev/null
[ "$(grep -E '^[0-9]' end.dump | tail -1 | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //')" = \
    'finit' ] || fail "end: the last event"
has end.dump "# the program exited with status 0"

# from the prompt: record dump while stopped
cat >prompt.tcl <<'TCL'
record start -flight 4096 pf
break other if {$n == 3000}
run
record dump
continue
record stop
TCL
timeout 60 "$NOOSA" --batch -n -x prompt.tcl "$PT" nest 5000 </dev/null >prompt.out 2>&1
has prompt.out "Wrote what the recording holds to pf."
"$NOOSA" dump pf >pf.dump 2>/dev/null
n=$(count pf.dump '^[0-9]')
[ "$n" -gt 50 ] && [ "$n" -lt 1000 ] || fail "prompt: $n events kept"
has pf.dump "# a flight recording:"
timeout 60 "$NOOSA" --batch -n -e 'record start -flight x y' "$PT" nest 1 \
    </dev/null >badf.out 2>&1
has badf.out 'error: record start: -flight wants a number of bytes, got "x"'
"$NOOSA" record --flight=lots -o z "$PT" nest 1 >badr.out 2>&1
has badr.out 'noosa: --flight wants a size (bytes, or with k, M, G), got "lots"'

finish
