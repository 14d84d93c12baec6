#!/bin/sh
# SPDX-License-Identifier: MIT
# replay-run.sh - the speed of reading recordings (make bench-replay).
# Two recordings made by noosa record on tmpfs: bench/profile-calls
# (fib(N_FIB), built with -finstrument-functions: an entry and an exit
# record a call) and bench/monitor-loop (N_LOOP iterations of the int
# event hit, recorded alone), then:
#
#   play    noosa --replay of each into the time profile, the frequency
#           profile and both (lean: errors last 0, profile timeline 0):
#           events a second of `run' alone, played PLAYS times (default
#           3) in one noosa, timed inside it (the recording is opened and
#           checked before) by the CPU time it took (/proc/self/schedstat,
#           which leaves out the time waiting for a CPU on a loaded
#           machine; it moves by scheduler ticks, hence several plays)
#           and by the wall clock, median of ROUNDS
#   open    the CPU time of a noosa that opens the recording, less that
#           of one that opens none (mapping the streams and reading the
#           index; without one, checking every packet: those with an index
#           are checked by the first play instead);
#           and bench/replay-open on fib's stream: mapping it and
#           touching each page, checking its packets, reading it with
#           read() (wall times, best of ROUNDS)
#   dump    noosa dump REC >/dev/null: events a second of the whole
#           command, opening included
#   instr   with valgrind: callgrind's instructions an event played into
#           both profiles (those of a noosa that plays it less those of
#           one that only opens it), from smaller recordings (fib(N_CG_FIB),
#           N_CG_LOOP iterations); repeatable whatever the machine's load
#
# Everything runs pinned to one CPU, each of CPUS in turn (default: 0 and
# 1; on this virtual machine the same work takes up to twice as long on
# CPU 0 as on CPU 1).  With NOOSA_BASE=PATH (another build's
# src/noosa, say the one before a change), each figure is also taken with
# it, round by round in turn with this one, and the ratio printed
# (this / base, above 1 when this one is faster; of the CPU times for a
# play).
set -e
B=${top_builddir:-.}
NOOSA=$(cd "$(dirname "$B/src/noosa")" && pwd)/noosa
BASE=${NOOSA_BASE:-}
FIB=$B/bench/profile-calls
LOOP=$B/bench/monitor-loop
NF=${N_FIB:-30}
NL=${N_LOOP:-10000000}
ROUNDS=${ROUNDS:-5}
PLAYS=${PLAYS:-3}
if [ -z "${CPUS:-}" ]; then
    CPUS=0
    [ "$(nproc)" -ge 2 ] && CPUS="0 1"
fi
W=${SHM_DIR:-/dev/shm}/noosa-bench-replay.$$
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

median() { # median FILE [COLUMN]: the median of a column of FILE
    lines=$(wc -l <"$1")
    cut -d' ' -f"${2:-1}" "$1" | sort -n | sed -n "$(( (lines + 1) / 2 ))p"
}

now() {
    date +%s%N
}

# record NAME ARG...: noosa record -o $W/NAME ARG...; its events in
# $W/NAME.events
record() {
    name=$1
    shift
    "$NOOSA" record -o "$W/$name" "$@" >"$W/$name.rec" 2>&1
    sed -n 's/^noosa: recorded \([0-9]*\) events.*/\1/p' "$W/$name.rec" \
        >"$W/$name.events"
    [ -s "$W/$name.events" ] || { cat "$W/$name.rec" >&2; exit 1; }
    # its index made once, as the first replay does, so that every
    # opening measured reads it (<design#recordings>)
    "$NOOSA" --batch -n -e list "$W/$name" >/dev/null 2>&1
}

# play NOOSA REC PROFILES: nanoseconds of run played into PROFILES, on
# the CPU and on the wall clock
play() {
    taskset -c "$PIN" "$1" --batch -n -e 'errors last 0' -e 'profile timeline 0' \
        -e "foreach p {$3} {profile \$p on}" -e 'profile print off' \
        -e 'proc cpu {} {
                set f [open /proc/self/schedstat]
                set t [lindex [read $f] 0]
                close $f
                return $t
            }' \
        -e 'set ::c0 [cpu]; set ::t0 [clock microseconds]; list' \
        -e "for {set i 0} {\$i < $PLAYS} {incr i} { run }" \
        -e 'puts "play [expr {[cpu] - $::c0}] [expr {([clock microseconds] - $::t0) * 1000}]"' \
        "$2" >"$W/play.out" 2>&1
    sed -n 's/^play //p' "$W/play.out"
}

# opening NOOSA REC: nanoseconds of CPU to open and check REC (noosa's
# CPU time when its first command runs, less that without a recording)
opening() {
    for rec in "$2" ""; do
        taskset -c "$PIN" "$1" --batch -n -e 'set f [open /proc/self/schedstat]
            puts "cpu [lindex [read $f] 0]"' $rec 2>&1 | sed -n 's/^cpu //p'
    done | { read -r a; read -r b; echo $((a - b)); }
}

# dumping NOOSA REC: nanoseconds of noosa dump REC
dumping() {
    t0=$(now)
    taskset -c "$PIN" "$1" dump "$2" >/dev/null 2>&1
    t1=$(now)
    echo $((t1 - t0))
}

