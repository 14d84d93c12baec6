#!/bin/sh
# SPDX-License-Identifier: MIT
# buffers.sh - noosa record through the threads' own buffers
# <protocol#tbuf>: many threads through small buffers (every event of each,
# whole and in its order, all of them through the buffers); threads that
# end with a buffer far from full; more threads than buffers, one wave
# after another (buffers freed and taken again); a crash in a thread, in a
# recording and in a flight recording; --overwrite (what is lost counted
# exactly); a runtime of protocol 1.0.3 and --shared-ring (the ring, all
# the same events); a program that writes garbage into its own buffer
# (said, nothing hangs).

. "${srcdir:-.}/tests/record/lib.sh"
LT=$abs_top_builddir/tests/load/lt
AWK_THREADS=$abs_top_srcdir/tests/record/threads.awk

# buffered NAME: how many events noosa record says went through the
# threads' own buffers (0 when it does not say)
buffered() {
    n=$(sed -n "s/.* (\([0-9]*\) through the threads' own buffers).*/\1/p" \
        "$WORK/$1.rec-err")
    echo "${n:-0}"
}

# threads NAME K: threads.awk over NAME's dump
threads() {
    "$NOOSA" dump "$1" >"$WORK/$1.dump" 2>"$WORK/$1.dump-err"
    awk -v K="$2" -f "$AWK_THREADS" "$WORK/$1.dump"
}

# 16 threads through buffers of 4 KiB: laps, padding at the ends, threads
# waiting for room; init, exit and finit are the main thread's
record t16 --ring-size=4096 "$PT" threads 16 2000
[ "$(cat t16.rec-rc)" = 0 ] || fail "t16: status $(cat t16.rec-rc)"
r=$(threads t16 2000)
[ "$r" = "threads 16 bad 0" ] || fail "t16: $r"
[ "$(buffered t16)" = $((16 * (2 + 3 * 2000) + 3)) ] ||
    fail "t16: $(buffered t16) events through the buffers ($(cat t16.rec-err))"
grep -q lost t16.rec-err t16.dump && fail "t16: something lost"

# one thread writing an int event flat out into a buffer it fills (each
# record read one by one, the reader staying off the line being written):
# it waits for room, and noosa must look again, not wait with it
LOOP=$abs_top_builddir/bench/monitor-loop
timeout 60 "$NOOSA" record -o hits --events=hit "$LOOP" 3000000 </dev/null \
    >hits.rec-out 2>hits.rec-err
rc=$?
[ $rc = 0 ] || fail "hits: status $rc (124: a hang), $(cat hits.rec-err)"
has hits.rec-err "noosa: recorded 3000004 events in hits (3000000 through the threads' own buffers)"

# more threads than buffers at once (the main thread and 64 workers): a
# worker without one writes into the ring, flat out, beside 63 writing
# into buffers of 4 KiB; the ring and the buffers take turns, every
# event of each is there in its order
record many --ring-size=4096 "$PT" threads 64 3000
[ "$(cat many.rec-rc)" = 0 ] || fail "many: status $(cat many.rec-rc)"
r=$(threads many 3000)
[ "$r" = "threads 64 bad 0" ] || fail "many: $r"

# threads that write a few events and end: their buffers are far from a
# quarter full when they do, and everything is there
record few "$PT" threads 8 3
r=$(threads few 3)
[ "$r" = "threads 8 bad 0" ] || fail "few: $r"
[ "$(buffered few)" = $((8 * 11 + 3)) ] || fail "few: $(buffered few) through the buffers"

# 96 threads in three waves, 64 buffers: a buffer whose thread has ended
# is freed once noosa has taken what it wrote, and the next thread takes
# it; every event went through a buffer
record waves "$PT" waves 3 32 50
r=$(threads waves 50)
[ "$r" = "threads 96 bad 0" ] || fail "waves: $r"
[ "$(buffered waves)" = $((96 * (2 + 3 * 50) + 3)) ] ||
    fail "waves: $(buffered waves) through the buffers, not all"

