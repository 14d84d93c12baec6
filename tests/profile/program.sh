#!/bin/sh
# SPDX-License-Identifier: MIT
# program.sh - the time profile kept by the program <protocol#cct>
# (`profile time in program`): on calc built with -finstrument-functions
# (3000 lines nobody here wrote for the purpose), on queens and on a
# shared library's functions, the calls of every call path equal those
# the records path counts in noosa; self times add up, are not negative
# and are not all zero; excluded functions are charged to their callers
# as in the records path; the flat and tree views and the folded export
# work on it; `profile` says where it is kept; and no function record
# crosses to noosa.

. "${srcdir:-.}/tests/profile/lib.sh"
SAINT=$abs_top_builddir/tests/profile/calc-saint
QUEENS=$abs_top_builddir/tests/profile/queens
SHARED=$abs_top_builddir/tests/profile/saint-main

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
EXCLUDE='functions exclude place*'
compare queens-excluded "$QUEENS" 6
grep -q 'place' queens-excluded.prog && fail "queens-excluded: place is there"

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

# bad arguments
batch bad -e 'catch {profile time in elsewhere} m; puts "1: $m"' \
    -e 'catch {profile freq in program} m; puts "2: $m"' \
    -e 'puts "3: [profile time in]"' "$QUEENS" 6
grep -q '^1: wrong # args: should be "profile time in ?program|noosa?"' "$WORK/bad.out" ||
    fail "bad: 1"
grep -q '^2: wrong # args' "$WORK/bad.out" || fail "bad: 2"
grep -q '^3: noosa$' "$WORK/bad.out" || fail "bad: 3"
if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
exit 0
