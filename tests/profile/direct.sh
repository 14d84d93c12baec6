#!/bin/sh
# SPDX-License-Identifier: MIT
# direct.sh - the profiles of an auto-instrumented program are the same
# whichever way its function records go: straight from the ring to the
# component stacks (the direct path, taken when only the stacks want
# enter and leave), as enter/leave events (a handler on enter wants them
# too), or the one way and then the other within a run (a handler that
# disables itself part way).  Compared: the calls of every calling
# context in the time profile's tree, the frequency profile's calls, and
# the folded and Chrome exports (times left out); with the post-mortem
# trail and the timeline on (noosa's defaults) and off.  The same for a
# program with components named in enter/leave events (pt), one thread
# and several, and with leaves that do not match (the warnings too).

. "${srcdir:-.}/tests/profile/lib.sh"
SAINT=$abs_top_builddir/tests/profile/calc-saint
QUEENS=$abs_top_builddir/tests/profile/queens

# profile_of NAME PRELUDE PROGRAM ARGS...: the profiles in NAME.prof
profile_of() {
    name=$1
    prelude=$2
    shift 2
    cat >"$name.tcl" <<TCL
$prelude
profile time on
profile time in noosa
profile freq on
profile freq in noosa
profile print off
run
set f [open $name.prof w]
foreach row [profile get time -tree -sort name] {
    puts \$f "time [dict get \$row depth] [dict get \$row name] [dict get \$row calls]"
}
foreach row [profile get freq -flat -calls] {
    puts \$f "freq [dict get \$row stack] [dict get \$row count]"
}
close \$f
profile export folded $name.folded -calls
profile export chrome $name.json
TCL
    batch "$name" -x "$name.tcl" "$@"
    [ "$(cat "$name.rc")" = 0 ] || fail "$name: exit status $(cat "$name.rc")"
    [ -s "$name.prof" ] || fail "$name: no profile"
    # the timeline without its times and pids
    sed 's/"ts":[0-9.]*/"ts":T/; s/"pid":[0-9]*/"pid":P/; s/"tid":[0-9]*/"tid":T/; s/thread [0-9]*/thread T/' \
        "$name.json" >"$name.marks"
}

# same A B [WHAT...]: the profiles of runs A and B agree (WHAT: prof,
# folded, marks, out; all but out by default)
same() {
    a=$1
    b=$2
    shift 2
    [ $# -gt 0 ] || set -- prof folded marks
    # (the exports say the file names, which differ)
    normalise <"$a.out" | grep -v '^Wrote ' >"$a.outn"
    normalise <"$b.out" | grep -v '^Wrote ' >"$b.outn"
    for x in "$@"; do
        [ "$x" = out ] && x=outn
        if ! cmp -s "$a.$x" "$b.$x"; then
            fail "$a and $b: their $x differ"
            diff -u "$a.$x" "$b.$x" | head -10
        fi
    done
}

lean='errors last 0'
slow='handler add enter h {}'
switch='handler add enter h {
    incr ::seen
    if {$::seen == 300} { handler disable enter h }
}
set ::seen 0'

for defaults in 1 0; do
    if [ $defaults = 1 ]; then pre=''; else pre=$lean; fi
    profile_of "calc-direct-$defaults" "$pre" "$SAINT" "$EXAMPLES/demo.calc"
    profile_of "calc-slow-$defaults" "$pre
$slow" "$SAINT" "$EXAMPLES/demo.calc"
    profile_of "calc-switch-$defaults" "$pre
$switch" "$SAINT" "$EXAMPLES/demo.calc"
    same "calc-direct-$defaults" "calc-slow-$defaults"
    same "calc-direct-$defaults" "calc-switch-$defaults"
done
grep -q '^freq main 1$' calc-direct-1.prof || fail "calc: main is not called once"
[ "$(grep -c '^time ' calc-direct-1.prof)" -gt 100 ] ||
    fail "calc: only $(grep -c '^time ' calc-direct-1.prof) calling contexts"
grep -q '"ph":"E"' calc-direct-1.marks || fail "calc: no leaves in the timeline"

# components named in enter/leave events
profile_of pt-nest-direct "$lean" "$PT" nest 300
profile_of pt-nest-slow "$lean
$slow" "$PT" nest 300
same pt-nest-direct pt-nest-slow
grep -q '^time 1 a 300$' pt-nest-direct.prof || fail "pt nest: a is not called 300 times"
profile_of pt-recurse-direct "" "$PT" recurse 40
profile_of pt-recurse-slow "$slow" "$PT" recurse 40
same pt-recurse-direct pt-recurse-slow
# threads interleave differently from run to run: no timeline compared
profile_of pt-threads-direct "$lean" "$PT" threads 3 500
profile_of pt-threads-slow "$lean
$slow" "$PT" threads 3 500
same pt-threads-direct pt-threads-slow prof folded
grep -q '^time 0 worker 3$' pt-threads-direct.prof ||
    fail "pt threads: not three workers"
profile_of pt-mismatch-direct "" "$PT" mismatch
profile_of pt-mismatch-slow "$slow" "$PT" mismatch
same pt-mismatch-direct pt-mismatch-slow prof folded marks out
grep -q 'does not match the innermost enter' pt-mismatch-direct.out ||
    fail "pt mismatch: no warning"

profile_of queens-direct "" "$QUEENS" 6
profile_of queens-slow "$slow" "$QUEENS" 6
same queens-direct queens-slow
grep -q '^freq place 153$' queens-direct.prof ||
    fail "queens: place is not called 153 times"

finish
