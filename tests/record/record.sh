#!/bin/sh
# SPDX-License-Identifier: MIT
# record.sh - noosa record and noosa dump: a run of pt recorded whole and
# printed back event by event (values, names of enter and leave, threads,
# how it ended); --events and --functions choose what is recorded;
# lossless with a tiny ring (every event there); --overwrite with it
# (losses counted and said); -finstrument-functions
# records with their functions' names; at most 16 bytes an enter or leave
# event on disk, packet headers included; a backlog left in the ring when
# the program ends is taken whole; a directory that holds a recording is
# not overwritten.

. "${srcdir:-.}/tests/record/lib.sh"

# pt nest 2, every event
record nest "$PT" nest 2
[ "$(cat nest.rec-rc)" = 0 ] || fail "record nest: exit status $(cat nest.rec-rc)"
has nest.rec-err "noosa: recorded"
"$NOOSA" dump nest >nest.dump 2>nest.dump-err || fail "dump nest failed"
[ -s nest.dump-err ] && fail "dump nest said: $(cat nest.dump-err)"
sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ /E /; s/pid=[0-9]+/pid=P/g' nest.dump |
    grep -v '^# recording of' >nest.norm
cat >nest.want <<'OUT'
# hello pid=P
# aspect dapto: 6 events
E init pid=P
# aspect pt: 3 events
E enter name="main"
E enter name="a"
E tick n=0
E enter name="b"
E tick n=0
E other n=0
E leave name="b"
E leave name="a"
E enter name="c"
E other n=0
E leave name="c"
E enter name="a"
E tick n=1
E enter name="b"
E tick n=1
E other n=1
E leave name="b"
E leave name="a"
E enter name="c"
E other n=1
E leave name="c"
E leave name="main"
E exit
E finit
# the program exited with status 0
OUT
diff -u nest.want nest.norm || fail "dump of pt nest 2"
has nest.dump "# recording of $PT nest 2, format 1.0.0"
# numbers count up from 0, times never go back
awk '/^[0-9]/ { if ($1 < last || $2 < t) bad = 1; last = $1; t = $2 }
     END { exit bad }' nest.dump || fail "numbers or times go back"

# threads: one stream each, every event there
record threads "$PT" threads 3 50
"$NOOSA" dump threads >threads.dump 2>&1
[ "$(count threads.dump ' tick n=')" = 150 ] || fail "threads: 150 ticks"
[ "$(ls threads | grep -c '^thread_')" = 4 ] ||
    fail "threads: 4 thread streams (main and 3 workers)"

# threads through a tiny ring: the recorder's batches mix threads, and
# takes a run of one thread's records at a time; each worker's events
# must still be whole and in its own order
record threads8 --ring-size=4096 "$PT" threads 8 300
[ "$(cat threads8.rec-rc)" = 0 ] || fail "threads8: exit status $(cat threads8.rec-rc)"
"$NOOSA" dump threads8 >threads8.dump 2>&1
[ "$(awk -v K=300 -f "$abs_top_srcdir/tests/record/threads.awk" threads8.dump)" = \
    "threads 8 bad 0" ] ||
    fail "threads8: $(awk -v K=300 -f "$abs_top_srcdir/tests/record/threads.awk" threads8.dump)"

# dump's choices: by number, by time, by name, by thread
"$NOOSA" dump --from=5 --to=9 nest >from.dump
[ "$(grep -E '^[0-9]' from.dump | awk '{print $1}' | tr '\n' ' ')" = "5 6 7 8 9 " ] ||
    fail "--from=5 --to=9: $(grep -E '^[0-9]' from.dump | awk '{print $1}' | tr '\n' ' ')"
t=$(awk '$1 == 10 { print $2 }' nest.dump)
"$NOOSA" dump --from="${t}ns" nest >fromt.dump
[ "$(grep -E '^[0-9]' fromt.dump | head -1 | awk '{print $1}')" = 10 ] ||
    fail "--from=${t}ns: the first event is not number 10"
"$NOOSA" dump --events=tick,leave nest >ev.dump
[ "$(count ev.dump '^[0-9]')" = "$(count nest.dump ' (tick|leave) ')" ] ||
    fail "--events=tick,leave"
[ "$(count ev.dump ' (enter|other) ')" = 0 ] || fail "--events: only those"
tid=$(ls threads | grep '^thread_' | sed 's/thread_//' | sort -n | tail -1)
"$NOOSA" dump --thread="$tid" threads >th.dump
[ "$(count th.dump ' tick n=')" = 50 ] || fail "--thread: 50 ticks"
[ "$(count th.dump "thread=$tid ")" = "$(count th.dump '^[0-9]')" ] ||
    fail "--thread: only that thread"
"$NOOSA" dump --from=soon nest >bad.dump 2>&1 && fail "--from=soon accepted"
has bad.dump 'noosa dump: --from wants a number of events or a time with its unit (ns, us, ms, s), got "soon"'
"$NOOSA" dump >none.dump 2>&1 && fail "dump without a recording"
has none.dump "noosa dump: no recording given"