# a null pointer in a thread after four others have ended: every event
# up to the crash is recorded, the crashing thread's last is crash
record tc "$PT" tcrash 4 100
[ "$(cat tc.rec-rc)" = 139 ] || fail "tcrash: status $(cat tc.rec-rc)"
r=$(threads tc 100)
# (the crashing thread's sequence ends in crash: threads.awk counts it bad)
[ "$r" = "threads 4 bad 1" ] || fail "tcrash: $r"
[ "$(grep -E '^[0-9]' tc.dump | tail -1 | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //')" = \
    'enter name="crash"' ] || fail "tcrash: the last event"
has tc.dump "# the program was killed by signal 11"
[ "$(buffered tc)" = $((4 * (2 + 3 * 100) + (1 + 3 * 100 + 1) + 1)) ] ||
    fail "tcrash: $(buffered tc) through the buffers"
record tcf --flight=64k "$PT" tcrash 4 100
[ "$(cat tcf.rec-rc)" = 139 ] || fail "tcrash flight: status $(cat tcf.rec-rc)"
"$NOOSA" dump tcf >tcf.dump 2>/dev/null
[ "$(grep -E '^[0-9]' tcf.dump | tail -1 | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //')" = \
    'enter name="crash"' ] || fail "tcrash flight: the last event"

# --overwrite with buffers of 4 KiB: a thread never waits; what does not
# fit is lost, counted, and said: recorded + lost = emitted, exactly
record ow --overwrite --ring-size=4096 "$PT" threads 4 50000
[ "$(cat ow.rec-rc)" = 0 ] || fail "overwrite: status $(cat ow.rec-rc)"
"$NOOSA" dump ow >ow.dump 2>ow.err
lost=$(sed -n 's/^# \([0-9]*\) events lost in all$/\1/p' ow.dump)
[ -n "$lost" ] && [ "$lost" -gt 0 ] || fail "overwrite: no losses said"
got=$(count ow.dump '^[0-9]')
[ $((got + lost)) = $((4 * (2 + 3 * 50000) + 3)) ] ||
    fail "overwrite: $got recorded and $lost lost of $((4 * (2 + 3 * 50000) + 3))"
has ow.rec-err "; $lost lost"

# a runtime of protocol 1.0.3 knows no buffers: the ring, the same events
record v3 "$PT-v3" threads 4 100
r=$(threads v3 100)
[ "$r" = "threads 4 bad 0" ] || fail "1.0.3: $r"
[ "$(buffered v3)" = 0 ] || fail "1.0.3: $(buffered v3) through buffers"
record sr --shared-ring "$PT" threads 4 100
r=$(threads sr 100)
[ "$r" = "threads 4 bad 0" ] || fail "--shared-ring: $r"
[ "$(buffered sr)" = 0 ] || fail "--shared-ring: $(buffered sr) through buffers"

# garbage in a thread's own buffer (a record of a size no record has):
# said once, with where; what came before is recorded; the program goes
# on unmonitored and ends by itself
record sb "$LT" scribble-buffer 1000
[ "$(cat sb.rec-rc)" = 0 ] || fail "scribble: status $(cat sb.rec-rc)"
[ "$(count sb.rec-err 'protocol error')" = 1 ] || fail "scribble: $(cat sb.rec-err)"
grep -qE '^noosa: protocol error: thread buffer [0-9]+ \(thread [0-9]+\) is corrupt at position [0-9]+: a record has an impossible size \(12345 bytes; records are 32 to [0-9]+ bytes, a multiple of 8, within the buffer\); monitoring stops here$' \
    sb.rec-err || fail "scribble: the message ($(cat sb.rec-err))"
has sb.rec-out "scribble-buffer: done"
"$NOOSA" dump sb >sb.dump 2>&1
[ "$(count sb.dump 'label="before"')" = 1000 ] || fail "scribble: the ticks before"

finish
