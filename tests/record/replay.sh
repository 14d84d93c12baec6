#!/bin/sh
# SPDX-License-Identifier: MIT
# replay.sh - a recording played in batch mode (noosa --replay DIR and
# noosa DIR) with the commands of a live run: the trace, handlers over the
# recorded events in order, breakpoints and step stopping at recorded
# events, step back and goto, the profiles computed from the file (the
# names of -finstrument-functions builds from the recording); what needs
# the live program says it is not available; bad uses.

. "${srcdir:-.}/tests/record/lib.sh"

record nest "$PT" nest 3

# replay NAME ARG...: noosa --batch -n ARG... into NAME.out (stderr too)
replay() {
    name=$1
    shift
    timeout 60 "$NOOSA" --batch -n "$@" </dev/null >"$name.out" 2>&1
    echo $? >"$name.rc"
}

# the trace and a handler see every event in order
cat >trace.tcl <<'TCL'
trace on
handler add tick count {incr ::ticks; n_say "tick $n ($::ticks)\n"}
set ::ticks 0
run
TCL
replay trace -x trace.tcl --replay nest
has trace.out "Recording nest of $PT nest 3 (format 1.0.0): \`run' plays it."
[ "$(count trace.out '^tick n=')" = 6 ] || fail "trace: 6 ticks"
[ "$(count trace.out '^enter name=')" = 10 ] || fail "trace: 10 enters"
has trace.out "tick 2 (6)"
has trace.out "Program exited with status 0."
[ "$(cat trace.rc)" = 0 ] || fail "trace: status $(cat trace.rc)"
# the order of the trace is the recording's
grep -E '^(enter|leave|tick|other) [a-z]+=' trace.out | sed 's/"//g' >trace.seq
"$NOOSA" dump nest | grep -E ' (enter|leave|tick|other) ' |
    sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //; s/"//g' >dump.seq
diff -u dump.seq trace.seq >/dev/null || fail "trace: the recording's order"

# breakpoints, step, step back, goto; noosa DIR
cat >moves.tcl <<'TCL'
break other
run
continue
step
step back
goto 5
goto 20
kill
TCL
replay moves -x moves.tcl nest
cat >moves.want <<'OUT'
Breakpoint 1 on event other
Stopped at breakpoint 1 for event "other" (event 9): n=0
Stopped at breakpoint 1 for event "other" (event 13): n=0
Stopped at event "tick" (event 16): n=1
Stopped at enter (event 15): name="a"
Stopped at enter (event 5): name="a"
Stopped at leave (event 20): name="b"
Program killed by SIGKILL.
OUT
grep -v '^Recording ' moves.out >moves.got
diff -u moves.want moves.got || fail "moves"

# the same moves with the time profile on, which takes enter and leave
# in batches: goto still stops at the event it names
cat >pmoves.tcl <<'TCL'
profile time on
profile print off
break other
run
goto 5
goto 20
step back
kill
TCL
replay pmoves -x pmoves.tcl nest
cat >pmoves.want <<'OUT'
Breakpoint 1 on event other
Stopped at breakpoint 1 for event "other" (event 9): n=0
Stopped at enter (event 5): name="a"
Stopped at leave (event 20): name="b"
Stopped at breakpoint 1 for event "other" (event 19): n=1
Program killed by SIGKILL.
OUT
grep -v -e '^Recording ' -e '^warning: ' pmoves.out >pmoves.got
diff -u pmoves.want pmoves.got || fail "moves with the time profile on"

# a breakpoint on enter with the time profile on (the profile alone takes
# enter and leave in batches; with the breakpoint, as events)
cat >brk.tcl <<'TCL'
profile time on
profile print off
break enter if {$name eq "b"}
run
continue
continue
continue
TCL
replay brk -x brk.tcl nest
[ "$(count brk.out 'Stopped at breakpoint 1 for event "enter" \(event (7|17|27)\): name="b"')" = 3 ] ||
    fail "break enter with the profile on: 3 stops"
has brk.out "Program exited with status 0."

# what needs the live program
cat >live.tcl <<'TCL'
break tick
run
send tick_count
TCL
replay live -x live.tcl nest
has live.out "send: not available in a recording: the program is not live"
# (questions are counted by the program: said at once, not "no answer")
replay quest -e 'question add q tick' -e run nest
has quest.out "question add: not available in a recording: questions are counted by the live program"

# profiles from the file
cat >prof.tcl <<'TCL'
profile time on
profile freq on
run
TCL
replay prof -x prof.tcl nest
has prof.out "3  a"
grep -qE '^ +3 main/a/b$' prof.out || fail "frequency profile: main/a/b"
record q "$QUEENS" 4
replay qprof -e 'profile time on' -e run q
grep -qE ' 17  place$' qprof.out || fail "queens: 17 calls of place"

# bad uses
replay nogo -e 'goto 3' -e 'step back' "$PT" states 1
has nogo.out "error: not a recording: only a recording goes back or to an event"
has nogo.out "error: step back: only a recording goes back (noosa --replay)"
replay missing --replay nowhere
[ "$(cat missing.rc)" = 1 ] || fail "missing: status 1"
has missing.out "noosa: nowhere: No such file or directory"
replay extra --replay nest "$PT"
has extra.out "noosa: a recording is played alone: no program, no arguments"
replay badgoto -e 'goto x' nest
has badgoto.out 'error: goto: expected an event number or @TIME, got "x"'

finish
