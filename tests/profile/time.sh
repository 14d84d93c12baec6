#!/bin/sh
# SPDX-License-Identifier: MIT
# time.sh - the time profile: calls per component, self <= total, the
# whole equals the sum of self times, a total is its self plus its
# children's, recursion counted once in the flat view, threads apart and
# merged; the printed views; folded stacks (sums, calls, events) and the
# Chrome trace-event export (valid JSON, B and E balanced per thread, in
# order), with a limited timeline; bad arguments.

. "${srcdir:-.}/tests/profile/lib.sh"
CHECK=$TESTS_SRC/check.tcl

# pt nest 50: main{a{b} c} x 50
cat >nest.tcl <<'TCL'
profile time on
profile time in noosa
profile freq on
profile freq in noosa
profile print off
run
set flat [rows_by_name -flat]
check {[field $flat main calls] == 1} "main is called once"
foreach c {a b c} {
    check {[field $flat $c calls] == 50} "$c is called 50 times"
}
set whole 0
foreach {name row} $flat {
    check {[dict get $row self] <= [dict get $row total]} "$name: self <= total"
    check {[dict get $row self] >= 0} "$name: self >= 0"
    incr whole [dict get $row self]
}
check {$whole == [field $flat main total] + [field $flat "(top level)" self]} \
    "the self times add up to the whole"
# the tree: main's total is its self plus the totals of a and c
set tree [profile get time -tree]
set at [dict create]
foreach row $tree {
    dict set at [dict get $row depth],[dict get $row name] $row
}
check {[dict get $at 0,main total] == [dict get $at 0,main self] +
       [dict get $at 1,a total] + [dict get $at 1,c total]} \
    "a total is its self plus its children's"
check {[dict get $at 1,a total] == [dict get $at 1,a self] +
       [dict get $at 2,b total]} "a's total"
check {[llength $tree] == 4} "four stacks: [llength $tree]"
# sorted by self, by total, by name
foreach key {self total} {
    set prev ""
    foreach row [profile get time -flat -sort $key] {
        if {$prev ne ""} {
            check {$prev >= [dict get $row $key]} "sorted by $key"
        }
        set prev [dict get $row $key]
    }
}
set names {}
foreach row [profile get time -flat -sort name] {
    lappend names [dict get $row name]
}
check {$names eq [lsort $names]} "sorted by name: $names"
check {[llength [profile get time -flat -limit 2]] == 2} "-limit 2"
# exports
set said [profile export folded nest.folded]
check {[string match "Wrote nest.folded (folded stacks, * bytes)." $said] &&
       [lindex $said end-1] == [file size nest.folded]} "export says: $said"
profile export folded nest.calls -calls
profile export folded nest.events -events
set said [profile export chrome nest.json]
check {[string match "Wrote nest.json (the timeline as Chrome trace JSON, * bytes)." $said]} \
    "export chrome says: $said"
set sum 0
set f [open nest.folded]
while {[gets $f line] >= 0} {
    check {[regexp {^[^ ]+ [0-9]+$} $line]} "a folded line: $line"
    incr sum [lindex $line end]
}
close $f
check {$sum == $whole - [field $flat "(top level)" self]} \
    "the folded self times add up"
set f [open nest.calls]
set calls [read $f]
close $f
check {[string match "*main;a;b 50*" $calls]} "folded calls: $calls"
set f [open nest.events]
set events [read $f]
close $f
check {[string match "*main;a;b 100*" $events]} "folded events: $events"
puts "nest checked"
TCL
batch nest -x "$CHECK" -x nest.tcl "$PT" nest 50
contains nest "nest checked"
lacks nest "FAIL"
lacks nest "error:"

