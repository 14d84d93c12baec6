#!/bin/sh
# SPDX-License-Identifier: MIT
# saint.sh - automatic instrumentation.  calc (3000 lines, built from its
# sources unchanged with -finstrument-functions) runs under noosa with the
# frequency profile on; the calls it counts for each function must equal
# those valgrind's callgrind counts on the same input (skipped without
# valgrind).  Also: names in a position-independent executable and in one
# that is not, in a shared library; no_instrument_function leaves a
# function out; `functions exclude` leaves functions out in noosa; the
# program's own stack at a function entry; the functions as enter/leave
# for the trace and for handlers.

. "${srcdir:-.}/tests/profile/lib.sh"
SAINT=$abs_top_builddir/tests/profile/calc-saint
QUEENS=$abs_top_builddir/tests/profile/queens
QUEENS_NOPIE=$abs_top_builddir/tests/profile/queens-nopie
SHARED=$abs_top_builddir/tests/profile/saint-main

# calls per function as noosa counts them: "NAME COUNT" lines
calls_of() {
    out=$1
    shift
    cat >calls.tcl <<TCL
profile freq on
profile print off
run
set f [open $out w]
foreach row [profile get freq -flat -calls] {
    puts \$f "[dict get \$row stack] [dict get \$row count]"
}
close \$f
TCL
    batch "$out" -x calls.tcl "$@"
}

for input in demo closures strings; do
    calls_of "$input.noosa" "$SAINT" "$EXAMPLES/$input.calc"
    [ -s "$input.noosa" ] || fail "$input: no calls counted"
    grep -q '^main 1$' "$input.noosa" || fail "$input: main is not called once"
done

if [ -z "${VALGRIND:-}" ] || ! command -v "$VALGRIND" >/dev/null 2>&1; then
    echo "note: valgrind is absent; call counts not compared with callgrind"
    compared=0
else
    compared=1
    # the functions of calc's sources (nm -l names their files)
    nm -l --defined-only "$SAINT" | awk '
        ($2 == "T" || $2 == "t") && $4 ~ /examples\/calc\/[a-z]+\.c:/ { print $3 }' |
        sort -u >calc.functions
    [ "$(wc -l <calc.functions)" -gt 100 ] ||
        fail "only $(wc -l <calc.functions) functions found in calc"
    for input in demo closures strings; do
        "$VALGRIND" --tool=callgrind --compress-strings=no \
            --callgrind-out-file="$input.cg" "$SAINT" "$EXAMPLES/$input.calc" \
            >"$input.cg.stdout" 2>"$input.cg.stderr" ||
            fail "$input: callgrind failed (see $WORK/$input.cg.stderr)"
        # calls= lines follow the cfn= line of their callee; a name may
        # carry 'N for a recursion level
        awk '
            /^cfn=/ { f = substr($0, 5); sub(/\047[0-9]+$/, "", f); next }
            /^calls=/ { split(substr($0, 7), a, " "); n[f] += a[1] }
            END { for (f in n) print f, n[f] }' "$input.cg" |
            sort >"$input.cg.calls"
        # only calc's functions, which the program calls (main from libc)
        awk 'NR == FNR { keep[$1] = 1; next } ($1 in keep) && $2 > 0' \
            calc.functions "$input.cg.calls" | sort >"$input.want"
        sort "$input.noosa" >"$input.got"
        if ! diff -u "$input.want" "$input.got" >"$input.diff"; then
            fail "$input: noosa's calls differ from callgrind's:"
            head -20 "$input.diff"
        fi
        [ "$(wc -l <"$input.want")" -gt 50 ] ||
            fail "$input: only $(wc -l <"$input.want") functions compared"
    done
fi

# PIE or not, and a shared library: the names are right
calls_of queens.noosa "$QUEENS" 6
calls_of queens-nopie.noosa "$QUEENS_NOPIE" 6
for f in queens.noosa queens-nopie.noosa; do
    grep -q '^place 153$' "$f" || fail "$f: place is not called 153 times"
    grep -q '^report 1$' "$f" || fail "$f: report is not called once"
    grep -q '^safe ' "$f" && fail "$f: safe is no_instrument_function"
    grep -q '^0x' "$f" && fail "$f: an address without a name"
done
file -L "$QUEENS" | grep -q 'pie executable' ||
    echo "note: $QUEENS is not position-independent here"
calls_of shared.noosa "$SHARED" 100
grep -q '^twice 1$' shared.noosa || fail "shared: twice"
grep -q '^sl_work 19$' shared.noosa || fail "shared: sl_work: $(grep sl_work shared.noosa)"
grep -q '^sl_step 17$' shared.noosa || fail "shared: sl_step"

# functions exclude: gone for every consumer; functions shows them
batch exclude -e 'functions exclude eval* value_?nt' -e 'profile freq on' \
    -e 'profile print off' -e run -e functions \
    -e 'puts [llength [profile get freq -flat -calls]]' \
    -e 'functions include value_?nt' -e 'functions' \
    -e 'functions include nosuch' -e 'functions exclude' -e 'functions x' \
    "$SAINT" "$EXAMPLES/demo.calc"
grep -q '^eval' exclude.out && fail "exclude: eval* still counted"
contains exclude "exclude eval*"
contains exclude "exclude value_?nt"
contains exclude 'error: functions include: "nosuch" is not excluded'
grep -q 'functions seen in this run, [1-9][0-9]* excluded' exclude.out ||
    fail "exclude: no functions excluded"

# the functions as events: the trace, a handler, the stacks
cat >events.tcl <<'TCL'
trace on ^(enter|leave)$
handler add enter places {
    if {$name eq "place"} { incr ::places }
}
set ::places 0
# the program's output in a file: it would race with the trace
run 4 >queens.prog
puts "places $::places"
TCL
batch events -x events.tcl "$QUEENS"
expect events

if [ "$compared" = 0 ]; then
    finish_status=77
fi
if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
exit "${finish_status:-0}"
