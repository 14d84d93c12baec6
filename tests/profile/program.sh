#!/bin/sh
# SPDX-License-Identifier: MIT
# program.sh - the time and frequency profiles kept by the program
# <protocol#cct> (`profile time in program`): on calc built with
# -finstrument-functions (3000 lines nobody here wrote for the purpose),
# on queens, on a shared library's functions and on 10 threads that come
# and go, the calls of every call path equal those the records path
# counts in noosa; self times add up, are not negative and are not all
# zero; excluded functions are charged to their callers as in the records
# path; the flat and tree views and the folded export work on it;
# `profile` says where it is kept.  The frequency profile kept there
# (`profile freq in program`): the same calls per call path as the
# records path's, the same as the time profile's when both are kept
# there, printed at the end, no event counted.  The self times sampled
# (`profile time in sampled`): the same calls, times as the functions ran.
# `profile time reset` and `profile freq reset` while the program runs
# start each from nothing, apart.

. "${srcdir:-.}/tests/profile/lib.sh"
SAINT=$abs_top_builddir/tests/profile/calc-saint
QUEENS=$abs_top_builddir/tests/profile/queens
SHARED=$abs_top_builddir/tests/profile/saint-main
FTHREADS=$abs_top_builddir/tests/profile/fthreads
SPLIT=$abs_top_builddir/tests/profile/split

# paths WHERE OUT PROGRAM ARGS...: the time profile's call paths and their
# calls ("PATH CALLS" lines) kept WHERE (program or noosa)
paths() {
    where=$1 out=$2
    shift 2
    cat >paths.tcl <<TCL
profile time in $where
profile time on
profile print off
$EXCLUDE
run
set f [open $out w]
set whole 0
set path {}
foreach row [profile get time -tree] {
    set path [lrange \$path 0 [expr {[dict get \$row depth] - 1}]]
    lappend path [dict get \$row name]
    puts \$f "[join \$path /] [dict get \$row calls]"
    if {[dict get \$row self] < 0} { puts "negative self time: \$row" }
    incr whole [dict get \$row self]
}
close \$f
puts "whole \$whole"
profile
TCL
    batch "$out" -x paths.tcl "$@"
}

compare() { # compare NAME PROGRAM ARGS...
    cn=$1
    shift
    paths noosa "$cn.rec" "$@"
    paths program "$cn.prog" "$@"
    [ -s "$cn.rec" ] || fail "$cn: the records path counted nothing"
    # (the tree's order is by time, which differs from run to run)
    sort -o "$cn.rec" "$cn.rec"
    sort -o "$cn.prog" "$cn.prog"
    if ! diff -u "$cn.rec" "$cn.prog" >"$cn.diff"; then
        fail "$cn: the program's call paths differ from the records':"
        head -20 "$cn.diff"
    else
        echo "ok: $cn: $(wc -l <"$cn.rec") call paths, the same calls"
    fi
    grep -q 'time profile kept: in the program$' "$WORK/$cn.prog.out" ||
        fail "$cn: profile does not say the program keeps it"
    grep -q 'negative self' "$WORK/$cn.prog.out" && fail "$cn: a negative self time"
    grep -q '^whole [1-9]' "$WORK/$cn.prog.out" || fail "$cn: no time at all"
}

EXCLUDE=
for input in demo closures; do
    compare "calc-$input" "$SAINT" "$EXAMPLES/$input.calc"
done
compare queens "$QUEENS" 6
compare shared "$SHARED" 100
# threads counting at once, and one after they ended
compare threads "$FTHREADS" 8
# (main's and the 9 workers')
for w in rec prog; do
    grep -q '^time profile: on, 10 threads' "$WORK/threads.$w.out" ||
        fail "threads: not 10 threads in the $w profile"
done
EXCLUDE='functions exclude place*'
compare queens-excluded "$QUEENS" 6
grep -q 'place' queens-excluded.prog && fail "queens-excluded: place is there"

# the frequency profile kept in the program <protocol#cct>: the calls of
# every call path and the events under each (their records say where their
# threads were) equal the records path's
fpaths() { # fpaths WHERE OUT PROGRAM ARGS...
    where=$1 out=$2
    shift 2
    cat >fpaths.tcl <<TCL
profile freq in $where
profile freq on
profile print off
$EXCLUDE
run
set f [open $out w]
foreach row [profile get freq -tree] {
    puts \$f "[dict get \$row event] [dict get \$row stack] [dict get \$row count]"
}
close \$f
profile
TCL
    batch "$out" -x fpaths.tcl "$@"
}