# measure WHAT REC ARG: the median of ROUNDS of WHAT (play, opening or
# dumping) with this noosa, and with the base when there is one, in
# $W/new and $W/old
measure() {
    : >"$W/new.t"
    : >"$W/old.t"
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        "$1" "$NOOSA" "$2" "$3" >>"$W/new.t"
        [ -z "$BASE" ] || "$1" "$BASE" "$2" "$3" >>"$W/old.t"
        r=$((r + 1))
    done
    median "$W/new.t" >"$W/new"
    median "$W/new.t" 2 >"$W/new2"
    if [ -n "$BASE" ]; then
        median "$W/old.t" >"$W/old"
        median "$W/old.t" 2 >"$W/old2"
    else
        : >"$W/old"
        : >"$W/old2"
    fi
}

# prow LABEL EVENTS: a line of events a second of a play, by the CPU time
# and by the wall clock (ns)
prow() {
    awk -v label="$1" -v n="$2" -v new="$(cat "$W/new")" \
        -v new2="$(cat "$W/new2")" -v old="$(cat "$W/old")" \
        -v old2="$(cat "$W/old2")" 'BEGIN {
        printf "  %-20s %9d %7.1f %7.1f", label, n, n / new * 1e3, n / new2 * 1e3
        if (old != "")
            printf "   %7.1f %7.1f   %6.2f", n / old * 1e3, n / old2 * 1e3,
                old / new
        printf "\n"
    }'
}

# row LABEL EVENTS SCALE: a line of events a second (SCALE: the unit of
# the times, 1e6 for us, 1e9 for ns)
row() {
    awk -v label="$1" -v n="$2" -v sc="$3" -v new="$(cat "$W/new")" \
        -v old="$(cat "$W/old")" 'BEGIN {
        a = n / (new / sc) / 1e6
        if (old == "") {
            printf "  %-28s %10d %10.1f\n", label, n, a
        } else {
            b = n / (old / sc) / 1e6
            printf "  %-28s %10d %10.1f %10.1f %7.2f\n", label, n, a, b, a / b
        }
    }'
}

heading() {
    if [ -n "$BASE" ]; then
        printf '  %-28s %10s %10s %10s %7s\n' "$1" events "$2" "base" ratio
    else
        printf '  %-28s %10s %10s\n' "$1" events "$2"
    fi
}

record fib "$FIB" "$NF"
record loop --events=hit "$LOOP" "$NL"
nfib=$(cat "$W/fib.events")
nloop=$(cat "$W/loop.events")
echo "== recordings: fib($NF) $nfib events, $(du -sk "$W/fib" | cut -f1) KiB;" \
    "loop $nloop events, $(du -sk "$W/loop" | cut -f1) KiB (tmpfs)"
[ -z "$BASE" ] || echo "   base: $BASE"

echo "== play: Mevents/s of run (by CPU time, by wall clock), $PLAYS plays, median of $ROUNDS"
if [ -n "$BASE" ]; then
    printf '  %-20s %9s %7s %7s   %7s %7s   %6s\n' "recording, profiles" \
        events cpu wall "base cpu" wall "ratio"
else
    printf '  %-20s %9s %7s %7s\n' "recording, profiles" events cpu wall
fi
for PIN in $CPUS; do
    echo "  on CPU $PIN"
    for rec in fib loop; do
        for p in "time" "freq" "time freq"; do
            measure play "$W/$rec" "$p"
            prow "$rec: $(echo "$p" | sed 's/ /+/')" \
                $(($(cat "$W/$rec.events") * PLAYS))
        done
    done
done

echo "== opening (mapping and checking the packets): ms of CPU, median of $ROUNDS"
for PIN in $CPUS; do
    for rec in fib loop; do
        measure opening "$W/$rec" ""
        awk -v rec="$rec on CPU $PIN" -v new="$(cat "$W/new")" \
            -v old="$(cat "$W/old")" 'BEGIN {
            printf "  %-28s %10.1f", rec, new / 1e6
            if (old != "") printf " (base %.1f)", old / 1e6
            printf "\n" }'
    done
done

for PIN in $CPUS; do
    printf '  on CPU %s, fib:' "$PIN"
    taskset -c "$PIN" "$B/bench/replay-open" "$W"/fib/thread_* "$ROUNDS" |
        sed 's/^ *[0-9]* MB://'
done

echo "== noosa dump: Mevents/s of the whole command, median of $ROUNDS"
heading "recording" "Mevents/s"
for PIN in $CPUS; do
    for rec in fib loop; do
        measure dumping "$W/$rec" ""
        row "$rec on CPU $PIN" "$(cat "$W/$rec.events")" 1e9
    done
done

if command -v valgrind >/dev/null 2>&1; then
    record cgfib "$FIB" "${N_CG_FIB:-24}"
    record cgloop --events=hit "$LOOP" "${N_CG_LOOP:-300000}"
    echo "== instructions an event played into both profiles (callgrind)"
    for rec in cgfib cgloop; do
        n=$(cat "$W/$rec.events")
        for nb in "$NOOSA" $BASE; do
            for how in open play; do
                if [ $how = play ]; then
                    set -- -e 'profile time on' -e 'profile freq on' \
                        -e 'profile print off' -e run
                else
                    set --
                fi
                valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                    "$nb" --batch -n -e 'errors last 0' \
                    -e 'profile timeline 0' "$@" "$W/$rec" 2>&1 |
                    sed -n 's/.*Collected : //p' >"$W/$how.ir"
            done
            awk -v rec="$rec" -v n="$n" -v a="$(cat "$W/play.ir")" \
                -v b="$(cat "$W/open.ir")" -v who="$nb" 'BEGIN {
                printf "  %-8s %8d events %7.1f  %s\n", rec, n, (a - b) / n, who }'
        done
    done
else
    echo "== callgrind: valgrind not installed, skipped"
fi
