#!/bin/sh
# SPDX-License-Identifier: MIT
# quick.sh - quick clauses <protocol#quick>: a condition that never holds
# is decided by the encoder itself, counted exactly; a quick clause made
# stale by a change of the event's filter is never used (the breakpoint
# made true stops at the very next event), nor one of a condition that
# holds, nor of an event counted in the frequency profile.
. "$srcdir/tests/cond/lib.sh"

# 10000 samples, an `other` every tenth (1000): a never-true condition on
# `other`, decided by its encoder from its second or third event on
batch never -e 'break other if {$i < 0}' -e run -e 'info breakpoints' "$CV" samples 10000 1
status never 0
has never '^ +condition runs in the program: 1000 checked, 0 passed$'
has never '^samples: 99[0-9] decided by quick clauses$'

# stopped at sample 5000 (another event's breakpoint), a breakpoint that
# holds added on `other`: the next `other` (5000, right after) stops,
# its quick clause of before not used while the two clauses are; with
# the second deleted, the first is quick again (about 500 + 500)
batch stale -e 'break other if {$i < 0}' -e 'break sample if {$i == 5000}' -e run \
    -e 'puts "first at $ev(n_ename) $ev(i)"' -e 'break other if {$i >= 0}' -e cont \
    -e 'puts "then at $ev(n_ename) $ev(i)"' -e 'delete 3' -e cont -e 'info breakpoints' \
    "$CV" samples 10000 1
status stale 0
has stale '^first at sample 5000$'
has stale '^then at other 5000$'
has stale '^ +condition runs in the program: 1000 checked, 0 passed$'
has stale '^samples: 99[0-9] decided by quick clauses$'

# a condition true from sample 5000 on: its false events decided
# quickly, every true one stops
batch lt -e 'set stops 0' -e 'break other if {$i > 4990}' -e run \
    -e 'while {$n(status) eq "stopped"} {incr stops; cont}' -e 'puts "stops $stops"' \
    "$CV" samples 10000 1
has lt '^stops 500$'
has lt '^samples: 49[0-9] decided by quick clauses$'

# the frequency profile counts every event in the program's call tree: its
# events are asked of the runtime
batch freq -e 'profile freq on' -e 'profile print off' -e 'break other if {$i < 0}' -e run \
    -e 'foreach r [profile get freq] {puts $r}' "$CV" samples 10000 1
has freq '^event other stack \{\(top level\)\} count 1000$'
has freq '^samples: 0 decided by quick clauses$'
finish
