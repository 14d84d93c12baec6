#!/bin/sh
# SPDX-License-Identifier: MIT
# replay.sh - a recording played in batch mode (noosa --replay DIR and
# noosa DIR) with the commands of a live run: the trace, handlers over the
# recorded events in order, breakpoints and step stopping at recorded
# events, step back and goto (by noosa dump's event numbers, from 1), the
# profiles computed from the file (the names of -finstrument-functions
# builds from the recording); the transcript speaks of the play, not of a
# live program (a pause, the end of the recording, the end of the play);
# what needs the live program says it is not available; bad uses.

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
has trace.out "End of the recording: the program exited with status 0."
[ "$(cat trace.rc)" = 0 ] || fail "trace: status $(cat trace.rc)"
# the order of the trace is the recording's
grep -E '^(enter|leave|tick|other) [a-z]+=' trace.out | sed 's/"//g' >trace.seq
"$NOOSA" dump nest | grep -E ' (enter|leave|tick|other) ' |
    sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //; s/"//g' >dump.seq
diff -u dump.seq trace.seq >/dev/null || fail "trace: the recording's order"

# breakpoints, step, step back, goto (by noosa dump's numbers, worded as
# a step's stops), goto past the end (refused, the play where it was);
# noosa DIR; the numbers are those of noosa dump, the events alone from 1
cat >moves.tcl <<'TCL'
break other
run
continue
step
step back
goto 3
goto 18
goto 1000
kill
TCL
replay moves -x moves.tcl nest
cat >moves.want <<'OUT'
Breakpoint 1 on event other
Stopped at breakpoint 1 for event "other" (event 7): n=0
Stopped at breakpoint 1 for event "other" (event 11): n=0
Stopped at event "tick" (event 14): n=1
Stopped at event "enter" (event 13): name="a"
Stopped at event "enter" (event 3): name="a"
Stopped at event "leave" (event 18): name="b"
error: moves.tcl:8: goto: the recording has 35 events (numbered 1 to 35, as noosa dump numbers them): no event 1000
The play of the recording ended at event 18.
OUT
grep -v '^Recording ' moves.out >moves.got
diff -u moves.want moves.got || fail "moves"
# the numbers are noosa dump's
"$NOOSA" dump nest >nest.dump
for n in 3:enter:a 7:other 13:enter:a 18:leave:b 35:finit; do
    num=${n%%:*}
    rest=$(echo "${n#*:}" | tr : ' ')
    ev=${rest%% *}
    grep -qE "^$num [0-9]+ thread=[0-9]+ $ev( |\$)" nest.dump ||
        fail "noosa dump does not number $ev $num: $(grep -E "^$num " nest.dump)"
done
[ "$(grep -cE '^[0-9]+ ' nest.dump)" = 35 ] || fail "noosa dump: 35 numbered events"
grep -qE '^1 [0-9]+ thread=[0-9]+ init ' nest.dump || fail "noosa dump: the first event is 1"
# (--from and --to take the same numbers, with the index goto made)
[ -f nest/.noosa_index ] || fail "no index beside the recording"
"$NOOSA" dump --from=3 --to=7 nest | grep -v '^#' >part.dump
grep -E '^[3-7] ' nest.dump | diff -u - part.dump >/dev/null ||
    fail "noosa dump --from=3 --to=7: $(cat part.dump)"

# the same moves with the time profile on, which takes enter and leave
# in batches: goto still stops at the event it names
cat >pmoves.tcl <<'TCL'
profile time on
profile print off
break other
run
goto 3
goto 18
step back
kill
TCL
replay pmoves -x pmoves.tcl nest
cat >pmoves.want <<'OUT'
Breakpoint 1 on event other
Stopped at breakpoint 1 for event "other" (event 7): n=0
Stopped at event "enter" (event 3): name="a"
Stopped at event "leave" (event 18): name="b"
Stopped at breakpoint 1 for event "other" (event 17): n=1
The play of the recording ended at event 17.
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
[ "$(count brk.out 'Stopped at breakpoint 1 for event "enter" \(event (5|15|25)\): name="b"')" = 3 ] ||
    fail "break enter with the profile on: 3 stops"
has brk.out "End of the recording: the program exited with status 0."

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
has nogo.out "error: goto: not a recording: only a recording goes back or to an event"
has nogo.out "error: step back: only a recording goes back (noosa --replay)"
replay missing --replay nowhere
[ "$(cat missing.rc)" = 1 ] || fail "missing: status 1"
has missing.out "noosa: nowhere: No such file or directory"
replay extra --replay nest "$PT"
has extra.out "noosa: a recording is played alone: no program, no arguments"
replay badgoto -e 'goto x' -e 'goto 0' -e continue nest
has badgoto.out 'error: goto: expected an event number or @TIME, got "x"'
has badgoto.out 'error: goto: events are numbered from 1 (as noosa dump numbers them)'
has badgoto.out 'error: continue: the recording is not being played (run plays it)'
# stop during the play (from a handler): a pause, the play goes on after
replay pause -e 'handler add tick h {if {$n == 1 && ![info exists ::paused]} {set ::paused 1; stop}}' -e run \
    -e 'info program' -e continue nest
has pause.out "The play is paused after event "
has pause.out "State: stopped at a pause after event "
has pause.out "End of the recording: the program exited with status 0."
if grep -q -e 'Program interrupted' -e 'Program killed' -e 'still live' pause.out moves.out; then
    fail "the play speaks of a live program: $(grep -e 'Program interrupted' -e 'Program killed' -e 'still live' pause.out moves.out)"
fi

finish
