#!/bin/sh
# SPDX-License-Identifier: MIT
# ab-run.sh - two builds of the tree timed against each other in one run,
# interleaved round by round, so that a change is measured apart from the
# machine's load (which moves every figure by tens of percent here):
#
#   sh bench/ab-run.sh cond OLD NEW [ROUNDS [N]]
#       each tree's bench/front-loop under its own noosa (ROUNDS, default
#       7, of N hits, default 200000): (a) no monitor, (b') `break hit if
#       {$n < 0}` with errors last 0, (b) the same with noosa's defaults,
#       (q) `question add s hit n`, (a') noosa without a breakpoint.
#   sh bench/ab-run.sh profile OLD NEW [ROUNDS [N]]
#       each tree's bench/profile-calls (fib(N), default 27) under its own
#       noosa with `profile time in program`, and not monitored; the plain
#       build and the TSC floor (bench/tsc-hooks.c) of NEW.
#   sh bench/ab-run.sh record OLD NEW [ROUNDS [N]]
#       each tree's `noosa record --events=hit` of its bench/monitor-loop
#       (N iterations, default 10000000) to tmpfs: the program's loop
#       time, as Mevents/s (none lost: checked).
#   sh bench/ab-run.sh probes OLD NEW [ROUNDS [N [NG]]]
#       each tree's noosa on its tests/probes/pp-main looping over app:tick
#       (N hits, default 10000) with an empty handler (h), the same added
#       -stop (s) and nothing wanted (o); NEW's bench/ptrace-floor (a bare
#       stop, floor) and gdb's `break -probe-stap' (NG hits, default 1000,
#       gdb.on and gdb.off); in us a hit over (o), gdb over its own run
#       without the breakpoint, and gdb / each.
#
# OLD and NEW are built trees (NOOSA_NO_INSTALL=1 ./bootstrap; make
# bench/front-loop bench/profile-calls ...).  Both placements: everything
# on CPU 0, and the monitor on CPU 0 with the program on CPU 1.  Prints
# the median (and for the profile the best) of each way per placement, in
# ns over the baseline.
set -e
mode=$1 OLD=$2 NEW=$3
R=${4:-7}
[ -n "$mode" ] && [ -d "$OLD" ] && [ -d "$NEW" ] || {
    echo "usage: ab-run.sh cond|profile|record|probes OLD NEW [ROUNDS [N]]" >&2
    exit 2
}
work=$(mktemp -d "${TMPDIR:-/tmp}/ab-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p"; }
ns() { sed -n 's/.*ns=\([0-9]*\).*/\1/p' "$1"; }
# summary FILE: "WAY BEST MEDIAN" for each way of FILE's "WAY VALUE" lines
summary() {
    for k in $(cut -d' ' -f1 "$1" | sort -u); do
        grep "^$k " "$1" | cut -d' ' -f2 | sort -n >"$work/v"
        echo "$k $(head -1 "$work/v") $(sed -n "$((($(wc -l <"$work/v") + 1) / 2))p" "$work/v")"
    done
}

