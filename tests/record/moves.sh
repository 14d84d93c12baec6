#!/bin/sh
# SPDX-License-Identifier: MIT
# moves.sh - moves in a recording keep every consumer's state as a play
# from the start makes it (<design#checkpoints>): after goto forwards and
# backwards, step back, reverse-step, reverse-continue, step N, with
# checkpoints every so many events (and with only the first), the time
# and frequency profiles, a handler's variable, a handler -within a
# component (noosa's stacks), a breakpoint's hits and its hit counting
# are those of a play stopped at the same event by a breakpoint, with
# no "does not match" warning; a move back plays from the nearest
# checkpoint, not from the start; a variable set at the prompt is the
# user's; a profile turned on during the play; reverse-continue finds
# the last stop as a straight play would (hit counting included), and
# says when there is none; step N and continue N, in a live run too;
# goto @TIME; bad uses.

. "${srcdir:-.}/tests/record/lib.sh"

# 3000 x main{a{tick b{tick other}} c{other}}: 33000 events, three
# stretches of the index
record nest "$PT" nest 3000
[ "$(cat nest.rec-rc)" = 0 ] || fail "record: status $(cat nest.rec-rc)"
"$NOOSA" dump nest >nest.dump

# What a play holds, and the consumers that hold it.
cat >setup.tcl <<'TCL'
profile time on
profile freq on
profile print off
set ::ticks 0
set ::inb 0
handler add tick count {incr ::ticks}
handler add other inb {incr ::inb} -within b
break other every 3
proc state {} {
    puts "== at $::n(event)"
    puts "ticks=$::ticks inb=$::inb"
    profile show time
    profile show freq
    info breakpoints
    puts "== end"
}
TCL

# replay NAME ARG...: noosa --batch -n ARG... into NAME.out
replay() {
    name=$1
    shift
    timeout 120 "$NOOSA" --batch -n "$@" </dev/null >"$name.out" 2>&1
    echo $? >"$name.rc"
}

# block FILE N: the state printed at event N in FILE (the first), the
# breakpoints after the first left out
block() {
    awk -v n="$2" '$0 == "== at " n { on = 1 }
        on && $0 ~ /^2 +y / { skip = 1 }
        on && $0 == "== end" { print; exit }
        on && !skip { print }' "$1" >"$1.$2"
    [ -s "$1.$2" ] || fail "$1: no state at event $2"
}

