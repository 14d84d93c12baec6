#!/bin/sh
# SPDX-License-Identifier: MIT
# handlers.sh - handlers with a condition (handler add ... -if COND) run
# at exactly the same events whether the condition is evaluated in the
# program or in noosa, for conditions the program evaluates and for
# conditions it cannot (which fall back to noosa); a handler with -if and
# -stop, whose program waits only where the condition holds; several
# handlers and a breakpoint on one event, each getting only its own
# events; handler list saying where each condition runs; handler save and
# load keeping the condition.  COND_SEED=N repeats a run.
. "$srcdir/tests/cond/lib.sh"

seed=${COND_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (COND_SEED=$seed repeats this run)"
N=400

# run NAME WHERE COND: the samples a handler with condition COND ran at,
# evaluated WHERE (program or noosa).
run() {
    batch "$1" -e "conditions $2" -e 'set got {}' \
        -e "handler add sample h {lappend ::got \$i} -if {$3}" -e run \
        -e 'puts "got [llength $got]: [join $got ,]"' \
        -e 'handler list' "$CV" samples $N "$seed"
}

result() { grep '^got' "$WORK/$1.out"; }
WHERE_PREFIX='^    '

compare program <<'CONDS'
$n == 3
$i >= 390 || $i < 5
$d < $n && $s ne ""
[string match a* $s]
CONDS
compare noosa <<'CONDS'
$i % 7 == 0
$t != 0 && $n > 0
CONDS

# -stop: the handler asks the program (n_send), which waits only where the
# condition holds when the program evaluates it; what it answers is the
# same either way.
for where in program noosa; do
    batch "stop-$where" -e "conditions $where" -e 'set got {}' \
        -e 'handler add sample h {lappend ::got "$i:[n_send total]"} -stop -if {$n == 3}' \
        -e run -e 'puts "got [join $got ,]"' -e 'handler list' \
        "$CV" samples $N "$seed"
    status "stop-$where" 0
    has "stop-$where" '^sample 0 "h" enabled, stops: '
done
a=$(grep '^got' "$WORK/stop-program.out")
b=$(grep '^got' "$WORK/stop-noosa.out")
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "got " ]; then
    echo "ok: -stop -if: the same answers" | cut -c1-100
else
    fail "-stop -if: in the program $a; in noosa $b"
fi
has stop-program '^    condition runs in the program: [0-9]+ checked'

# Several consumers' clauses in one filter: two handlers with different
# conditions, one without, and a breakpoint, on one event.  Each gets
# exactly the samples where its own condition holds, checked against what
# the unconditional handler saw.
cat >several.tcl <<'EOF2'
set all {}; set a {}; set b {}; set stops {}
handler add sample all {lappend ::all [list $i $n $l $d]}
handler add sample a {lappend ::a $i} -if {$n == 3}
handler add sample b {lappend ::b $i} -if {$l < 0 && $n > 5}
break sample if {$d > 100}
run
while {$n(status) eq "stopped"} {lappend stops $ev(i); cont}
set want(a) {}; set want(b) {}; set want(stops) {}
foreach s $all {
    lassign $s si sn sl sd
    if {$sn == 3} {lappend want(a) $si}
    if {$sl < 0 && $sn > 5} {lappend want(b) $si}
    if {$sd > 100} {lappend want(stops) $si}
}
foreach v {a b stops} {
    set ok [expr {[set $v] eq $want($v) ? "right" : "wrong"}]
    puts "$v $ok: [llength [set $v]] of [llength $all]"
}
handler list
info breakpoints
EOF2
for where in program noosa; do
    batch "several-$where" -e "conditions $where" -x several.tcl \
        "$CV" samples $N "$seed"
    status "several-$where" 0
    count "several-$where" 3 '^(a|b|stops) right: [0-9]+ of 400$'
done
count several-program 2 '^    condition runs in the program: 400 checked'
has several-program 'condition runs in the program: 400 checked'
count several-noosa 3 'condition runs in noosa'

# handler save writes the condition; handler load reads it back.
cat >files.tcl <<'EOF2'
handler add sample h {lappend ::got $i} -if {$n == 3 && $i < 200}
handler add other o {lappend ::others $i}
handler save h1.handlers
handler remove sample h
handler remove other o
handler load h1.handlers
handler save h2.handlers
set got {}; set others {}
run
puts "got [join $got ,]"
puts "others [llength $others]"
handler get sample
EOF2
batch files -x files.tcl "$CV" samples $N "$seed"
status files 0
if grep -q -F 'n_install_handler {sample 0 h 1 {lappend ::got $i} {$n == 3 && $i < 200}}' h1.handlers &&
    cmp -s h1.handlers h2.handlers; then
    echo "ok: handler files keep the condition"
else
    fail "handler files:"
    cat h1.handlers h2.handlers
fi
a=$(grep '^got' "$WORK/files.out")
b=$(grep '^got' "$WORK/p1.out" | sed 's/^got [0-9]*: //' | tr ',' '\n' |
    awk '$1 < 200' | paste -sd, -)
if [ -n "$b" ] && [ "$a" = "got $b" ]; then
    echo "ok: a loaded condition holds where it did"
else
    fail "loaded condition: $a, expected got $b"
fi
has files '^others 40$'

# Bad conditions are refused when the handler is added.
batch bad -e 'handler add sample h {} -if {$i <}' \
    -e 'handler add sample h {} -if' \
    -e 'n_install_handler {sample 0 h 1 {} {$i <}}' -e 'handler list' \
    "$CV" samples 1 1
count bad 2 'bad condition "\$i <"'
has bad 'handler add: -if needs a condition'
has bad '^No handlers\.'
finish