# Chrome JSON: valid, B and E balanced per thread, timestamps in order
check_chrome() {
    if ! command -v python3 >/dev/null 2>&1; then
        echo "note: python3 is absent; $1 not validated"
        return
    fi
    python3 -m json.tool "$1" >/dev/null || fail "$1 is not valid JSON"
    python3 - "$1" "$2" <<'PY' || fail "$1: bad trace events"
import json, sys
doc = json.load(open(sys.argv[1]))
want_b = int(sys.argv[2])
depth, last, nb = {}, {}, 0
for e in doc["traceEvents"]:
    if e["ph"] == "M":
        continue
    tid = e["tid"]
    assert e["ts"] >= last.get(tid, 0), e
    last[tid] = e["ts"]
    if e["ph"] == "B":
        nb += 1
        assert e["name"], e
        depth[tid] = depth.get(tid, 0) + 1
    else:
        assert e["ph"] == "E", e
        depth[tid] = depth.get(tid, 0) - 1
        assert depth[tid] >= 0, e
assert all(d == 0 for d in depth.values()), depth
assert want_b < 0 or nb == want_b, (nb, want_b)
PY
}
check_chrome "$WORK/nest.json" 151

# recursion: the flat total of r counts the outermost r only
cat >recurse.tcl <<'TCL'
profile time on
profile time in noosa
profile print off
run
set flat [rows_by_name -flat]
check {[field $flat r calls] == 21} "r is called 21 times"
set outer ""
set sum 0
foreach row [profile get time -tree] {
    if {[dict get $row name] eq "r"} {
        if {$outer eq ""} {
            set outer [dict get $row total]
        }
        incr sum [dict get $row total]
    }
}
check {[field $flat r total] == $outer} "r's flat total is the outermost r's"
check {[field $flat r total] <= [field $flat main total]} "r within main"
check {$sum > $outer} "the nested totals would count it again"
puts "recurse checked"
TCL
batch recurse -x "$CHECK" -x recurse.tcl "$PT" recurse 20
contains recurse "recurse checked"
lacks recurse "FAIL"

# threads: each worker apart, and merged
cat >threads.tcl <<'TCL'
profile time on
profile time in noosa
profile print off
run
set tids [profile threads]
check {[llength $tids] == 3} "three threads: $tids"
foreach tid $tids {
    set rows [rows_by_name -flat -thread $tid]
    check {[field $rows worker calls] == 1} "thread $tid: one worker"
    check {[field $rows step calls] == 20} "thread $tid: 20 steps"
}
set all [rows_by_name -flat -thread all]
check {[field $all step calls] == 60} "60 steps in all"
check {[field $all worker calls] == 3} "3 workers in all"
profile export folded one.folded -thread [lindex $tids 0]
profile export chrome threads.json
puts "threads checked"
TCL
batch threads -x "$CHECK" -x threads.tcl "$PT" threads 3 20
contains threads "threads checked"
lacks threads "FAIL"
lacks threads "error:"
check_chrome "$WORK/threads.json" 63

# a timeline of 10 marks: the export closes what is open
batch short -e 'profile time on' -e 'profile time in noosa' -e 'profile timeline 10' -e 'profile print off' \
    -e run -e 'profile export chrome short.json' -e 'profile' "$PT" nest 5
contains short "timeline: 10 marks kept (at most 10), 22 dropped"
check_chrome "$WORK/short.json" -1

# the printed views (times normalised; orders that do not depend on
# times), and the flat view printed when the program ends
batch views -e 'profile time on' -e 'profile time in noosa' -e 'profile print off' -e run \
    -e 'profile show time -tree -sort count' \
    -e 'profile show time -flat -sort count -limit 2' \
    -e 'profile time show -tree -sort name' "$PT" nest 4
expect views
batch at-end -e 'profile time on' -e 'profile time in noosa' -e run "$PT" nest 4
contains at-end "Time profile (1 thread), by component:"
contains at-end "  main"

# bad arguments, and nothing to export
batch bad -e 'profile export chrome nothing.json' \
    -e 'profile export folded nothing.folded' \
    -e 'profile time on' -e 'profile time in noosa' -e 'profile print off' -e run \
    -e 'profile show time -event tick' -e 'profile show time -calls' \
    -e 'profile show time -thread 0' -e 'profile show time -thread 99999999' \
    -e 'profile export folded /nonexistent/dir/x.folded' \
    -e 'profile export folded x.folded -weird' \
    -e 'profile export svg x.svg' -e 'profile export chrome' \
    -e 'profile timeline -1' -e 'profile threads 1' "$PT" nest 1
expect bad
[ -e nothing.json ] && fail "a failed export left nothing.json"
[ -e nothing.folded ] && fail "a failed export left nothing.folded"

finish
