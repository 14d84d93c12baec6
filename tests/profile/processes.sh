#!/bin/sh
# SPDX-License-Identifier: MIT
# processes.sh - profiles of a run of several processes (follow-fork
# both, the default): the time profile of each process (-pid) and of all
# merged, the frequency profile of all; n(processes); the timeline's
# Chrome export and the live exports (Chrome JSON, Perfetto when protoc is
# there) with a track for each process, its threads under it; a CTF
# recording with every process's events, each thread's apart.

. "${srcdir:-.}/tests/profile/lib.sh"
CHECK=$TESTS_SRC/check.tcl

# pt procs 3 40: three processes forked, each worker{step{tick}} x 40
cat >procs.tcl <<'TCL'
profile time on
profile time in noosa
profile freq on
profile freq in noosa
profile print off
run
set kids [lrange $n(processes) 1 end]
check {[llength $kids] == 3} "three children: $n(processes)"
set all [rows_by_name -flat]
check {[field $all step calls] == 120} "step is called 120 times in all"
check {[field $all worker calls] == 3} "worker is called 3 times in all"
foreach p $kids {
    set one [rows_by_name -flat -pid $p]
    check {[field $one step calls] == 40} "step is called 40 times in $p"
    check {[field $one worker calls] == 1} "worker is called once in $p"
}
check {[llength [profile threads]] == 3} "three threads"
check {[catch {profile get time -pid [lindex $n(processes) 0]} e] &&
       [string match "no thread of process * in the time profile" $e]} \
    "the parent has no thread in the time profile: $e"
check {[catch {profile get freq -pid [lindex $kids 0]} e] &&
       [string match "*counts all threads together*" $e]} \
    "the frequency profile is of every process: $e"
check {[catch {profile get time -pid x} e] &&
       $e eq "profile: bad process \"x\": should be a process id"} \
    "a bad -pid: $e"
profile show time -pid [lindex $kids 0]
profile show freq
profile export chrome timeline.json
puts "done"
TCL
batch procs -x "$CHECK" -x procs.tcl "$PT" procs 3 40
if grep -q '^FAIL' "$WORK/procs.out" || ! grep -q '^done$' "$WORK/procs.out"; then
    fail "procs: $(grep '^FAIL' "$WORK/procs.out")"
    cat "$WORK/procs.out" "$WORK/procs.err"
fi
contains procs "Time profile of process "
contains procs "     120 worker/step"
# the timeline: each child a process of its own, named, its thread in it
# (and the program, named first)
pids=$(grep -o '"pid":[0-9]*' timeline.json | sort -u | wc -l)
[ "$pids" = 4 ] || fail "timeline: $pids processes, expected 4"
[ "$(grep -c '"name":"process_name"' timeline.json)" = 4 ] ||
    fail "timeline: every process named"

# live exports: the parent's events and each child's on their own track
batch chrome -e 'record start -chrome t.json' -e run -e 'record stop' \
    "$PT" procs 2 3
[ "$(grep -o '"pid":[0-9]*' t.json | sort -u | wc -l)" = 3 ] ||
    fail "chrome: three processes"
for p in $(grep -o '"pid":[0-9]*' t.json | sort -u | cut -d: -f2); do
    # (a thread of a process is never another's)
    grep -o "\"pid\":$p,\"tid\":[0-9]*" t.json | sort -u | grep -q . ||
        fail "chrome: process $p has no thread"
done
[ "$(grep -c '"ph":"B"' t.json)" = 8 ] || fail "chrome: 8 slice begins"

# a recording: every process's events, each child's on its own thread
# (its init says its pid there), in its order
batch rec -e 'record start rec' -e run -e 'record stop' "$PT" procs 2 3
"$NOOSA" dump rec >rec.txt 2>rec.err || fail "dump: $(cat rec.err)"
kids=$(sed -n 's/^[0-9]* [0-9]* thread=\([0-9]*\) init pid=\1$/\1/p' rec.txt |
    sort -u)
[ "$(echo "$kids" | grep -c .)" = 3 ] ||
    fail "rec: an init on its own thread for each of the 3 processes"
ticks=0
for t in $kids; do
    got=$(sed -n "s/^[0-9]* [0-9]* thread=$t tick n=\([0-9]*\)$/\1/p" rec.txt |
        tr '\n' ' ')
    case $got in
    '') ;;
    '0 1 2 ') ticks=$((ticks + 1)) ;;
    *) fail "rec: thread $t ticks $got" ;;
    esac
done
[ "$ticks" = 2 ] || fail "rec: $ticks children with their 3 ticks, expected 2"
if command -v protoc >/dev/null 2>&1; then
    batch pb -e 'record start -perfetto t.pb' -e run -e 'record stop' \
        "$PT" procs 2 3
    protoc --proto_path="$abs_top_srcdir/tests/record" --decode=Trace \
        perfetto.proto <t.pb >t.txt 2>t.err || fail "protoc: $(cat t.err)"
    [ "$(grep -c 'process {' t.txt)" = 3 ] ||
        fail "perfetto: a process track for each of the three"
    [ "$(grep -o 'pid: [0-9]*' t.txt | sort -u | wc -l)" = 3 ] ||
        fail "perfetto: three processes"
    [ "$(grep -c 'type: TYPE_SLICE_BEGIN' t.txt)" = 8 ] ||
        fail "perfetto: 8 slices"
fi
finish