fcompare() { # fcompare NAME PROGRAM ARGS...
    cn=$1
    shift
    fpaths noosa "$cn.frec" "$@"
    fpaths program "$cn.fprog" "$@"
    [ -s "$cn.frec" ] || fail "$cn: the records path counted no calls"
    sort -o "$cn.frec" "$cn.frec"
    sort -o "$cn.fprog" "$cn.fprog"
    if ! diff -u "$cn.frec" "$cn.fprog" >"$cn.fdiff"; then
        fail "$cn: the program's calls differ from the records':"
        head -20 "$cn.fdiff"
    else
        echo "ok: $cn: frequency, $(wc -l <"$cn.frec") call paths, the same calls"
    fi
    grep -q '^frequency profile kept: in the program (calls and events counted in its call trees)$' \
        "$WORK/$cn.fprog.out" || fail "$cn: profile does not say the program keeps it"
    # (the events: the same number as the records path counted)
    n1=$(sed -n 's/^frequency profile: on, \([0-9]*\) events counted$/\1/p' "$WORK/$cn.frec.out")
    n2=$(sed -n 's/^frequency profile: on, \([0-9]*\) events counted$/\1/p' "$WORK/$cn.fprog.out")
    [ -n "$n1" ] && [ "$n1" = "$n2" ] ||
        fail "$cn: events counted: ${n2:-none} in the program, ${n1:-none} from the records"
}

EXCLUDE=
fcompare calc-demo-freq "$SAINT" "$EXAMPLES/demo.calc"
fcompare queens-freq "$QUEENS" 6
fcompare shared-freq "$SHARED" 100
fcompare threads-freq "$FTHREADS" 8
EXCLUDE='functions exclude place*'
fcompare queens-excluded-freq "$QUEENS" 6
grep -q 'place' queens-excluded-freq.fprog && fail "queens-excluded-freq: place is there"
EXCLUDE=

# both kept in the program read the same trees: the same calls per path
cat >both.tcl <<TCL
profile freq in program
profile time in program
profile freq on
profile time on
profile print off
run
set t {}
foreach row [profile get time -tree] { lappend t [dict get \$row calls] }
set f {}
foreach row [profile get freq -tree -calls] { lappend f [dict get \$row count] }
puts "time [llength \$t] [tcl::mathop::+ {*}\$t] freq [llength \$f] [tcl::mathop::+ {*}\$f]"
TCL
batch both -x both.tcl "$QUEENS" 6
sed -n 's/^time \([0-9]*\) \([0-9]*\) freq \([0-9]*\) \([0-9]*\)$/\1 \2 \3 \4/p' \
    "$WORK/both.out" >both.n
read tn tc fn fc <both.n || fail "both: no counts"
[ "${tc:-0}" -gt 0 ] && [ "$tn" = "$fn" ] && [ "$tc" = "$fc" ] ||
    fail "both: time and frequency differ: $(cat both.n)"
# printed at the end: the calls
batch fprint -e 'profile freq in program' -e 'profile freq on' -e run "$QUEENS" 6
grep -q 'main/place/place' "$WORK/fprint.out" || fail "fprint: no calls printed at the end"

# the views and the export work on it
cat >views.tcl <<TCL
profile time in program
profile time on
profile print off
run
profile show time -flat -limit 3
profile export folded $WORK/q.folded
puts "folded [llength [split [string trim [read [set f [open $WORK/q.folded]]]] \n]]"
close \$f
TCL
batch views -x views.tcl "$QUEENS" 6
grep -q '^folded [1-9]' "$WORK/views.out" || fail "views: nothing exported"
grep -q 'place' "$WORK/views.out" || fail "views: place is not in the flat view"

# the self times sampled (`profile time in sampled`): the calls of every
# call path equal the records path's; on split, which says what its
# functions took (24 and 8 ms a call on a quiet machine, more on a busy
# one), the samples share the time out as they ran: heavy and light as
# split measured them (their ratio too), the other thread's nap its 150 ms
scompare() { # scompare NAME PROGRAM ARGS...
    cn=$1
    shift
    paths noosa "$cn.rec" "$@"
    paths sampled "$cn.samp" "$@"
    [ -s "$cn.rec" ] || fail "$cn: the records path counted nothing"
    sort -o "$cn.rec" "$cn.rec"
    sort -o "$cn.samp" "$cn.samp"
    if ! diff -u "$cn.rec" "$cn.samp" >"$cn.sdiff"; then
        fail "$cn: the sampled tree's call paths differ from the records':"
        head -20 "$cn.sdiff"
    else
        echo "ok: $cn: sampled, $(wc -l <"$cn.rec") call paths, the same calls"
    fi
    grep -q 'negative self' "$WORK/$cn.samp.out" && fail "$cn: a negative self time"
    grep -q '^  calls counted, self time sampled every 1000 us: [0-9]* samples' \
        "$WORK/$cn.samp.out" || fail "$cn: profile does not say it samples"
}
scompare queens-sampled "$QUEENS" 6
scompare threads-sampled "$FTHREADS" 8

