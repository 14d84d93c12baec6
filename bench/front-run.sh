#!/bin/sh
# SPDX-License-Identifier: MIT
# front-run.sh - the front end's benchmark (make bench-front): what a
# breakpoint whose condition is false costs per hit when noosa evaluates
# the condition, through `noosa --batch`:
#
#     conditions noosa
#     break hit if {$n < 0}
#
# (without `conditions noosa` the program would evaluate this condition
# itself: make bench-cond measures that)
# against gdb's conditional breakpoint on the same loop, in the same
# invocation:
#
#     break loop_hit if n < 0
#
# The loop (bench/front-loop.c) times each of its iterations itself and
# writes the median, the 90th percentile and the mean, so both are
# measured the same way; each iteration calls loop_hit() and emits hit.
# Three runs of each; the median of their medians is reported, and the
# loop without a monitor as the baseline.
#
# Sizes: N_NOOSA, N_GDB in the environment.
set -e
B=${top_builddir:-.}
LOOP=$B/bench/front-loop
NOOSA=$B/src/noosa
N_NOOSA=${N_NOOSA:-20000}
N_GDB=${N_GDB:-5000}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-front.XXXXXX")
trap 'rm -rf "$work"' EXIT

field() { # field KEY FILE
    tr ' ' '\n' <"$2" | sed -n "s/^$1=//p"
}
us() { # us NANOSECONDS
    awk -v a="$1" 'BEGIN { printf "%.2f", a / 1000 }'
}
median3() {
    printf '%s\n' "$@" | sort -n | sed -n 2p
}

"$LOOP" "$N_NOOSA" "$work/plain"
echo "== a false breakpoint condition, per hit (the loop's own timing)"
echo "no monitor: median $(field median_ns "$work/plain") ns per iteration"

noosa_medians=
for i in 1 2 3; do
    "$NOOSA" -b -n -e 'conditions noosa' -e 'break hit if {$n < 0}' -e run \
        "$LOOP" "$N_NOOSA" "$work/noosa$i" >"$work/noosa$i.log" 2>&1
    # the condition was evaluated at every hit and never held
    if grep -q '^Stopped' "$work/noosa$i.log" ||
        ! grep -q '^Program exited with status 0\.$' "$work/noosa$i.log"; then
        echo "noosa run $i went wrong:"
        cat "$work/noosa$i.log"
        exit 1
    fi
    m=$(field median_ns "$work/noosa$i")
    noosa_medians="$noosa_medians $m"
    echo "noosa --batch, run $i ($N_NOOSA hits): median $(us "$m") us, p90 $(us "$(field p90_ns "$work/noosa$i")") us, mean $(us "$(field mean_ns "$work/noosa$i")") us"
done
noosa_m=$(median3 $noosa_medians)

if [ -n "${GDB:-}" ] && [ "$GDB" != no ] && command -v "$GDB" >/dev/null; then
    gdb_medians=
    for i in 1 2 3; do
        "$GDB" -batch -nx -ex 'break loop_hit if n < 0' -ex run \
            --args "$LOOP" "$N_GDB" "$work/gdb$i" >"$work/gdb$i.log" 2>&1
        m=$(field median_ns "$work/gdb$i")
        gdb_medians="$gdb_medians $m"
        echo "gdb, run $i ($N_GDB hits): median $(us "$m") us, p90 $(us "$(field p90_ns "$work/gdb$i")") us, mean $(us "$(field mean_ns "$work/gdb$i")") us"
    done
    gdb_m=$(median3 $gdb_medians)
    awk -v n="$noosa_m" -v g="$gdb_m" 'BEGIN {
        printf "median of medians: noosa %.2f us, gdb %.2f us per hit; gdb / noosa = %.1fx\n",
            n / 1000, g / 1000, g / n }'
else
    echo "median of medians: noosa $(us "$noosa_m") us per hit"
    echo "gdb: not found, skipped"
fi
