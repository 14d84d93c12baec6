#!/bin/sh
# SPDX-License-Identifier: MIT
# derive.sh - derived events <design#relations> are events like any
# other: info events lists them with their parameters; breakpoints (with
# conditions on their parameters), handlers and the trace take them;
# questions count, sum and group them in the program; a recording keeps
# them and its replay plays them, as the live run had them; derive list
# and question show say what the program checked and recorded; a deleted
# one is no longer detected; bad definitions are refused with their
# reasons.  REL_SEED=N repeats a run.
. "$srcdir/tests/relate/lib.sh"

seed=${REL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (REL_SEED=$seed repeats this run)"

# Live: a handler and the trace on derived events, questions on them, a
# breakpoint with a condition on a derived event's parameters.  Whatever
# the seed, rel's fixed case (rel.c) makes a parse with two misses of keys
# above 3, where the breakpoint stops, and an mb.
batch live -e "record start $WORK/live.rec" \
    -e 'derive pc parse -contains miss -if {$key > 3}' \
    -e 'derive mb miss -before tick -within request' \
    -e 'info events' \
    -e 'handler add pc h {puts "ans hpc $b_count $key $where"}' \
    -e 'trace on ^mb$' \
    -e 'question add qk pc -by key' \
    -e 'question add qn pc a_ns -hist' \
    -e 'question add qg mb gap_ns -by key' \
    -e 'question print off' \
    -e 'break pc if {$b_count >= 2}' -e run \
    -e 'puts "stop $ev(n_ename) $ev(b_count) [expr {$ev(a_ns) >= 0}]"' \
    -e 'delete 1' -e 'continue' \
    -e "$(answers qk)" \
    -e 'set t_ 0; foreach d_ [question get qn] {incr t_ [dict get $d_ count]; if {[dict get $d_ min] < 0} {puts negative}}; puts "total qn $t_"' \
    -e 'set t_ 0; foreach d_ [question get qg] {incr t_ [dict get $d_ count]}; puts "total qg $t_"' \
    -e 'derive list' -e 'question show qk' \
    "$REL" walk 40 "$seed" 2
status live 0
sed -n 's/^mb gap_ns=[0-9]* key=\([0-9]*\) .*/ans tmb \1/p' "$WORK/live.out" >>"$WORK/live.out"
reference live 'derive:pc:contains:c:parse:e:miss:key > 3' \
    derive:mb:before:e:miss:e:tick:request derivedby:qk:pc:key
python3 - "$WORK/live.dump" >>"$WORK/live.ref" <<'PY'
# the handler's and the trace's lines: each pc and mb of the recording
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r'\d+ \d+ thread=\d+ pc a_ns=\d+ b_count=(\d+) key=(\d+) where="([^"]*)"', line)
    if m:
        print('ref hpc %s %s %s' % m.groups())
    m = re.match(r'\d+ \d+ thread=\d+ mb gap_ns=\d+ key=(\d+) ', line)
    if m:
        print('ref tmb %s' % m.group(1))
PY
same live
has live '^aspect derived:pc:$'
has live '^  \* pc\(long a_ns, long b_count, int key, str where\) - an execution of parse during which miss happened, if \{\$key > 3\}$'
has live '^  \* mb\(long gap_ns, int key, str where, int i, long v\) - tick preceded by miss in the same execution of request$'
# it stopped at a pc of the recording that meets the condition (of two
# threads, the first noosa saw, not necessarily the first in time)
has live '^Stopped at breakpoint 1 for event "pc": a_ns=[0-9]+ b_count=[2-9]'
sed -n 's/^[0-9]* [0-9]* thread=[0-9]* pc \(a_ns=[0-9]* b_count=\([2-9]\|[1-9][0-9][0-9]*\) .*\)$/\1/p' \
    "$WORK/live.dump" >"$WORK/live.pc2"
stopped=$(sed -n 's/^Stopped at breakpoint 1 for event "pc": //p' "$WORK/live.out" | head -1)
if [ -n "$stopped" ] && grep -qxF -e "$stopped" "$WORK/live.pc2"; then
    echo "ok: live: the breakpoint's pc is one of the recording's $(wc -l <"$WORK/live.pc2") with b_count >= 2"
else
    fail "live: the breakpoint's pc ($stopped) is none of the recording's with b_count >= 2"
fi
has live '^stop pc [2-9][0-9]* 1$'
count live 0 '^negative$'
n=$(grep -c ' pc a_ns=' "$WORK/live.dump")
m=$(grep -c ' mb gap_ns=' "$WORK/live.dump")
has live "^total qn $n\$"
has live "^total qg $m\$"
has live "in the program: [0-9]+ checked, $n recorded"
has live "^  derived event: checked [0-9]+, recorded $n\$"
has live '^question qk: count of pc by key$'

# The recording played back: the derived events as they were, to a
# handler and a breakpoint.
batch replay -e 'info events' \
    -e 'handler add pc h {puts "ans hpc $b_count $key $where"}' \
    -e 'trace on ^mb$' -e run "$WORK/live.rec"