cat >split.tcl <<'TCL'
profile time in sampled
profile time on
profile print off
run
foreach row [profile get time -flat] {
    puts "row [dict get $row name] [dict get $row calls] [dict get $row self] [dict get $row total]"
}
profile
TCL
batch split -x split.tcl "$SPLIT"
# near(X, WANT, LO, HI): X is between LO and HI times WANT, what split
# measured.  (The bounds are those about the times of a quiet machine:
# heavy/light 1.8 to 5 about its 3, heavy's 4 or 8 calls 60 to 200 or
# 120 to 400 ms about their 96 or 192.)
NEAR='function near(x, w, lo, hi) { return w > 0 && x >= lo * w && x <= hi * w }'
near() {
    awk -v x="$1" -v w="$2" "$NEAR"' BEGIN { exit !near(x, w, 0.625, 2.08) }'
}
awk "$NEAR"'
    $1 == "row" { calls[$2] = $3; self[$2] = $4; total[$2] = $5 }
    $1 == "split:" { took["heavy"] = $3; took["light"] = $5 }
    /self time sampled every 1000 us: / {
        # (the count, whatever the line says after it)
        match($0, /us: [0-9]+ samples/)
        samples = substr($0, RSTART + 4, RLENGTH - 12) + 0
    }
    END {
        ms = 1e6
        bad = ""
        if (calls["heavy"] != 8 || calls["light"] != 8 || calls["spin"] != 16 ||
            calls["nap"] != 1)
            bad = bad " calls heavy " calls["heavy"] " light " calls["light"] \
                " spin " calls["spin"] " nap " calls["nap"]
        if (took["heavy"] < 192 * ms || took["light"] < 64 * ms)
            bad = bad " split says heavy " took["heavy"] " light " took["light"]
        else if (total["light"] <= 0 ||
                 !near(total["heavy"] / total["light"], took["heavy"] / took["light"], 0.6, 1.67))
            bad = bad " heavy/light " total["heavy"] "/" total["light"] \
                " (it took " took["heavy"] "/" took["light"] ")"
        if (!near(total["heavy"], took["heavy"], 0.625, 2.08))
            bad = bad " heavy " total["heavy"] / ms " ms (it took " took["heavy"] / ms " ms)"
        if (self["nap"] < 100 * ms || self["nap"] > 300 * ms)
            bad = bad " nap " self["nap"] / ms " ms"
        if (self["heavy"] != 0 && self["heavy"] > total["heavy"] / 5)
            bad = bad " heavy self " self["heavy"] / ms " ms"
        if (samples < 20)
            bad = bad " samples " samples
        if (bad != "") { print "split:" bad; exit 1 }
        printf "ok: split: heavy %.0f ms, light %.0f ms (it took %.0f and %.0f), nap %.0f ms, %d samples\n",
            total["heavy"] / ms, total["light"] / ms, took["heavy"] / ms, took["light"] / ms,
            self["nap"] / ms, samples
    }' "$WORK/split.out" || { fail "split: the samples do not fit the wall times"; cat "$WORK/split.out"; }

# a reset while the program runs: the profile starts from nothing there
# (the trees go on: the other profile reading them keeps its own count),
# kept in the program and sampled
cat >reset.tcl <<'TCL'
profile freq in program
profile time on
profile freq on
profile print off
proc row {kind name} {
    if {$kind eq "time"} {set rows [profile get time -flat]} else {set rows [profile get freq -tree -calls]}
    foreach r $rows {
        if {[dict exists $r name] && [dict get $r name] eq $name} { return $r }
        if {[dict exists $r stack] && [dict get $r stack] eq "main/$name"} { return $r }
    }
    return none
}
break tick if {$n == 3}
run
puts "at 3: [row time heavy]"
profile time reset
puts "reset: [row time heavy]"
delete 1
break tick if {$n == 5}
continue
profile freq reset
delete 2
continue
puts "end time: [row time heavy]"
puts "end freq: [row freq heavy]"
TCL
for where in program sampled; do
    batch "reset-$where" -e "profile time in $where" -x reset.tcl "$SPLIT"
    out=$WORK/reset-$where.out
    grep -q '^at 3: name heavy depth 0 calls 4 ' "$out" || fail "reset-$where: not 4 calls of heavy at tick 3"
    grep -q '^reset: none$' "$out" || fail "reset-$where: heavy still there after the reset"
    grep -q '^end time: name heavy depth 0 calls 4 ' "$out" ||
        fail "reset-$where: not the 4 calls of heavy after the reset"
    grep -q '^end freq: event (calls) stack main/heavy count 2$' "$out" ||
        fail "reset-$where: the frequency profile's reset at tick 5: not 2 calls of heavy after it"
    total=$(sed -n 's/^end time: .* total \([0-9]*\)$/\1/p' "$out")
    # (4 calls of 24 ms on a quiet machine, as split measured them)
    took=$(sed -n 's/^split: .* heavy-after-3 \([0-9]*\)$/\1/p' "$out")
    if [ "${took:-0}" -lt 96000000 ] || ! near "${total:-0}" "$took"; then
        fail "reset-$where: heavy's time after the reset is ${total:-none} ns, not about the ${took:-none} ns it took"
        cat "$out"
    else
        echo "ok: reset-$where: heavy 4 calls, $((total / 1000000)) ms since the reset (it took $((took / 1000000)))"
    fi
