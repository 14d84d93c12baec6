#!/bin/sh
# SPDX-License-Identifier: MIT
# cond-run.sh - conditions in the program (make bench-cond): what a
# breakpoint whose condition is false costs the program per hit, on the
# loop of bench/front-loop.c, which times each of its iterations itself:
#
#   (a) no monitor: the baseline;
#   (a') noosa without a breakpoint: what its defaults cost (the
#       post-mortem trail of `errors last 10` takes every event);
#   (b) noosa, the condition in the program (`conditions program`, the
#       default): break hit if {$n < 0}
#   (b') the same with `errors last 0`, without the post-mortem trail;
#   (c) noosa, the same condition in noosa (`conditions noosa`);
#   (d) gdb: break loop_hit if n < 0 (skipped when gdb is missing).
#
# Each, three rounds interleaved, in two placements: everything on CPU 0,
# and the monitor on CPU 0 with the program on CPU 1 (the loop pins itself
# from LOOP_CPU, since noosa starts it).  The figure of a run is the mean
# of the middle 80% of its iterations' times (the loop's trim_ns); the
# median over the rounds is compared with the baseline.  Before a time
# counts, the run is checked: no stop, exit status 0, and for (b) `info
# breakpoints` says the program checked the condition at every iteration
# and it never passed.  Then a sanity check: a condition true every 1000th
# hit stops exactly that many times, in the program and in noosa.
#
# Sizes: N_PROG (a, b), N_NOOSA (c), N_GDB (d), N_SANE in the environment.
set -e
B=${top_builddir:-.}
LOOP=$B/bench/front-loop
NOOSA=$B/src/noosa
N_PROG=${N_PROG:-200000}
N_NOOSA=${N_NOOSA:-20000}
N_GDB=${N_GDB:-5000}
N_SANE=${N_SANE:-20000}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-cond.XXXXXX")
trap 'rm -rf "$work"' EXIT

have_gdb=
if [ -n "${GDB:-}" ] && [ "$GDB" != no ] && command -v "$GDB" >/dev/null; then
    have_gdb=1
fi

field() { # field KEY FILE
    tr ' ' '\n' <"$2" | sed -n "s/^$1=//p"
}
median3() {
    printf '%s\n' "$@" | sort -n | sed -n 2p
}
die() { # die WHAT LOG
    echo "$1 went wrong:"
    cat "$2"
    exit 1
}
# ran_clean LOG: the program never stopped and exited with status 0
ran_clean() {
    ! grep -q '^Stopped' "$1" &&
        grep -q '^Program exited with status 0\.$' "$1"
}
# line LABEL FILE: one run's figures
line() {
    printf '  %-38s %9.1f ns  (median %s, p90 %s)\n' "$1" \
        "$(field trim_ns "$2")" "$(field median_ns "$2")" "$(field p90_ns "$2")"
}

