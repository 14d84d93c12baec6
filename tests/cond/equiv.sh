#!/bin/sh
# SPDX-License-Identifier: MIT
# equiv.sh - a condition compiled into the program stops at exactly the
# events where the same condition evaluated in noosa stops, for every
# shape the compiler takes (comparisons of each kind of parameter with
# constants and with each other, &&, ||, !, string equality and glob, the
# thread), over samples chosen to hit the edges; and "info breakpoints"
# says where each ran.  COND_SEED=N repeats a run.
. "$srcdir/tests/cond/lib.sh"

seed=${COND_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (COND_SEED=$seed repeats this run)"
N=400

# run NAME WHERE COND: the numbers of the samples run NAME stopped at,
# with the condition evaluated WHERE (program or noosa).
run() {
    batch "$1" -e "conditions $2" -e "break sample if {$3}" \
        -e 'set hits {}' -e run \
        -e 'while {$n(status) eq "stopped"} {lappend hits $ev(i); cont}' \
        -e 'puts "hits [llength $hits]: [join $hits ,]"' \
        -e 'info breakpoints' "$CV" samples $N "$seed"
}

result() { grep '^hits' "$WORK/$1.out"; }

compare program <<'CONDS'
$i < 0
$i >= 390
$n == 3
$n != 0 && $l < 0
$d >= 1.5 || $n <= -9
!($n > 2)
!($n > 2) && !($d < 0)
$l > 1000000 || $l < -1000000
$n == $i
$d < $n
$d == -0.5
$l <= $n
$s eq "abc"
$s ne ""
$s == "tick"
$s eq {a*b}
[string match a* $s]
[string match {\[x\]} $s]
[string match {*?} $s] && $n > 0
[string match {[a-b]*} $s]
$p == 0
$p != 0
$n_thread > 0
$i < 10 || ($n > 5 && ($s eq "tock" || $d > 100))
0x10 < $i && $i < 0x20
CONDS

# Shapes the program does not evaluate: the program's own types (their
# values are what the program makes of them), arithmetic, other commands,
# n_ename: evaluated in noosa whatever "conditions" says.
compare noosa <<'CONDS'
$t != 0
$p != 0 && $t == 0
$i % 7 == 0
[expr {$n + 1}] > 5
$n_ename eq "sample" && $i < 5
CONDS
finish