done

# bad arguments
batch bad -e 'catch {profile time in elsewhere} m; puts "1: $m"' \
    -e 'catch {profile freq in somewhere} m; puts "2: $m"' \
    -e 'puts "3: [profile time in]"' "$QUEENS" 6
grep -q '^1: wrong # args: should be "profile time in ?program|sampled|noosa?"' "$WORK/bad.out" ||
    fail "bad: 1"
grep -q '^2: wrong # args: should be "profile freq in ?program|noosa?"' "$WORK/bad.out" ||
    fail "bad: 2"
grep -q '^3: sampled$' "$WORK/bad.out" || fail "bad: 3 (the default)"
# named components in the program's trees <protocol#cct>: pt's main{a{b}
# c} fifty times, by default (kept in the program, sampled) and from the
# records: the same calls on the same paths, and the frequency profile's
# events under them; nothing of enter and leave is recorded by default
# (their states are the tree's alone: PROFILE 16, pt states says)
cat >comp.tcl <<'TCL'
profile time on
profile freq on
profile print off
run
foreach row [profile get time -tree] {
    puts "time [dict get $row depth] [dict get $row name] [dict get $row calls]"
}
foreach row [profile get freq -tree] {
    puts "freq [dict get $row event] [dict get $row stack] [dict get $row count]"
}
profile
TCL
batch comp-default -x comp.tcl "$PT" nest 50
batch comp-noosa -e 'profile time in noosa' -e 'profile freq in noosa' -x comp.tcl "$PT" nest 50
grep '^time [0-9]\|^freq ' "$WORK/comp-default.out" | sort >comp-default.rows
grep '^time [0-9]\|^freq ' "$WORK/comp-noosa.out" | sort >comp-noosa.rows
if [ "$(grep -c . comp-noosa.rows)" -lt 8 ] ||
    ! diff -u comp-noosa.rows comp-default.rows >comp.diff; then
    fail "comp: components kept in the program differ from the records':"
    cat comp.diff
else
    echo "ok: comp: $(grep -c . comp-noosa.rows) rows, the same calls and events"
fi
grep -q '^time profile kept: in the program$' "$WORK/comp-default.out" ||
    fail "comp: the default does not keep the time profile in the program"
# a runtime of protocol 1.0.3 keeps no component in its trees: the
# default is then noosa's records, with the same rows
batch comp-v3 -x comp.tcl "$PT-v3" nest 50
grep '^time [0-9]\|^freq ' "$WORK/comp-v3.out" | sort >comp-v3.rows
diff -u comp-noosa.rows comp-v3.rows >comp-v3.diff ||
    { fail "comp-v3: an older runtime's default misses rows:"; cat comp-v3.diff; }
grep -q '^time profile kept: in noosa' "$WORK/comp-v3.out" ||
    fail "comp-v3: $(grep '^time profile kept' "$WORK/comp-v3.out")"
batch comp-states -e 'profile time on' -e 'profile freq on' -e 'profile print off' \
    -e run "$PT" states 2
grep -q '^states tick=16 other=16 quiet=0 enter=16 leave=16$' "$WORK/comp-states.out" ||
    fail "comp-states: events, enter and leave are not the program's tree's alone: $(grep '^states' "$WORK/comp-states.out")"

# a timeline is what turns the records of enter and leave on, and says so;
# the default keeps none, and the Chrome export says how to get one
batch timeline -e 'profile time on' -e 'profile timeline 1000' -e 'profile print off' \
    -e run -e profile -e "profile export chrome $WORK/timeline.json" "$PT" nest 5
grep -q '^time profile kept: in noosa, from the records of every enter and leave (the timeline needs them)$' \
    "$WORK/timeline.out" || fail "timeline: does not say it keeps the profile in noosa"
[ -s "$WORK/timeline.json" ] || fail "timeline: no Chrome export"
batch no-timeline -e 'profile time on' -e 'profile print off' -e run \
    -e "catch {profile export chrome $WORK/none.json} m; puts \"chrome: \$m\"" "$PT" nest 5
grep -q '^chrome: profile export: nothing to export: the time profile is kept in the program, which keeps no timeline ("profile timeline N" before the run keeps one' \
    "$WORK/no-timeline.out" || fail "no-timeline: $(grep chrome "$WORK/no-timeline.out")"

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
exit 0
