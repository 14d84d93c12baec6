#!/bin/sh
# SPDX-License-Identifier: MIT
# trace.sh - the trace with a condition (trace on ?REGEX? -if COND) shows
# exactly the same events whether the condition is evaluated in the
# program or in noosa, for conditions the program evaluates and for those
# it cannot; an event without a variable the condition reads is not
# traced; `trace` says where the condition runs at each event.
# COND_SEED=N repeats a run.
. "$srcdir/tests/cond/lib.sh"

seed=${COND_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (COND_SEED=$seed repeats this run)"
N=400

# run NAME WHERE REGEX|COND: the trace of cv with filter REGEX and
# condition COND evaluated WHERE; its status after the run.
run() {
    regex=${3%%|*}
    cond=${3#*|}
    batch "$1" -e "conditions $2" -e "trace on {$regex} -if {$cond}" -e run \
        -e 'puts [::noosa::cmd::trace]' "$CV" samples $N "$seed"
}

# result NAME: the events run NAME traced, as EVENT:I, on one line.
result() {
    sed -n 's/^\(sample\|other\) i=\([0-9]*\)\( .*\)\{0,1\}$/\1:\2/p' "$WORK/$1.out" |
        paste -sd, -
}

WHERE_PREFIX='^  sample: '

compare program <<'CONDS'
sample|$n == 3
sample|$s eq "tick" || $d > 120
.|$i < 35
CONDS
compare noosa <<'CONDS'
sample|$i % 9 == 1
.|$i % 20 == 0
CONDS

# Events without a parameter the condition reads are not traced; other
# (which has i) is traced where the condition holds, in the program.
for where in program noosa; do
    run "lacks-$where" "$where" '.|$n == 3 || $i == 30'
    status "lacks-$where" 0
    has "lacks-$where" '^  other: not traced \(no variable the condition reads\)'
    count "lacks-$where" 0 '^other '
done
has lacks-program '^  sample: condition runs in the program: 400 checked'
run reads program '.|$i == 30'
status reads 0
has reads '^other i=30$'
has reads '^  other: condition runs in the program: 40 checked, 1 passed'
# read inside a command substitution: the events without i (init, exit)
# fail in noosa, quietly, and are not traced
run subst program '.|[set i] < 2'
status subst 0
count subst 3 '^(sample|other) i='
count subst 0 'error'

# Bad conditions are refused; other errors are reported once.
batch bad -e 'trace on -if {$i <}' -e 'trace on sample -if {$i / 0}' \
    -e run -e 'puts [::noosa::cmd::trace]' "$CV" samples 5 1
has bad 'bad condition "\$i <"'
count bad 1 'divide by zero'
count bad 0 '^sample i='
finish