# --events and --functions
record some --events=tick "$PT" nest 5
"$NOOSA" dump some >some.dump 2>&1
[ "$(count some.dump ' tick ')" = 10 ] || fail "--events=tick: 10 ticks"
[ "$(count some.dump ' (other|enter|leave|init) ')" = 0 ] ||
    fail "--events=tick: only ticks"
record fns --events=other --functions "$PT" nest 5
"$NOOSA" dump fns >fns.dump 2>&1
[ "$(count fns.dump ' other ')" = 10 ] || fail "--functions: 10 others"
[ "$(count fns.dump ' enter name=')" = 16 ] || fail "--functions: 16 enters"
[ "$(count fns.dump ' tick ')" = 0 ] || fail "--functions: no tick"

# lossless: a tiny ring makes the program wait, nothing is lost
record tiny --ring-size=4096 "$PT" nest 2000
"$NOOSA" dump tiny >tiny.dump 2>tiny.err
[ "$(count tiny.dump '^[0-9]+ .* (enter|leave|tick|other) ')" = 20002 ] ||
    fail "lossless: 20002 events of pt nest 2000, $(count tiny.dump '^[0-9]+ .* (enter|leave|tick|other) ') found"
grep -q lost tiny.dump tiny.err && fail "lossless: something lost"

# --overwrite: a ring of 4 KiB cannot keep 2 million events from a
# program that never waits: the losses are in the recording and said
record ow --overwrite --ring-size=4096 "$PT" nest 200000
"$NOOSA" dump ow >ow.dump 2>ow.err
grep -q "^# [1-9][0-9]* events lost in all$" ow.dump || fail "overwrite: no losses said"
grep -q "noosa: ow: the recording says [1-9][0-9]* events were lost" ow.err ||
    fail "overwrite: the note ($(cat ow.err))"
has ow.dump "# the program exited with status 0"
if command -v babeltrace2 >/dev/null 2>&1; then
    babeltrace2 ow 2>&1 >/dev/null | grep -q "discarded [1-9][0-9]* events" ||
        fail "overwrite: babeltrace2 does not say the discarded events"
fi

# bytes an enter or leave event takes on disk: only enter and leave
# recorded (no other event chosen), packet headers and all
record el --events=nothing --functions "$PT" nest 5000
"$NOOSA" dump el >el.dump 2>&1
n=$(count el.dump ' (enter|leave) name=')
[ "$n" = 30002 ] || fail "enter/leave only: 30002 events, $n found"
bytes=$(cat el/thread_* | wc -c)
[ $((bytes)) -le $((16 * n)) ] ||
    fail "enter/leave: $bytes bytes for $n events, more than 16 each"
echo "enter/leave: $bytes bytes for $n events"

# -finstrument-functions: functions by name
record q "$QUEENS" 5
"$NOOSA" dump q >q.dump 2>&1
has q.dump "function-enter function=main"
has q.dump "function-enter function=place"
[ "$(count q.dump 'function-enter')" = "$(count q.dump 'function-leave')" ] ||
    fail "queens: enters and leaves"

# a recording is never overwritten
record nest "$PT" nest 1
[ "$(cat nest.rec-rc)" = 1 ] || fail "record into a recording: status 1"
has nest.rec-err "nest: holds a recording already"

# a backlog at the end: noosa is stopped while the program writes 200000
# enter/leave records into a big ring and exits; continued, noosa must
# take every one of them (the channel hands them over in bounded runs).
backlog backlog "" record --ring-size=16777216 -o backlog
[ "$(cat backlog.rc)" = 0 ] || fail "backlog: noosa failed: $(cat backlog.out)"
"$NOOSA" dump backlog >backlog.dump 2>&1
[ "$(count backlog.dump 'enter name="b"')" = 100000 ] &&
    [ "$(count backlog.dump 'leave name="b"')" = 100000 ] ||
    fail "backlog: $(count backlog.dump 'enter name="b"') enters and $(count backlog.dump 'leave name="b"') leaves of 100000 recorded"
# the same in a live session: the frequency profile (the direct path)
# counts every call (a ring that holds them all: with a smaller one the
# program waits for noosa, and the helper waits its whole minute)
backlog livelog "" --batch -n --ring-size=16777216 -e 'errors last 0' \
    -e 'profile freq on' -e run -e 'profile freq show'
[ "$(cat livelog.rc)" = 0 ] || fail "livelog: noosa failed: $(cat livelog.out)"
grep -qE '^ +100000 b$' livelog.out ||
    fail "livelog: the profile does not count 100000 calls of b: $(grep ' b$' livelog.out)"

# no program
"$NOOSA" record -o x >none.out 2>&1 && fail "record without a program"
has none.out "noosa record: no program given"

finish
