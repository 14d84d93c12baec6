#!/bin/sh
# SPDX-License-Identifier: MIT
# monitor-run.sh - the monitor's benchmarks (make bench-monitor):
#
#  1. stop round trip: the program stops at an event, the monitor takes
#     the record and resumes it.  The median and mean time between
#     consecutive hits (the program's own timestamps) is the round trip.
#     Three runs placed by the scheduler, one with the monitor and the
#     program pinned to different CPUs, one with both on one CPU, two
#     pinned to different CPUs with a busy loop beside the program, then
#     beside the monitor.  Side by side, in the same invocation, gdb with
#     a conditional breakpoint (never true) on the same loop.
#  2. throughput: events decoded per second with zero loss from the loop
#     emitting flat out (lossless ring), against the loop unmonitored; and
#     the reader alone on records in memory.
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

echo "== stop round trip ($N_STOP hits)"
for i in 1 2 3; do
    r=$($BENCH stop "$N_STOP" "$LOOP")
    echo "noosa, scheduler's placement, run $i: median $(us "$(field median_ns "$r")" 1) us per hit, p90 $(us "$(field p90_ns "$r")" 1) us"
done
two=$(BENCH_PIN=1 $BENCH stop "$N_STOP" "$LOOP")
same=$(BENCH_PIN=same $BENCH stop $((N_STOP / 4)) "$LOOP")
echo "noosa, both pinned to one CPU: median $(us "$(field median_ns "$same")" 1) us per hit, p90 $(us "$(field p90_ns "$same")" 1) us"
echo "noosa, pinned to two CPUs: median $(us "$(field median_ns "$two")" 1) us per hit, p90 $(us "$(field p90_ns "$two")" 1) us, mean $(us "$(field mean_ns "$two")" 1) us"
# Beside a loop of another program that never sleeps, on the program's
# CPU and then on the monitor's: what a machine busy with something else
# does to a stop <protocol#spin>.
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    for busy in 1 0; do
        taskset -c "$busy" sh -c 'while :; do :; done' &
        hog=$!
        r=$(BENCH_PIN=1 $BENCH stop $((N_STOP / 4)) "$LOOP")
        kill "$hog"
        wait "$hog" 2>/dev/null || :
        [ "$busy" = 1 ] && where="the program's" || where="the monitor's"
        echo "noosa, pinned to two CPUs, a busy loop on $where CPU: median $(us "$(field median_ns "$r")" 1) us per hit, mean $(us "$(field mean_ns "$r")" 1) us"
        awk -v a="$(field mean_ns "$r")" -v b="$(field mean_ns "$two")" \
            'BEGIN { printf "ratio mean per hit beside the loop / alone: %.2f\n", a / b }'
    done
else
    echo "beside a busy loop: needs two CPUs and taskset, skipped"
fi

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
    echo "gdb, conditional breakpoint: wall $(us "$gwall" "$N_GDB") us per hit"
    awk -v g="$gwall" -v ng="$N_GDB" -v m="$(field mean_ns "$two")" \
        'BEGIN { printf "ratio gdb per hit / noosa mean per hit (pinned): %.0fx\n", (g / ng) / m }'
else
    echo "gdb: not found, skipped"
fi

echo "== throughput ($N_FLOOD events)"
flood=$($BENCH flood "$N_FLOOD" "$LOOP")
plain=$($BENCH plain "$N_FLOOD" "$LOOP")
dec=$($BENCH decode $((N_FLOOD * 5)) "$LOOP")
fw=$(field wall_ns "$flood")
pw=$(field wall_ns "$plain")
awk -v n="$N_FLOOD" -v f="$fw" -v p="$pw" -v lost="$(field lost "$flood")" \
    -v bad="$(field bad "$flood")" -v ev="$(field events "$flood")" 'BEGIN {
    printf "noosa: %.2f M events/s decoded end to end, %d of %d delivered, %d lost, %d out of order\n",
        ev / f * 1000, ev, n, lost, bad
    printf "       monitored %.3f s vs unmonitored %.3f s (ratio %.0fx)\n",
        f / 1e9, p / 1e9, f / p }'
awk -v n="$(field events "$dec")" -v w="$(field wall_ns "$dec")" 'BEGIN {
    printf "reader alone: %.1f M events/s (%.1f ns per event)\n", n / w * 1000, w / n }'
