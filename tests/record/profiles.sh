#!/bin/sh
# SPDX-License-Identifier: MIT
# profiles.sh - the profiles of a recording played are those of the live
# run it was recorded from (record start), times included: the time
# profile's tree (all threads and each), the frequency profile's counts
# and calls, the folded stacks and the Chrome timeline (each thread's),
# and the warnings of leaves that do not match.  Programs: fthreads (-finstrument-functions,
# five threads at once), pt threads (enter/leave by name and int events,
# three threads), pt mismatch, queens.  Played five ways: the function
# records to the profiles in batches (the time profile on: the direct
# path) and the events the frequency profile alone counts in batches too,
# function records as events (a handler on enter wants them too), the
# one way then the other (a handler that disables itself part way), and
# the same for the event tick (pt's).

. "${srcdir:-.}/tests/record/lib.sh"
FTHREADS=$abs_top_builddir/tests/profile/fthreads

# the profiles, into $OUT (a Tcl script sourced after the run)
cat >save.tcl <<'TCL'
set f [open $::out w]
foreach row [profile get time -tree -sort name] { puts $f "time $row" }
foreach row [profile get time -flat -sort name] { puts $f "flat $row" }
foreach t [lsort -integer [profile threads]] {
    foreach row [profile get time -tree -sort name -thread $t] {
        puts $f "thread $t $row"
    }
}
foreach row [profile get freq -tree] { puts $f "freq $row" }
foreach row [profile get freq -flat -calls] { puts $f "calls $row" }
close $f
profile export folded $::out.folded -time
profile export chrome $::out.json
TCL

# live NAME PROGRAM ARGS...: a live run recorded into NAME, its profiles
# in NAME.live*
live() {
    name=$1
    shift
    timeout 120 "$NOOSA" --batch -n -e "set ::out $name.live" \
        -e "record start $name" -e 'profile time on' -e 'profile time in noosa' -e 'profile freq on' -e 'profile freq in noosa' \
        -e 'profile print off' -e run -e 'record stop' -x save.tcl "$@" \
        </dev/null >"$name.live.out" 2>&1 ||
        fail "$name: live run: $(tail -3 "$name.live.out")"
}

# play NAME WAY PRELUDE: the recording NAME played with PRELUDE, its
# profiles in NAME.WAY*
play() {
    name=$1
    way=$2
    timeout 120 "$NOOSA" --batch -n -e "set ::out $name.$way" -e "$3" \
        -e 'profile time on' -e 'profile time in noosa' -e 'profile freq on' -e 'profile freq in noosa' -e 'profile print off' \
        -e run -x save.tcl --replay "$name" </dev/null >"$name.$way.out" 2>&1 ||
        fail "$name: played $way: $(tail -3 "$name.$way.out")"
}

# bythread FILE: the marks of the Chrome timeline FILE thread by thread,
# each thread's in order (a live run takes the threads' records in the
# ring's order, a recording is played in time order: the same for each
# thread, not quite between threads)
bythread() {
    awk '{ t = $0; sub(/.*"tid":/, "", t); sub(/[^0-9].*/, "", t);
           printf "%012d %09d %s\n", t, NR, $0 }' "$1" | sort | cut -d' ' -f3- \
        >"$1.t"
}

# same NAME WAY: the profiles played WAY are the live ones
same() {
    bythread "$1.live.json"
    bythread "$1.$2.json"
    for x in "" .folded .json.t; do
        [ -s "$1.live$x" ] || fail "$1: no live profile$x"
        cmp -s "$1.live$x" "$1.$2$x" ||
            fail "$1 played $2: its profile$x is not the live one's: $(diff "$1.live$x" "$1.$2$x" | head -5)"
    done
    grep '^warning' "$1.live.out" >"$1.live.warn"
    grep '^warning' "$1.$2.out" >"$1.$2.warn"
    cmp -s "$1.live.warn" "$1.$2.warn" ||
        fail "$1 played $2: its warnings are not the live ones: $(diff "$1.live.warn" "$1.$2.warn" | head -5)"
}

slow='handler add enter h {}'
switch='handler add enter h {
    incr ::seen
    if {$::seen == 300} { handler disable enter h }
}
set ::seen 0'
ticks='handler add tick h {}'
tickswitch='handler add tick h {
    incr ::seen
    if {$::seen == 100} { handler disable tick h }
}
set ::seen 0'

live ft "$FTHREADS" 4
live ptt "$PT" threads 3 400
live ptm "$PT" mismatch
live q "$QUEENS" 5
for name in ft ptt ptm q; do
    play $name batches ''
    same $name batches
    play $name events "$slow"
    same $name events
    play $name switch "$switch"
    same $name switch
done
# (pt's: those of tick)
for name in ptt ptm; do
    play $name ticks "$ticks"
    same $name ticks
    play $name tickswitch "$tickswitch"
    same $name tickswitch
done
# what was compared
[ "$(grep -c '^thread ' ft.live)" -gt 20 ] || fail "ft: the threads' trees"
[ "$(grep -c '^thread ' ptt.live)" = 6 ] || fail "ptt: the threads' trees"
grep -q 'name step .*calls 400 ' ptt.live || fail "ptt: 400 calls of step a thread"
grep -q '^freq event tick stack worker/step count 1200$' ptt.live ||
    fail "ptt: ticks counted"
[ "$(wc -l <ptm.live.warn)" = 3 ] || fail "ptm: warnings"
grep -q 'name place ' q.live || fail "q: place"

finish