case $mode in
cond)
    N=${5:-200000}
    for cpu in 0 1; do
        : >"$work/t"
        for r in $(seq "$R"); do
            for t in old new; do
                if [ $t = old ]; then B=$OLD; else B=$NEW; fi
                f=$work/f
                LOOP_CPU=$cpu taskset -c 0 "$B/bench/front-loop" "$N" "$f"
                echo "a.$t $(field trim_ns "$f")" >>"$work/t"
                LOOP_CPU=$cpu taskset -c 0 "$B/src/noosa" -b -n -e 'errors last 0' \
                    -e 'break hit if {$n < 0}' -e run "$B/bench/front-loop" "$N" "$f" \
                    >/dev/null 2>&1
                echo "b'.$t $(field trim_ns "$f")" >>"$work/t"
                LOOP_CPU=$cpu taskset -c 0 "$B/src/noosa" -b -n -e 'break hit if {$n < 0}' \
                    -e run "$B/bench/front-loop" "$N" "$f" >/dev/null 2>&1
                echo "b.$t $(field trim_ns "$f")" >>"$work/t"
                LOOP_CPU=$cpu taskset -c 0 "$B/src/noosa" -b -n -e 'errors last 0' \
                    -e 'question print off' -e 'question add s hit n' -e run \
                    "$B/bench/front-loop" "$N" "$f" >/dev/null 2>&1
                echo "q.$t $(field trim_ns "$f")" >>"$work/t"
                LOOP_CPU=$cpu taskset -c 0 "$B/src/noosa" -b -n -e run \
                    "$B/bench/front-loop" "$N" "$f" >/dev/null 2>&1
                echo "a'.$t $(field trim_ns "$f")" >>"$work/t"
            done
        done
        echo "== the program on CPU $cpu, noosa on CPU 0: medians of $R, ns a hit over (a)"
        summary "$work/t" >"$work/s"
        awk '{ m[$1] = $3 } END {
            n = split("b'\'' b q a'\''", w, " ")
            for (i = 1; i <= n; i++)
                printf "  %-4s old %+7.1f  new %+7.1f\n", w[i],
                    m[w[i] ".old"] - m["a.old"], m[w[i] ".new"] - m["a.new"]
        }' "$work/s"
    done
    ;;
profile)
    N=${5:-27}
    for cpu in 0 1; do
        : >"$work/t"
        export BENCH_CPU=$cpu
        for r in $(seq "$R"); do
            taskset -c 0 "$NEW/bench/profile-calls-plain" "$N" >"$work/o"
            echo "plain $(ns "$work/o")" >>"$work/t"
            for t in old new; do
                if [ $t = old ]; then B=$OLD; else B=$NEW; fi
                taskset -c 0 "$B/bench/profile-calls" "$N" >"$work/o"
                echo "hooks.$t $(ns "$work/o")" >>"$work/t"
                taskset -c 0 "$B/src/noosa" --batch -n -e 'errors last 0' \
                    -e 'profile time in program' -e 'profile time on' \
                    -e 'profile print off' -e run "$B/bench/profile-calls" "$N" \
                    >"$work/o" 2>&1
                echo "program.$t $(ns "$work/o")" >>"$work/t"
            done
            LD_PRELOAD=$(cd "$NEW/bench/.libs" && pwd)/libtschooks.so taskset -c 0 \
                "$NEW/bench/profile-calls" "$N" >"$work/o"
            echo "tsc $(ns "$work/o")" >>"$work/t"
        done
        calls=$(sed -n 's/.*calls=\([0-9]*\).*/\1/p' "$work/o")
        echo "== the program on CPU $cpu: fib($N), $calls calls, $R rounds, ns a call over plain"
        summary "$work/t" >"$work/s"
        awk -v c="$calls" '{ b[$1] = $2; m[$1] = $3 } END {
            for (k in b)
                if (k != "plain")
                    printf "  %-12s best %7.1f  median %7.1f\n", k,
                        (b[k] - b["plain"]) / c, (m[k] - m["plain"]) / c
        }' "$work/s" | sort
    done
    ;;
record)
    N=${5:-10000000}
    for cpu in 0 1; do
        : >"$work/t"
        export BENCH_NS=1 BENCH_CPU=$cpu
        for r in $(seq "$R"); do
            for t in old new; do
                if [ $t = old ]; then B=$OLD; else B=$NEW; fi
                rm -rf "$work/rec"
                taskset -c 0 "$B/src/noosa" record -o "$work/rec" --events=hit \
                    "$B/bench/monitor-loop" "$N" >"$work/o" 2>&1
                got=$(sed -n 's/^noosa: recorded \([0-9]*\) events.*/\1/p' "$work/o")
                if grep -q lost "$work/o" || [ "${got:-0}" -lt "$N" ]; then
                    echo "ab-run.sh: $t: ${got:-no} events recorded of $N" >&2
                    cat "$work/o" >&2
                    exit 1
                fi
                echo "$t $(ns "$work/o")" >>"$work/t"
            done
        done
        echo "== the program on CPU $cpu, noosa on CPU 0: $N events, $R rounds, Mevents/s"
        summary "$work/t" | awk -v n="$N" '{
            printf "  %-4s best %6.1f  median %6.1f\n", $1, n * 1000 / $2, n * 1000 / $3 }'
    done
    ;;