# bench PLACEMENT CPU: everything pinned to CPU 0, the loop to CPU.
bench() {
    place=$1 cpu=$2
    echo "== $place: noosa and gdb on CPU 0, the program on CPU $cpu"
    a= an= b= bl= c= d=
    for r in 1 2 3; do
        f=$work/a$r
        LOOP_CPU=$cpu taskset -c 0 "$LOOP" "$N_PROG" "$f"
        line "(a) no monitor, round $r" "$f"
        a="$a $(field trim_ns "$f")"

        f=$work/an$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e run \
            "$LOOP" "$N_PROG" "$f" >"$f.log" 2>&1 || die "(a')" "$f.log"
        ran_clean "$f.log" || die "(a')" "$f.log"
        line "(a') noosa, no breakpoint, round $r" "$f"
        an="$an $(field trim_ns "$f")"

        f=$work/b$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n \
            -e 'break hit if {$n < 0}' -e run -e 'info breakpoints' \
            "$LOOP" "$N_PROG" "$f" >"$f.log" 2>&1 || die "(b)" "$f.log"
        ran_clean "$f.log" &&
            grep -q "condition runs in the program: $N_PROG checked, 0 passed\$" \
                "$f.log" || die "(b)" "$f.log"
        line "(b) in the program, round $r" "$f"
        b="$b $(field trim_ns "$f")"

        f=$work/bl$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e 'errors last 0' \
            -e 'break hit if {$n < 0}' -e run -e 'info breakpoints' \
            "$LOOP" "$N_PROG" "$f" >"$f.log" 2>&1 || die "(b')" "$f.log"
        ran_clean "$f.log" &&
            grep -q "condition runs in the program: $N_PROG checked, 0 passed\$" \
                "$f.log" || die "(b')" "$f.log"
        line "(b') the same, errors last 0, round $r" "$f"
        bl="$bl $(field trim_ns "$f")"

        f=$work/c$r
        LOOP_CPU=$cpu taskset -c 0 "$NOOSA" -b -n -e 'conditions noosa' \
            -e 'break hit if {$n < 0}' -e run -e 'info breakpoints' \
            "$LOOP" "$N_NOOSA" "$f" >"$f.log" 2>&1 || die "(c)" "$f.log"
        ran_clean "$f.log" && grep -q 'condition runs in noosa' "$f.log" ||
            die "(c)" "$f.log"
        line "(c) in noosa, round $r" "$f"
        c="$c $(field trim_ns "$f")"

        if [ -n "$have_gdb" ]; then
            f=$work/d$r
            LOOP_CPU=$cpu taskset -c 0 "$GDB" -batch -nx \
                -ex 'break loop_hit if n < 0' -ex run \
                --args "$LOOP" "$N_GDB" "$f" >"$f.log" 2>&1 || die "(d)" "$f.log"
            # the loop only writes its figures when it ran to the end
            [ "$(field n "$f" 2>/dev/null)" = "$N_GDB" ] || die "(d)" "$f.log"
            line "(d) gdb, round $r" "$f"
            d="$d $(field trim_ns "$f")"
        fi
    done
    a=$(median3 $a) an=$(median3 $an) b=$(median3 $b) bl=$(median3 $bl) c=$(median3 $c)
    [ -z "$have_gdb" ] || d=$(median3 $d)
    echo "  medians of 3 rounds, ns per hit above the baseline (a) = $a ns:"
    awk -v a="$a" -v an="$an" -v b="$b" -v bl="$bl" -v c="$c" -v d="$d" 'BEGIN {
        printf "    (a'\'') no breakpoint %+10.1f\n", an - a
        printf "    (b) in the program  %+10.1f\n", b - a
        printf "    (b'\'') errors last 0 %+10.1f\n", bl - a
        printf "    (c) in noosa        %+10.1f\n", c - a
        if (d != "")
            printf "    (d) gdb             %+10.1f\n", d - a
        # ratios of the costs above the baseline, when (b) is measurable
        if (b - a >= 0.5) {
            printf "    (b)/(c) = %.2g", (b - a) / (c - a)
            if (d != "")
                printf ", (d)/(b) = %.0f", (d - a) / (b - a)
            printf "\n"
        } else
            printf "    (b) is within 0.5 ns of the baseline: no ratio\n"
        printf "    goal: a false condition in the program at most 5 ns above the loop,\n"
        printf "      (b'\'') - (a), the trail off: %+.1f, %s\n", bl - a,
            bl - a <= 5 ? "met" : "not met"
        printf "      (b) - (a'\''), over what noosa'\''s defaults cost without it (the trail, %+.1f): %+.1f, %s\n",
            an - a, b - an, b - an <= 5 ? "met" : "not met"
    }'
    [ -n "$have_gdb" ] || echo "  (d) gdb: not found, skipped"
}

bench "one CPU" 0
bench "two CPUs" 1

# sanity COND WHERE: the stops of `break hit if COND` over N_SANE hits,
# the condition evaluated WHERE; each stop's n goes on one line.
sanity() {
    f=$work/sane-$2-$(printf '%s' "$1" | tr -c 'a-z0-9' _)
    "$NOOSA" -b -n -e "conditions $2" -e "break hit if $1" \
        -e 'set ns {}' -e run \
        -e 'while {$n(status) eq "stopped"} {lappend ns $ev(n); cont}' \
        -e 'puts "stops [llength $ns]: [join $ns ,]"' \
        -e 'info breakpoints' "$LOOP" "$N_SANE" "$work/sane" >"$f.log" 2>&1 ||
        die "sanity {$1} in $2" "$f.log"
    grep -q '^Program exited with status 0\.$' "$f.log" ||
        die "sanity {$1} in $2" "$f.log"
    got=$(sed -n 's/^stops \([0-9]*\):.*/\1/p' "$f.log")
    want=$((N_SANE / 1000))
    # the iterations that stop: 999, 1999, ...
    at=$(awk -v n="$want" 'BEGIN { for (i = 1; i <= n; i++)
        printf "%s%d", (i > 1 ? "," : ""), i * 1000 - 1 }')
    if [ "$got" != "$want" ] || ! grep -q "^stops $want: $at\$" "$f.log"; then
        die "sanity {$1} in $2 ($want stops expected)" "$f.log"
    fi
    case $2 in
    program)
        grep -q "condition runs in the program: $N_SANE checked, $want passed\$" \
            "$f.log" || die "sanity {$1} in $2 (counts)" "$f.log" ;;
    noosa)
        grep -q 'condition runs in noosa' "$f.log" ||
            die "sanity {$1} in $2 (place)" "$f.log" ;;
    esac
    echo "  break hit if $1, conditions $2: $got stops, $want expected, at the right hits"
}
echo "== sanity: a condition true every 1000th of $N_SANE hits"
sanity '{$k == 999}' program
sanity '{$k == 999}' noosa
sanity '{$n >= 0} every 1000' program
sanity '{$n >= 0} every 1000' noosa
