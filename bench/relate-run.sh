#!/bin/sh
# SPDX-License-Identifier: MIT
# relate-run.sh - relations between events (make bench-relate): what a
# question within a component and a question on a derived event cost the
# program per event, over the same question without the relation, on
# bench/relate-loop.c (hit(n, k) inside the named component work), with
# noosa's defaults (nothing turned off), two shapes:
#
#   block   work entered once every 1000 hits (the component's enter and
#           leave are rare: the test of a component is what counts)
#   each    work entered and left around every hit (each event also pays
#           the program's stack: one push and one pop)
#
# Rows, each ns per iteration of the loop above the baseline (a):
#
#   (a) no monitor;
#   (n) noosa, nothing asked;
#   (q) question add q hit: a count in the program;
#   (w) question add q hit -within work;
#   (o) question add q hit -outside work (nothing counted);
#   (c) derive d work -contains hit; question add q d: a count of the
#       derived events (one per execution of work) in the program;
#   (k) the same, by k of the first hit (a derived event's parameter).
#
# Before a time counts, the run is checked: exit status 0 and the count
# noosa reports (N for q and w; 0 for o; N/1000 or N for c and k).  Three
# rounds interleaved, in two placements: everything on CPU 0, and noosa on
# CPU 0 with the program on CPU 1; the median of the rounds is compared
# with the baseline.  Size: N in the environment (default 2000000).
# TRAIL=off in the environment turns the post-mortem trail off in every
# noosa run (errors last 0), to see the relations' own cost apart from
# the trail's (the defaults keep every event in it).
set -e
B=${top_builddir:-.}
LOOP=$B/bench/relate-loop
NOOSA=$B/src/noosa
N=${N:-2000000}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-relate.XXXXXX")
trap 'rm -rf "$work"' EXIT

field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p"; }
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
die() { echo "$1 went wrong:"; cat "$2"; exit 1; }

# run ROW SHAPE CPU FILE EXPECT CMD...: the loop under noosa with the
# commands CMD, which print "count C"; C must be EXPECT.
run() {
    row=$1 shape=$2 cpu=$3 f=$4 expect=$5
    shift 5
    LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e 'question print off' \
        -e "$([ "${TRAIL:-}" = off ] && echo 'errors last 0' || echo '# defaults')" "$@" \
        "$LOOP" "$shape" "$N" "$f" >"$f.log" 2>&1 || die "($row)" "$f.log"
    if [ -n "$expect" ]; then
        grep -q "^count $expect\$" "$f.log" || die "($row) count" "$f.log"
    fi
}

COUNT='set t_ 0; foreach d_ [question get q] {incr t_ [dict get $d_ count]}; puts "count $t_"'

bench() {
    place=$1 cpu=$2 shape=$3
    per=$([ "$shape" = each ] && echo "$N" || echo $((N / 1000)))
    echo "== $place, $shape: noosa on CPU 0, the program on CPU $cpu"
    a= n= q= w= o= c= k=
    for r in 1 2 3; do
        f=$work/a$r
        LOOP_CPU=$cpu taskset -c 0 "$LOOP" "$shape" "$N" "$f"
        a="$a $(field ns "$f")"
        f=$work/n$r
        run n "$shape" "$cpu" "$f" "" -e run
        n="$n $(field ns "$f")"
        f=$work/q$r
        run q "$shape" "$cpu" "$f" "$N" -e 'question add q hit' -e run -e "$COUNT"
        q="$q $(field ns "$f")"
        f=$work/w$r
        run w "$shape" "$cpu" "$f" "$N" -e 'question add q hit -within work' -e run \
            -e "$COUNT"
        w="$w $(field ns "$f")"
        f=$work/o$r
        run o "$shape" "$cpu" "$f" "" -e 'question add q hit -outside work' -e run \
            -e 'puts "none [llength [question get q]]"'
        grep -q '^none 0$' "$f.log" || die "(o) count" "$f.log"
        o="$o $(field ns "$f")"
        f=$work/c$r
        run c "$shape" "$cpu" "$f" "$per" -e 'derive d work -contains hit' \
            -e 'question add q d' -e run -e "$COUNT"
        c="$c $(field ns "$f")"
        f=$work/k$r
        run k "$shape" "$cpu" "$f" "$per" -e 'derive d work -contains hit' \
            -e 'question add q d -by k -keys 1024' -e run -e "$COUNT"
        k="$k $(field ns "$f")"
        echo "  round $r: a $(field ns "$work/a$r") n $(field ns "$work/n$r")" \
             "q $(field ns "$work/q$r") w $(field ns "$work/w$r")" \
             "o $(field ns "$work/o$r") c $(field ns "$work/c$r") k $(field ns "$work/k$r")"
    done
    a=$(median3 $a) n=$(median3 $n) q=$(median3 $q) w=$(median3 $w)
    o=$(median3 $o) c=$(median3 $c) k=$(median3 $k)
    echo "  medians of 3 rounds, ns per event above the baseline (a) = $a ns:"
    awk -v a="$a" -v n="$n" -v q="$q" -v w="$w" -v o="$o" -v c="$c" -v k="$k" 'BEGIN {
        printf "    (n) nothing asked                     %+8.1f\n", n - a
        printf "    (q) question add q hit                %+8.1f\n", q - a
        printf "    (w) ... -within work                  %+8.1f  (%+.1f over q)\n", w - a, w - q
        printf "    (o) ... -outside work                 %+8.1f  (%+.1f over q)\n", o - a, o - q
        printf "    (c) question on a derived event       %+8.1f  (%+.1f over q)\n", c - a, c - q
        printf "    (k) ... by a parameter of its B       %+8.1f  (%+.1f over q)\n", k - a, k - q
    }'
}

bench "one CPU" 0 block
bench "two CPUs" 1 block
bench "one CPU" 0 each
bench "two CPUs" 1 each