# reference N [REC SETUP]: a play of REC (nest) from the start stopped at
# event N by a breakpoint on its time and thread (continuing past the
# other stops), with SETUP (setup.tcl): the state there in refN.out.N
reference() {
    n=$1
    rec=${2:-nest}
    setup=${3:-setup.tcl}
    set -- $(awk -v n="$n" '$1 == n { print $2, $3, $4; exit }' "$rec.dump")
    cat >ref.tcl <<TCL
break $3 if {\$n_time == $1 && \$n_thread == ${2#thread=}}
run
while {\$::n(event) != $n} { ::noosa::cmd::continue }
state
TCL
    replay "ref$n" -x "$setup" -x ref.tcl "$rec"
    block "ref$n.out" "$n"
}

# the moves, checkpoints every 2000 events
cat >moves.tcl <<'TCL'
replay checkpoints 64M 2000
goto 25003
state
goto 20003
state
step back
state
goto 5001
state
goto 29000
state
reverse-step
state
step 5
state
goto 12
state
TCL
replay moves -x setup.tcl -x moves.tcl nest
grep -q "warning" moves.out && fail "moves: $(grep warning moves.out | head -3)"
# (reverse-step from 29000 and step 5 from there: the visible events)
rs=$(awk '$1 < 29000 && ($4 == "tick" || $4 == "other") { n = $1 } END { print n }' nest.dump)
s5=$(awk -v f="$rs" '$1 > f && ($4 == "tick" || $4 == "other") && ++k == 5 { print $1; exit }' nest.dump)
grep -q "Stopped at .*(event $rs)" moves.out || fail "reverse-step: $(grep Stopped moves.out)"
grep -q "Stopped at .*(event $s5)" moves.out || fail "step 5: $(grep Stopped moves.out)"
for n in 25003 20003 20002 5001 29000 "$rs" "$s5" 12; do
    reference "$n"
    block moves.out "$n"
    diff -u "ref$n.out.$n" "moves.out.$n" >/dev/null ||
        fail "moves: the state at event $n is not a play's: $(diff "ref$n.out.$n" "moves.out.$n" | head -20)"
done

# with only the first checkpoint (every move back plays from the start)
sed 's/^replay checkpoints .*/replay checkpoints 0/' moves.tcl >moves0.tcl
replay moves0 -x setup.tcl -x moves0.tcl nest
for n in 25003 20003 5001 "$rs"; do
    block moves0.out "$n"
    diff -u "moves.out.$n" "moves0.out.$n" >/dev/null ||
        fail "moves with the first checkpoint only differ at $n"
done

# a move back starts from the nearest checkpoint, not the start: a
# handler writing to a file (what a checkpoint cannot undo) is run again
# only for the ticks from the checkpoint before the move's event; and
# with only the first checkpoint, for every tick before it
for every in 2000 0; do
    [ "$every" = 0 ] && budget=0 || budget="64M $every"
    cat >near.tcl <<TCL
replay checkpoints $budget
set ::f [open near$every.log w]
handler add tick log {puts \$::f \$::n(event)}
goto 29000
puts \$::f moved
step back
close \$::f
TCL
    replay "near$every" -x near.tcl nest
    awk '$0 == "moved" { on = 1; next } on { n++ } END { print n + 0 }' \
        "near$every.log" >"near$every.n"
done
[ "$(cat near2000.n)" -gt 0 ] && [ "$(cat near2000.n)" -le 400 ] ||
    fail "step back with checkpoints every 2000 events ran the handler again $(cat near2000.n) times"
[ "$(cat near0.n)" -gt 5000 ] ||
    fail "step back with the first checkpoint only ran the handler again $(cat near0.n) times"

# several threads: each its own stack and time, the index's stretches
# over several streams
record thr "$PT" threads 3 3000
"$NOOSA" dump thr >thr.dump
cat >tsetup.tcl <<'TCL'
profile time on
profile freq on
profile print off
set ::ticks 0
handler add tick count {incr ::ticks}
proc state {} {
    puts "== at $::n(event)"
    puts "ticks=$::ticks"
    profile show time
    profile show freq
    puts "== end"
}
TCL
ticks=$(awk '$4 == "tick" { print $1 }' thr.dump)
a=$(echo "$ticks" | sed -n '7000p')
b=$(echo "$ticks" | sed -n '2000p')
c=$(echo "$ticks" | sed -n '8500p')
cat >tmoves.tcl <<TCL
replay checkpoints 64M 3000
goto $a
state
goto $b
state
goto $c
state
reverse-step
state
TCL
replay tmoves -x tsetup.tcl -x tmoves.tcl thr
grep -q "warning" tmoves.out && fail "threads: $(grep warning tmoves.out | head -3)"
rs=$(awk -v c="$c" '$1 < c && $4 == "tick" { n = $1 } END { print n }' thr.dump)
for n in "$a" "$b" "$c" "$rs"; do
    reference "$n" thr tsetup.tcl
    block tmoves.out "$n"
    diff -u "ref$n.out.$n" "tmoves.out.$n" >/dev/null ||
        fail "threads: the state at event $n is not a play's: $(diff "ref$n.out.$n" "tmoves.out.$n" | head -20)"
done

# reverse-continue: the last stop of breakpoint 1 (every 3rd other) before
# event 20003, as a straight play has it; then before the first: none
awk '$4 == "other" { k++; if (k % 3 == 0) print $1 }' nest.dump >stops
prev=$(awk '$1 < 20003' stops | tail -1)
first=$(head -1 stops)
cat >rc.tcl <<TCL
goto 20003
reverse-continue
state
goto $first
reverse-continue
TCL
replay rc -x setup.tcl -x rc.tcl nest
has rc.out "Stopped at breakpoint 1 for event \"other\" (event $prev)"
reference "$prev"
block rc.out "$prev"
diff -u "ref$prev.out.$prev" "rc.out.$prev" >/dev/null ||
    fail "reverse-continue: the state at $prev is not a play's"
has rc.out "No stop before event $first: back at the first event."
# (the first event is 1, noosa dump's first <design#event-numbers>)
grep -q '^1 [0-9]* thread=[0-9]* init ' nest.dump || fail "dump: init is not event 1: $(grep -v '^#' nest.dump | head -1)"
grep -q 'Stopped at event "init" (event 1)' rc.out || fail "rc to the start: $(tail -3 rc.out)"

# a variable set at the prompt while stopped is the user's; the handler's
# follows the moves
cat >user.tcl <<'TCL'
goto 20003
set ::limit 5
set ::ticks 12345
goto 5001
puts "limit=$::limit ticks=$::ticks"
TCL
replay user -x setup.tcl -x user.tcl nest
has user.out "limit=5 ticks=12345"
cat >user2.tcl <<'TCL'
goto 20003
set ::limit 5
goto 5001
puts "limit=$::limit ticks=$::ticks"
TCL
replay user2 -x setup.tcl -x user2.tcl nest
ticks=$(awk '$1 <= 5001 && $4 == "tick" { k++ } END { print k }' nest.dump)
has user2.out "limit=5 ticks=$ticks"

# a profile turned on during the play: going back before that point empties
# it, and it counts what is played from there
# (to a leave, which the profile counts no call of)
leave=$(awk '$1 >= 10000 && $4 == "leave" { print $1; exit }' nest.dump)
cat >late.tcl <<TCL
profile print off
goto 20003
profile freq on
goto 29000
goto $leave
profile show freq
continue
TCL
replay late -x late.tcl nest
grep -q "warning" late.out && fail "late: $(grep warning late.out | head -3)"
has late.out "Stopped at event \"leave\" (event $leave)"
grep -A3 '^Event frequency profile:' late.out | grep -q '^ *[0-9]' &&
    fail "late: the profile is not empty back before it was turned on: $(cat late.out)"

# step N and continue N in a live run
cat >live.tcl <<'TCL'
break other
run
continue 3
step 2
TCL
replay live -x live.tcl "$PT" nest 5
has live.out "Will not stop at the next 2 hits of breakpoint 1."
[ "$(count live.out '^Stopped at breakpoint 1 for event "other": n=')" = 2 ] ||
    fail "continue 3: $(cat live.out)"
# (other comes twice an iteration: continue 3 from n=0 in b skips n=0 in
# c and n=1 in b; step 2 from there: both ticks of n=2)
grep -q 'Stopped at breakpoint 1 for event "other": n=1' live.out ||
    fail "continue 3 stops at the 3rd hit after: $(cat live.out)"
grep -q 'Stopped at event "tick": n=2' live.out || fail "step 2: $(cat live.out)"

# goto @TIME: the first event at or after it (the dump's times are whole
# ns, and events close together share one: the first holding event
# 15000's time is the one expected, not always 15000)
t=$(awk '$1 == 15000 { print $2 }' nest.dump)
first=$(awk -v t="$t" '$1 ~ /^[0-9]+$/ && $2 + 0 >= t + 0 { print $1; exit }' nest.dump)
replay attime -e "goto @${t}ns" -e "goto @$((t + 1))ns" nest
has attime.out "(event $first)"
n=$(awk -v t="$t" '$1 ~ /^[0-9]+$/ && $2 + 0 > t + 0 { print $1; exit }' nest.dump)
has attime.out "(event $n)"

# bad uses
replay bad -e 'reverse-continue' -e 'reverse-step' -e 'goto @1x' \
    -e 'goto @999s' -e 'step x' -e 'continue 0' -e 'replay checkpoints x' \
    -e run -e 'reverse-continue' nest
has bad.out "reverse-continue: the recording is not being played (run or goto first)"
has bad.out "reverse-step: the recording is not being played (run or goto first)"
has bad.out 'goto: expected a time with its unit (ns, us, ms, s) after @, got "1x"'
has bad.out "no event at or after 999.000000 s: the recording's last is at"
has bad.out 'step: expected a count or "back", got "x"'
has bad.out 'continue: expected a count of at least 1, got "0"'
has bad.out 'replay checkpoints: expected a size (bytes, or with k, M, G), got "x"'
has bad.out "No stop before event"
last=$(awk '$1 ~ /^[0-9]+$/ { n = $1 } END { print n }' nest.dump)
replay first -e 'goto 1' -e 'step back' -e 'reverse-step' -e 'goto 0' \
    -e "goto $((last + 1))" -e 'replay' nest
has first.out 'Stopped at event "init" (event 1)'
has first.out "step back: at the first event already"
has first.out "reverse-step: no visible event before event 1"
has first.out "goto: events are numbered from 1 (as noosa dump numbers them)"
# past the last: how many there are, and the play stays at event 1
has first.out "goto: the recording has $last events (numbered 1 to $last, as noosa dump numbers them): no event $((last + 1))"
has first.out "Event 1 of $last, at "
replay badlive -e 'reverse-continue' -e 'replay' "$PT" nest 1
has badlive.out "not a recording: only a recording goes back or to an event"
has badlive.out "replay: not a recording (noosa --replay DIR plays one)"

finish
