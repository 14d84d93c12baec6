#!/bin/sh
# SPDX-License-Identifier: MIT
# question-run.sh - questions answered in the program (make
# bench-question): what counting and summing one parameter costs the
# program per event, on the loop of bench/front-loop.c, which times each
# of its iterations itself:
#
#   (a) no monitor: the baseline;
#   (q) noosa, question add s hit n: count and sum of n, in the program;
#   (g) the same grouped by k (1000 groups, -keys 1024) with a histogram;
#   (h) noosa, the same count and sum by a handler: every event crosses
#       to noosa (the records path), for comparison.
#
# All with `errors last 0` (no post-mortem trail).  Three rounds
# interleaved, in two placements: everything on CPU 0, and noosa on CPU 0
# with the program on CPU 1.  Before a time counts, the run is checked:
# exit status 0, and the count and sum noosa reports are N and
# N(N-1)/2 (for (g), every group k has N/1000 events).  The figure of a
# run is the loop's trimmed mean (trim_ns); the median of the rounds is
# compared with the baseline.
#
# Sizes: N_PROG (a, q, g), N_NOOSA (h) in the environment.
set -e
B=${top_builddir:-.}
LOOP=$B/bench/front-loop
NOOSA=$B/src/noosa
N_PROG=${N_PROG:-1000000}
N_NOOSA=${N_NOOSA:-200000}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-question.XXXXXX")
trap 'rm -rf "$work"' EXIT

field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p"; }
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
die() { echo "$1 went wrong:"; cat "$2"; exit 1; }
line() {
    printf '  %-40s %9.1f ns  (median %s, p90 %s)\n' "$1" \
        "$(field trim_ns "$2")" "$(field median_ns "$2")" "$(field p90_ns "$2")"
}

bench() {
    place=$1 cpu=$2
    echo "== $place: noosa on CPU 0, the program on CPU $cpu"
    a= q= g= h=
    for r in 1 2 3; do
        f=$work/a$r
        LOOP_CPU=$cpu taskset -c 0 "$LOOP" "$N_PROG" "$f"
        line "(a) no monitor, round $r" "$f"
        a="$a $(field trim_ns "$f")"

        f=$work/q$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e 'errors last 0' \
            -e 'question print off' -e 'question add s hit n' -e run \
            -e 'set d [lindex [question get s] 0]' \
            -e 'puts "count [dict get $d count] sum [dict get $d sum]"' \
            "$LOOP" "$N_PROG" "$f" >"$f.log" 2>&1 || die "(q)" "$f.log"
        grep -q "^count $N_PROG sum $((N_PROG * (N_PROG - 1) / 2))\$" "$f.log" ||
            die "(q)" "$f.log"
        line "(q) question in the program, round $r" "$f"
        q="$q $(field trim_ns "$f")"

        f=$work/g$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e 'errors last 0' \
            -e 'question print off' -e 'question add g hit n -by k -hist -keys 1024' \
            -e run \
            -e 'set ok 0; foreach d [question get g] {if {[dict get $d count] == '"$((N_PROG / 1000))"'} {incr ok}}' \
            -e 'puts "groups $ok"' \
            "$LOOP" "$N_PROG" "$f" >"$f.log" 2>&1 || die "(g)" "$f.log"
        grep -q '^groups 1000$' "$f.log" || die "(g)" "$f.log"
        line "(g) by k, histogram, round $r" "$f"
        g="$g $(field trim_ns "$f")"

        f=$work/h$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e 'errors last 0' \
            -e 'set c 0; set s 0' \
            -e 'handler add hit h {incr ::c; incr ::s $n}' -e run \
            -e 'puts "count $c sum $s"' \
            "$LOOP" "$N_NOOSA" "$f" >"$f.log" 2>&1 || die "(h)" "$f.log"
        grep -q "^count $N_NOOSA sum $((N_NOOSA * (N_NOOSA - 1) / 2))\$" "$f.log" ||
            die "(h)" "$f.log"
        line "(h) handler in noosa, round $r" "$f"
        h="$h $(field trim_ns "$f")"
    done
    a=$(median3 $a) q=$(median3 $q) g=$(median3 $g) h=$(median3 $h)
    echo "  medians of 3 rounds, ns per event above the baseline (a) = $a ns:"
    awk -v a="$a" -v q="$q" -v g="$g" -v h="$h" 'BEGIN {
        printf "    (q) question, count and sum  %+8.1f\n", q - a
        printf "    (g) by k with a histogram    %+8.1f\n", g - a
        printf "    (h) handler in noosa         %+8.1f\n", h - a
        if (q - a >= 0.5)
            printf "    (h)/(q) = %.1f\n", (h - a) / (q - a)
        printf "    goal: (q) at most 10 ns above (a): %s\n",
            q - a <= 10 ? "met" : "not met"
    }'
}

bench "one CPU" 0
bench "two CPUs" 1