status replay 0
sed -n 's/^mb gap_ns=[0-9]* key=\([0-9]*\) .*/ans tmb \1/p' "$WORK/replay.out" >>"$WORK/replay.out"
grep -E '^ref (hpc|tmb) ' "$WORK/live.ref" >"$WORK/replay.ref"
same replay
has replay '^aspect derived:mb:$'
# A breakpoint with a condition in the replay stops at the first mb of
# the recording that meets it: the condition is on a key the first mb has
# not (when the recording has one), so that stopping at the first mb
# whatever its key shows.
want=$(awk '$4 == "mb" { if (first == "") { first = $6; one = $0 }
        else if ($6 != first) { print; found = 1; exit } }
    END { if (!found && one != "") print one }' "$WORK/live.dump" |
    sed -n 's/^.* mb gap_ns=\([0-9]*\) key=\([0-9]*\) .* i=\([0-9]*\) v=\(-*[0-9]*\)$/\1 \2 \3 \4/p')
[ -n "$want" ] || fail "live: the recording has no mb"
set -- $want 0 0
batch rbreak -e "break mb if {\$key == $2}" -e run \
    -e 'puts "at $ev(n_ename) $ev(gap_ns) $ev(key) $ev(i) $ev(v)"' "$WORK/live.rec"
status rbreak 0
has rbreak "^at mb $want\$"
# a derived event defined for a recording: the program detects them
batch rdef -e 'catch {derive x parse -contains miss} m; puts $m' -e 'derive list' "$WORK/live.rec"
has rdef 'derive x: derived events are detected by the program as it runs: a recording plays those it recorded'
has rdef '^No derived events.$'

# A derived event deleted while the program runs is no longer detected;
# one defined while it runs is from then on; a part of another cannot
# go first.
batch life -e 'derive pc parse -contains miss' -e 'derive pp pc -before tick' \
    -e 'question add q pc' -e 'question print off' \
    -e 'break done if {$id == 10}' -e run \
    -e 'catch {derive delete pc} m; puts $m' \
    -e 'derive delete pp pc' -e 'derive list' \
    -e 'set before [dict get [lindex [question get q] 0] count]' \
    -e 'derive rl request -contains lookup' -e 'handler add rl h {incr ::rl}' -e 'set rl 0' \
    -e 'delete 1' -e continue \
    -e 'puts "after [expr {[dict get [lindex [question get q] 0] count] == $before}] $rl"' \
    "$REL" walk 40 "$seed" 1
status life 0
has life 'pc is a part of derived event pp: delete that first'
has life '^No derived events.$'
has life '^after 1 [1-9][0-9]*$'

# Bad definitions, each with its reason.
batch bad -e 'catch {derive} m; puts $m' \
    -e 'catch {derive x parse} m; puts $m' \
    -e 'catch {derive x parse -near miss} m; puts $m' \
    -e 'catch {derive -x parse -contains miss} m; puts $m' \
    -e 'catch {derive a.b parse -contains miss} m; puts $m' \
    -e 'catch {derive tick parse -contains miss} m; puts $m' \
    -e 'catch {derive x miss -contains tick} m; puts $m' \
    -e 'catch {derive x parse -contains lookup -if {$i > 1}} m; puts $m' \
    -e 'catch {derive x parse -contains miss -if {$nokey > 1}} m; puts $m' \
    -e 'catch {derive x parse -contains miss -if {[clock seconds] > 1}} m; puts $m' \
    -e 'catch {derive x parse -calls miss -if {$key > 1}} m; puts $m' \
    -e 'catch {derive x parse -contains miss -within request} m; puts $m' \
    -e 'catch {derive x miss -before tick -within done} m; puts $m' \
    -e 'catch {derive x x -contains miss} m; puts $m' \
    -e 'catch {derive x parse -contains ""} m; puts $m' \
    -e "catch {derive x parse -contains [string repeat y 130]} m; puts \$m" \
    -e 'derive ok parse -contains miss' \
    -e 'catch {derive ok parse -contains tick} m; puts $m' \
    -e 'catch {derive delete nosuch} m; puts $m' \
    -e 'for {set k_ 1} {$k_ < 40} {incr k_} {if {[catch {derive d$k_ parse -contains miss} m]} {puts $m; break}}' \
    "$REL" walk 2 1 1
status bad 0
has bad 'wrong # args: should be "derive NAME A -contains\|-calls\|-before B'
has bad 'derive: unknown relation "-near": should be -contains, -calls or -before'
has bad 'derive: bad name "-x"'
has bad 'derive: bad name "a.b"'
has bad 'derive tick: the program has an event tick already'
has bad 'derive x: miss is an event: contains needs an execution of a component as A'
has bad 'derive x: -if is a condition on B.s parameters, and lookup is no event of the program'
has bad 'derive x: the condition cannot run in the program'
has bad 'derive: unexpected "-if": -contains takes -if COND, -before takes -within COMPONENT, -calls nothing more'
has bad 'derive: unexpected "-within"'
has bad 'derive x: done is an event: -within needs a component'
has bad 'derive x: x cannot be a part of itself'
has bad 'derive: a part is empty'
has bad 'derive x: component "y+": a component.s name is 1 to 119 bytes'
has bad 'derive ok: derived event ok exists already'
has bad 'derive delete: no derived event nosuch'
has bad 'derive d32: 32 derived events at most in a run'
batch noprog -e 'catch {derive x a -contains b} m; puts $m'
has noprog 'the program.s interface is not known yet'
finish
