#!/bin/sh
# SPDX-License-Identifier: MIT
# monitors.sh - a monitor's subscription with a condition (n_monitor ...
# -on EVENT BODY -if COND) runs at exactly the same events whether the
# condition is evaluated in the program or in noosa, for conditions the
# program evaluates and for those it cannot; a monitor with conditional
# and unconditional subscriptions to one event beside a breakpoint gets
# only its own events; monitor list says where each condition runs.
# COND_SEED=N repeats a run.
. "$srcdir/tests/cond/lib.sh"

seed=${COND_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (COND_SEED=$seed repeats this run)"
N=400

# run NAME WHERE COND: the samples monitor m's conditional subscription
# ran at, with COND evaluated WHERE.
run() {
    batch "$1" -e "conditions $2" \
        -e "n_monitor m -on sample {variable got; lappend got \$i} -if {$3}" \
        -e 'namespace eval ::noosa::monitor::m {set got {}}' -e run \
        -e 'puts "got [llength $::noosa::monitor::m::got]: [join $::noosa::monitor::m::got ,]"' \
        -e 'monitor list' "$CV" samples $N "$seed"
}

result() { grep '^got' "$WORK/$1.out"; }
WHERE_PREFIX='^      at sample: '

compare program <<'CONDS'
$n == 3
$p == 0 && $l > 0
!($d >= -100) || $s eq ""
CONDS
compare noosa <<'CONDS'
$i % 11 == 0
$n_ename eq "sample" && $n < -8
CONDS

# One monitor, two conditional subscriptions and one without on sample, a
# subscription to other, and a breakpoint on sample: each gets exactly
# its own events.
cat >several.tcl <<'EOF2'
n_monitor m -description "conditions" \
    -on sample {variable all; lappend all [list $i $n $d]} \
    -on sample {variable a; lappend a $i} -if {$n == 3} \
    -on cond.sample {variable b; lappend b $i} -if {$n < -5 && $d > 0} \
    -on other {variable o; lappend o $i} -if {$i > 200}
namespace eval ::noosa::monitor::m {set all {}; set a {}; set b {}; set o {}}
set stops {}
break sample if {$d < -110}
run
while {$n(status) eq "stopped"} {lappend stops $ev(i); cont}
namespace eval ::noosa::monitor::m {}
set want(a) {}; set want(b) {}; set want(stops) {}; set want(o) {}
foreach s $::noosa::monitor::m::all {
    lassign $s si sn sd
    if {$sn == 3} {lappend want(a) $si}
    if {$sn < -5 && $sd > 0} {lappend want(b) $si}
    if {$sd < -110} {lappend want(stops) $si}
    if {$si % 10 == 0 && $si > 200} {lappend want(o) $si}
}
foreach v {a b o} {
    set got [set ::noosa::monitor::m::$v]
    puts "$v [expr {$got eq $want($v) ? "right" : "wrong"}]: [llength $got]"
}
puts "stops [expr {$stops eq $want(stops) ? "right" : "wrong"}]: [llength $stops]"
monitor list
EOF2
for where in program noosa; do
    batch "several-$where" -e "conditions $where" -x several.tcl \
        "$CV" samples $N "$seed"
    status "several-$where" 0
    count "several-$where" 4 '^(a|b|o|stops) right: [0-9]+$'
done
count several-program 2 '^      at sample: condition runs in the program: 400 checked'
has several-program '^      at other: condition runs in the program: 40 checked'
count several-noosa 3 '^      at (sample|other): condition runs in noosa'
has several-program '^    sample if \$n == 3$'
has several-program '^    cond.sample if \$n < -5 && \$d > 0$'

# -if follows -on EVENT BODY, with a condition that parses.
batch bad -e 'n_monitor x -if {$i}' -e 'n_monitor x -post p {} -if {1}' \
    -e 'n_monitor x -on sample {} -if {$i <}' -e 'n_monitor x -on sample {} -if' \
    -e 'n_monitor x -on sample {} -stop -if {$i}' \
    -e 'puts "names [monitor names]"' "$CV" samples 1 1
count bad 3 '\-if CONDITION follows -on EVENT BODY'
has bad 'n_monitor: bad condition "\$i <"'
has bad 'n_monitor: -if needs a condition'
count bad 0 '^names .*\bx\b'
finish
