#!/bin/sh
# SPDX-License-Identifier: MIT
# swap.sh - filters changed while the program runs: eight threads emit
# samples while a handler on another event (every tenth sample) replaces
# the breakpoint's condition again and again, so that noosa rewrites the
# event's filter in the program's shared region under threads reading
# it <protocol#filter>.  Nothing breaks: no protocol error, no crash, the
# program ends normally, and every stop satisfies one of the conditions
# that were in force.  `make check-stress` repeats it.
. "$srcdir/tests/cond/lib.sh"

T=8
N=${SWAP_N:-4000}
seed=${COND_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (COND_SEED=$seed repeats this run)"

# The handler turns between three conditions and never stops the program
# (it calls no operation); the breakpoint stops, and each stop is checked
# against the three.
batch swap -e 'set k 0; set bad 0; set stops 0' \
    -e 'set conds {{$n == 10} {$s eq "tick" && $d > 0} {$l < -999000000}}' \
    -e 'break sample if {$n == 10}' \
    -e 'handler add other swap {global k conds; delete; incr k; ::noosa::cmd::break sample if [lindex $conds [expr {$k % 3}]]}' \
    -e run \
    -e 'while {$n(status) eq "stopped"} {
            incr stops
            if {!($ev(n) == 10 || ($ev(s) eq "tick" && $ev(d) > 0) ||
                  $ev(l) < -999000000)} {incr bad; puts "bad stop: [array get ev]"}
            cont
        }' \
    -e 'puts "stops $stops bad $bad swaps $k"' "$CV" threads $T $N "$seed"
status swap 0
has swap "^threads: $T x $N samples\$"
has swap '^stops [0-9]+ bad 0 swaps [0-9]+$'
count swap 0 'protocol error|error:'
finish
