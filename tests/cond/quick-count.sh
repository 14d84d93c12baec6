#!/bin/sh
# SPDX-License-Identifier: MIT
# quick-count.sh - a question's plain count as a quick clause
# <protocol#quick>: a question of no key, no value and no condition is
# counted by the encoder itself, exactly, in each thread (also of an
# event with no integer parameter, which has no comparison); a question
# reset, deleted, its window closed or a condition added to its event
# mid-run is never counted from the stale entry.
. "$srcdir/tests/cond/lib.sh"

# 10000 samples, an `other` every tenth (1000), all counted; all but the
# first few by the encoder
batch plain -e 'question add q other' -e run "$CV" samples 10000 1
status plain 0
has plain '^ +1000 events counted by the program in 1 thread'
has plain '^samples: 99[0-9] decided by quick clauses$'

# an event with no integer parameter (a string alone): its count quick too
batch word -e 'question add q word' -e run "$CV" samples 10000 1
status word 0
has word '^ +1000 events counted by the program in 1 thread'
has word '^samples: 99[0-9] decided by quick clauses$'

# threads: each its own entries and its own question entry
batch thr -e 'question add q other' -e run "$CV" threads 4 10000 1
status thr 0
has thr '^ +4000 events counted by the program in 4 threads'

# reset at sample 5000: the other 500 counted anew, quickly again
batch reset -e 'question add q other' -e 'break sample if {$i == 5000}' -e run \
    -e 'question reset q' -e cont "$CV" samples 10000 1
status reset 0
has reset '^ +500 events counted by the program in 1 thread'
has reset '^samples: 49[0-9] decided by quick clauses$'

# deleted at sample 5000: nothing counted quickly from then on
batch del -e 'question add q other' -e 'break sample if {$i == 5000}' -e run \
    -e 'question delete q' -e cont "$CV" samples 10000 1
status del 0
has del '^samples: 49[0-9] decided by quick clauses$'

# the window closed at sample 5000: the rest not counted
batch win -e 'question add q other' -e 'break sample if {$i == 5000}' -e run \
    -e 'question window off' -e cont "$CV" samples 10000 1
status win 0
has win '^ +500 events counted by the program in 1 thread'
has win '^samples: 49[0-9] decided by quick clauses$'

# a breakpoint on the event added at sample 5000 stops at its very next
# event; deleted, the count goes on quickly: every event counted once
batch cond -e 'question add q other' -e 'break sample if {$i == 5000}' -e run \
    -e 'break other if {$i == 7000}' -e cont -e 'puts "at $ev(n_ename) $ev(i)"' \
    -e 'delete 2' -e cont "$CV" samples 10000 1
status cond 0
has cond '^at other 7000$'
has cond '^ +1000 events counted by the program in 1 thread'
has cond '^samples: 79[0-9] decided by quick clauses$'

# a key, or a value: the runtime counts them
batch keyed -e 'question add q other -by i' -e run "$CV" samples 10000 1
has keyed '^samples: 0 decided by quick clauses$'
finish
