#!/bin/sh
# SPDX-License-Identifier: MIT
# counts.sh - conditions in the program under threads, and their counts:
# 8 threads of samples with a condition compiled into the program stop
# at exactly the samples the same condition stops at in noosa; the
# program's counts are exact (checked: every sample; passed: the stops),
# each thread counting in its own slot <protocol#counters>; hit counting
# (every, after, count) gives the same stops in both places.
. "$srcdir/tests/cond/lib.sh"

T=8
N=3000
seed=${COND_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (COND_SEED=$seed repeats this run)"

# run NAME WHERE BREAK ARGS...: the samples run NAME stopped at, sorted.
run() {
    name=$1 where=$2 bp=$3
    shift 3
    batch "$name" -e "conditions $where" -e "$bp" \
        -e 'set hits {}' -e run \
        -e 'while {$n(status) eq "stopped"} {lappend hits $ev(i); cont}' \
        -e 'puts "hits [llength $hits]: [join [lsort -integer $hits] ,]"' \
        -e 'info breakpoints' -e 'info events -v' "$CV" "$@"
}

same() {
    a=$(grep '^hits' "$WORK/$1.out")
    b=$(grep '^hits' "$WORK/$2.out")
    if [ -n "$a" ] && [ "$a" = "$b" ]; then
        echo "ok: $1 and $2: $a" | cut -c1-100
    else
        fail "$1 and $2 differ: $a; $b"
    fi
}

run tp program 'break sample if {$n == 10 && $d > 0}' threads $T $N "$seed"
run tn noosa 'break sample if {$n == 10 && $d > 0}' threads $T $N "$seed"
status tp 0
status tn 0
same tp tn
stops=$(sed -n 's/^hits \([0-9]*\):.*/\1/p' "$WORK/tp.out")
has tp "condition runs in the program: $((T * N)) checked, $stops passed"
has tp "^threads: $T x $N samples\$"
has tp "conditions in the program: $((T * N)) checked, $((T * N)) went on"
count tn 0 'conditions in the program:'

# Hit counting, with and without a condition.
for spec in 'if {$n > 0} every 3' 'if {$n > 0} after 5 count 4' \
    'if {$s eq "abc"} every 2 after 1 count 3' 'every 7 after 3' 'count 2'; do
    k=${k:-0}
    k=$((k + 1))
    run "hp$k" program "break sample $spec" samples 300 "$seed"
    run "hn$k" noosa "break sample $spec" samples 300 "$seed"
    status "hp$k" 0
    status "hn$k" 0
    same "hp$k" "hn$k"
    has "hp$k" 'condition runs in the program'
done
# count 2: exactly the first two samples
has hp5 '^hits 2: 0,1$'
# every 7 after 3: samples 9, 16, 23, ... (the 10th, 17th, ... hits)
has hp4 '^hits 42: 9,16,23,'
# Bad words are refused with a message, and nothing is set.
batch bad -e 'conditions elsewhere' -e 'break sample if {$n > 0} every 0' \
    -e 'break sample every x' -e 'break sample after -1' \
    -e 'break sample if {$n > 0} count 4294967296' -e 'info breakpoints' \
    -e conditions "$CV" samples 1 1
status bad 1
has bad 'bad place "elsewhere": must be program or noosa'
has bad 'break: every wants a number from 1 to 4294967295, got "0"'
has bad 'break: every wants a number from 1 to 4294967295, got "x"'
has bad 'break: after wants a number from 0 to 4294967295, got "-1"'
has bad 'break: count wants a number from 0 to 4294967295, got "4294967296"'
has bad '^No breakpoints\.$'
has bad '^program$'
finish