probes)
    N=${5:-10000}
    NG=${6:-1000}
    # secs CMD...: the seconds CMD takes (its output in $work/o)
    secs() {
        t0=$(date +%s.%N)
        "$@" </dev/null >"$work/o" 2>&1 || { cat "$work/o" >&2; exit 1; }
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
    }
    printf 'set pagination off\nset confirm off\nbreak -probe-stap app:tick\ncommands\nsilent\ncontinue\nend\nrun\n' \
        >"$work/gdb-on"
    printf 'set pagination off\nrun\n' >"$work/gdb-off"
    for cpu in 0 1; do
        : >"$work/t"
        export PP_CPU=$cpu
        for r in $(seq "$R"); do
            for t in old new; do
                if [ $t = old ]; then B=$OLD; else B=$NEW; fi
                PP=$B/tests/probes/pp-main
                echo "h.$t $(secs taskset -c 0 "$B/src/noosa" --batch -n \
                    -e 'handler add tick h {}' -e run "$PP" loop "$N")" >>"$work/t"
                echo "s.$t $(secs taskset -c 0 "$B/src/noosa" --batch -n \
                    -e 'handler add tick h {} -stop' -e run "$PP" loop "$N")" \
                    >>"$work/t"
                echo "o.$t $(secs taskset -c 0 "$B/src/noosa" --batch -n \
                    -e run "$PP" loop "$N")" >>"$work/t"
            done
            taskset -c 0 "$NEW/bench/ptrace-floor" "$N" >"$work/o"
            echo "floor $(sed -n 's/^\([0-9]*\) ns a hit$/\1/p' "$work/o")" >>"$work/t"
            if command -v gdb >/dev/null 2>&1; then
                echo "gdb.on $(secs taskset -c 0 gdb -batch -nx -x "$work/gdb-on" \
                    --args "$NEW/tests/probes/pp-main" loop "$NG")" >>"$work/t"
                echo "gdb.off $(secs taskset -c 0 gdb -batch -nx -x "$work/gdb-off" \
                    --args "$NEW/tests/probes/pp-main" loop "$NG")" >>"$work/t"
            fi
        done
        echo "== the program on CPU $cpu, noosa on CPU 0: medians of $R, us a hit"
        summary "$work/t" >"$work/s"
        awk -v n="$N" -v ng="$NG" '{ m[$1] = $3 } END {
            g = ("gdb.on" in m) ? (m["gdb.on"] - m["gdb.off"]) / ng * 1e6 : 0
            printf "  a bare ptrace stop (C)   %7.1f\n", m["floor"] / 1000
            if (g > 0)
                printf "  gdb, break -probe-stap   %7.1f\n", g
            split("h s", w, " ")
            for (i = 1; i <= 2; i++)
                for (j = 0; j < 2; j++) {
                    t = j ? "new" : "old"
                    v = (m[w[i] "." t] - m["o." t]) / n * 1e6
                    printf "  %s.%-4s %7.1f", w[i], t, v
                    if (g > 0)
                        printf "   gdb / it %5.1f", g / v
                    printf "\n"
                }
        }' "$work/s"
    done
    ;;
*)
    echo "ab-run.sh: no mode $mode (cond, profile, record or probes)" >&2
    exit 2
    ;;
esac
