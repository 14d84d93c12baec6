#!/bin/sh
# SPDX-License-Identifier: MIT
# signals.sh - a signal handler's events among a thread's own, every
# 100 us, landing anywhere in the encoding and filtering of the events
# it interrupts: every one checked and counted by the filters' own
# counters in the thread's slot <protocol#counters>, whether the
# generated encoder's quick clauses decide (a never-true condition, a
# plain count <protocol#quick>) or the runtime's kept clauses (a
# question by a key, with a histogram), and every one in the question's
# table, with its key and value, also when the handler's key is the one
# the thread is counting: a handler's event that comes while its thread
# counts is kept and counted when the thread lets go <protocol#question>.
# Before, a handler's count between the thread's load and store of the
# same counter was lost (some 30 of 3 million on one CPU), and of the
# same entry (about 20 of 1300 handler events), or all of its first few
# while the thread cleared its table; then, with the thread's 8 places
# for them taken while it cleared its table for a millisecond or more
# (its pages faulted in), the next ones were counted into the table it
# was clearing, and cleared (3 to 6 of them, in 1 run of 5, and in every
# run with a table of 1024 keys).
. "$srcdir/tests/load/lib.sh"

N=2000000
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

# run NAME CMD... [-- LABEL]: lt signals N [LABEL] under noosa --batch -n
# -e CMD..., on CPU 0;
# MAIN and ALARM the ticks the program says it emitted.
run() {
    name=$1
    shift
    label=
    for c in "$@"; do
        shift
        if [ "$c" = -- ]; then
            label=$1
            shift
            break
        fi
        set -- "$@" -e "$c"
    done
    LT_CPU=0 $pin timeout -k 5 120 "$NOOSA" --batch -n "$@" "$LT" signals $N $label \
        </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
    status "$name" 0
    main=$(sed -n 's/^signals: \([0-9]*\) main, [0-9]* alarm$/\1/p' "$WORK/$name.out")
    alarm=$(sed -n 's/^signals: [0-9]* main, \([0-9]*\) alarm$/\1/p' "$WORK/$name.out")
    if [ "$main" = $N ] && [ "${alarm:-0}" -gt 100 ]; then
        echo "ok: $name: $main ticks, $alarm from the handler"
    else
        fail "$name: the program said ${main:-nothing} main, ${alarm:-no} alarm (expected $N, more than 100)"
        show "$name"
    fi
    all=$((N + ${alarm:-0}))
}

# same NAME WHAT GOT WANT
same() {
    if [ "$3" = "$4" ]; then
        echo "ok: $1: $2 $3"
    else
        fail "$1: $2 ${3:-none}, expected $4"
        show "$1"
    fi
}

# checked NAME: the condition's count of events checked
checked() {
    sed -n 's/.*condition runs in the program: \([0-9]*\) checked, \([0-9]*\) passed$/\1 \2/p' \
        "$WORK/$1.out"
}
# row NAME LABEL: count, sum, min and max of a keyed question's row
row() {
    awk -v l="$2" '$1 == l { print $2, $3, $4, $5; exit }' "$WORK/$1.out"
}
# lost NAME: a question's handler events not counted (0: none said)
lost() {
    awk '/events of signal handlers were not counted/ { n = $1 } END { print n + 0 }' \
        "$WORK/$1.out"
}
# qcounts NAME: a question's "checked C, recorded R"
qcounts() {
    sed -n 's/^  checked \([0-9]*\), recorded \([0-9]*\)$/\1 \2/p' "$WORK/$1.out"
}

# a never-true condition, decided by the encoder's quick clause
run never 'break tick if {$i < 0}' run 'info breakpoints'
same never "checked, passed" "$(checked never)" "$all 0"

# a plain count, decided by the encoder's quick clause in count mode
run count 'question print off' 'question add q tick' run 'question show q'
same count "checked, recorded" "$(qcounts count)" "$all $all"

# a question by a string key with a histogram, counted by the runtime
# from its kept clause, beside a never-true condition
run keyed 'question print off' 'question add k tick i -by label -hist' \
    'break tick if {$i < 0}' run 'question show k' 'info breakpoints'
same keyed "checked, recorded" "$(qcounts keyed)" "$all $all"
same keyed "condition's checked, passed" "$(checked keyed)" "$all 0"
# count sum min max of i: 0 .. N-1 from the thread, 0 .. alarm-1 from
# the handler
same keyed "the thread's count, sum, min, max" "$(row keyed main)" \
    "$N $((N * (N - 1) / 2)) 0 $((N - 1))"
same keyed "the handler's count, sum, min, max" "$(row keyed alarm)" \
    "$alarm $((alarm * (alarm - 1) / 2)) 0 $((alarm - 1))"

# the same with the handler's ticks labelled as the thread's: one entry
run same 'question print off' 'question add k tick i -by label -hist' run \
    'question show k' -- main
same same "checked, recorded" "$(qcounts same)" "$all $all"
same same "count, sum, min, max" "$(row same main)" \
    "$all $((N * (N - 1) / 2 + alarm * (alarm - 1) / 2)) 0 $((N - 1))"
same same "rows" "$(grep -c '^  alarm ' "$WORK/same.out")" 0

# the same with a table of 1024 keys with histograms (1.2 MB): its first
# clearing takes milliseconds, dozens of handler events come meanwhile,
# added to the ones kept
run large 'question print off' 'question add k tick i -by label -hist -keys 1024' run \
    'question show k' -- main
same large "checked, recorded" "$(qcounts large)" "$all $all"
same large "count, sum, min, max" "$(row large main)" \
    "$all $((N * (N - 1) / 2 + alarm * (alarm - 1) / 2)) 0 $((N - 1))"
same large "lost" "$(lost large)" 0

# the handler's ticks labelled h0 .. h31 in turn: those that come while
# the thread clears its table, of more keys than it keeps, are counted
# as lost, never into the table being cleared
run many 'question print off' 'question add k tick i -by label -hist -keys 1024' run \
    'question show k' -- many
same many "checked, recorded" "$(qcounts many)" "$all $all"
same many "the thread's count, sum, min, max" "$(row many main)" \
    "$N $((N * (N - 1) / 2)) 0 $((N - 1))"
same many "the handler's ticks counted, and lost" \
    "$(awk '$1 ~ /^h[0-9]+$/ { n += $2 } END { print n + 0 }' "$WORK/many.out") $(lost many)" \
    "$((alarm - $(lost many))) $(lost many)"
finish
