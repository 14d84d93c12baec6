#!/bin/sh
# SPDX-License-Identifier: MIT
# monitor-run.sh - the monitor's benchmarks (make bench-monitor):
#
#  1. stop round trip: the program stops at an event, the monitor takes
#     the record and resumes it; median time per hit from the program's
#     timestamps, and wall time per hit.  Side by side, in the same run,
#     gdb with a conditional breakpoint (never true) on the same loop.
#     Wall times per hit are differences between runs of N and 2N hits,
#     so start-up costs cancel.
#  2. throughput: events decoded per second, zero loss, from the loop
#     emitting flat out; baseline: the same loop unmonitored.
#
# Sizes: N_STOP, N_GDB, N_FLOOD in the environment.
set -e
B=${top_builddir:-.}/bench
LOOP=$B/monitor-loop
BENCH=$B/monitor-bench
N_STOP=${N_STOP:-20000}
N_GDB=${N_GDB:-2000}
N_FLOOD=${N_FLOOD:-2000000}

field() { # field KEY LINE
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
now() { date +%s%N; }
us() { # us NANOSECONDS DIVISOR
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b / 1000 }'
}

echo "== stop round trip"
one=$($BENCH stop "$N_STOP" "$LOOP")
two=$($BENCH stop $((N_STOP * 2)) "$LOOP")
echo "noosa $N_STOP hits: $one"
median=$(field median_ns "$two")
wall=$(( $(field wall_ns "$two") - $(field wall_ns "$one") ))
echo "noosa: median $(us "$median" 1) us per hit (p90 $(us "$(field p90_ns "$two")" 1) us), wall $(us "$wall" "$N_STOP") us per hit"

if [ -n "$GDB" ] && [ "$GDB" != no ] && command -v "$GDB" >/dev/null; then
    gdbrun() {
        t0=$(now)
        "$GDB" -batch -nx -ex 'break loop_hit if n < 0' -ex run \
            --args "$LOOP" "$1" >/dev/null 2>&1
        t1=$(now)
        echo $((t1 - t0))
    }
    g1=$(gdbrun "$N_GDB")
    g2=$(gdbrun $((N_GDB * 2)))
    gwall=$((g2 - g1))
    echo "gdb conditional breakpoint: wall $(us "$gwall" "$N_GDB") us per hit ($N_GDB vs $((N_GDB * 2)) hits)"
    awk -v g="$gwall" -v ng="$N_GDB" -v m="$wall" -v nm="$N_STOP" \
        'BEGIN { printf "ratio gdb / noosa per hit (wall): %.0fx\n", (g / ng) / (m / nm) }'
else
    echo "gdb: not found, skipped"
fi

echo "== throughput"
flood=$($BENCH flood "$N_FLOOD" "$LOOP")
plain=$($BENCH plain "$N_FLOOD" "$LOOP")
echo "noosa $N_FLOOD events: $flood"
fw=$(field wall_ns "$flood")
pw=$(field wall_ns "$plain")
awk -v n="$N_FLOOD" -v f="$fw" -v p="$pw" -v lost="$(field lost "$flood")" 'BEGIN {
    printf "noosa: %.2f M events/s decoded, %d lost; monitored %.3f s vs unmonitored %.3f s (ratio %.1fx)\n",
        n / f * 1000, lost, f / 1e9, p / 1e9, f / p }'
