#!/bin/sh
# SPDX-License-Identifier: MIT
# record-run.sh - the benchmarks of recordings (make bench-record):
#
#   recording   noosa record (through the threads' own buffers, and with
#               --shared-ring through the one ring as before protocol
#               1.0.4) of bench/profile-calls (the naive Fibonacci
#               recursion built with -finstrument-functions: every call an
#               entry and an exit record) and of bench/monitor-loop (an int
#               event a loop iteration), lossless, to tmpfs (/dev/shm) and
#               to the disk (the build tree), with both processes pinned to
#               CPU 0 ("1" in the cpus column), and with the recorder on
#               CPU 0 and the program on CPU 1 ("0+1": the program moves
#               itself there, BENCH_CPU=1): events a second, from the program's own
#               time of its loop (lossless: the program goes at the speed
#               of the recording), and none lost (the events counted in the
#               recording must be the program's)
#   others      uftrace record of the same executable (its hooks in place
#               of libdapto's) and lttng with liblttng-ust-cyg-profile on
#               the same loop, the same ways; skipped with a message when
#               they are not installed or cannot run
#   file        bytes an event on disk, for enter/leave and for an int
#               event, against uftrace's and LTTng's files for the same run
#   replay      noosa --replay into the time and frequency profiles:
#               events a second of the play (its wall time less that of
#               opening the recording alone)
#
#   parts       bench/record-parts: a timestamp, an atomic add, the ring
#               alone, and records streamed to a consumer thread through
#               the ring and through a thread buffer
#
# Each figure is the median of ROUNDS (default 3) runs (rates: the run of
# the median time).
set -e
B=${top_builddir:-.}
NOOSA=$B/src/noosa
FIB=$B/bench/profile-calls
LOOP=$B/bench/monitor-loop
NF=${N_FIB:-30}
NL=${N_LOOP:-10000000}
ROUNDS=${ROUNDS:-3}
UFTRACE=${UFTRACE:-uftrace}
SHM=${SHM_DIR:-/dev/shm}/noosa-bench-record.$$
DISK=$(cd "$B" && pwd)/bench/record-work.$$
mkdir -p "$SHM" "$DISK"
trap 'rm -rf "$SHM" "$DISK"' EXIT

ncpu=$(nproc)
pins="0"
[ "$ncpu" -ge 2 ] && pins="0 0+1"

field() { # field KEY FILE
    tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | head -1
}

median() { # median FILE: the line with the median first field
    n=$(wc -l <"$1")
    sort -n "$1" | sed -n "$(( (n + 1) / 2 ))p"
}

echo "== where a recorded event's time goes (bench/record-parts)"
"$B/bench/record-parts" "${N_PARTS:-5000000}" "$ROUNDS"

echo "== recording, lossless: events a second (program's loop time), median of $ROUNDS"
printf '  %-34s %-6s %-5s %12s %10s %8s\n' way fs cpus events "Mevents/s" "B/event"
for pin in $pins; do
    # "0": everything on CPU 0; "0+1": the recorder (noosa, uftrace;
    # lttng's daemons are where the system puts them) on CPU 0, the
    # program on CPU 1
    if [ "$pin" = 0 ]; then cpus=1; prog_cpu=; else cpus=0+1; prog_cpu=1; fi
    pin=0
    for fs in tmpfs disk; do
        [ $fs = tmpfs ] && dir=$SHM || dir=$DISK
        for prog in fib loop; do
          for way in buffers ring; do
            # the threads' own buffers (protocol 1.0.4), and the one ring
            # of before (--shared-ring), in the same invocation
            [ $way = ring ] && opt=--shared-ring || opt=
            : >"$dir/times"
            r=0
            while [ $r -lt "$ROUNDS" ]; do
                rm -rf "$dir/rec"
                if [ $prog = fib ]; then
                    BENCH_CPU=$prog_cpu taskset -c "$pin" "$NOOSA" record $opt -o "$dir/rec" "$FIB" "$NF" \
                        >"$dir/out" 2>&1
                    ns=$(field ns "$dir/out")
                    want=$((2 * $(field calls "$dir/out")))
                else
                    BENCH_NS=1 BENCH_CPU=$prog_cpu taskset -c "$pin" "$NOOSA" record $opt -o "$dir/rec" \
                        --events=hit "$LOOP" "$NL" >"$dir/out" 2>&1
                    ns=$(field ns "$dir/out")
                    want=$NL
                fi
                got=$(sed -n 's/^noosa: recorded \([0-9]*\) events.*/\1/p' "$dir/out")
                if grep -q lost "$dir/out" || [ "$got" -lt "$want" ]; then
                    echo "bench-record: $prog: $got events recorded of $want" >&2
                    cat "$dir/out" >&2
                    exit 1
                fi
                bytes=$(cat "$dir"/rec/thread_* | wc -c)
                echo "$ns $want $bytes" >>"$dir/times"
                r=$((r + 1))
            done
            median "$dir/times" | awk -v way="noosa record${opt:+ $opt} ($prog)" -v fs=$fs -v c=$cpus '{
                printf "  %-34s %-6s %-5s %12d %10.1f %8.2f\n", way, fs, c, $2,
                    $2 / $1 * 1000, $3 / $2 }'
          done
        done
        # uftrace, the same fib
        if [ "$UFTRACE" != no ] && command -v "$UFTRACE" >/dev/null 2>&1; then
            : >"$dir/times"
            r=0
            while [ $r -lt "$ROUNDS" ]; do
                rm -rf "$dir/uftrace.data"
                BENCH_CPU=$prog_cpu taskset -c "$pin" "$UFTRACE" record -d "$dir/uftrace.data" \
                    "$FIB" "$NF" >"$dir/out" 2>&1 || true
                ns=$(field ns "$dir/out")
                want=$((2 * $(field calls "$dir/out")))
                bytes=$(cat "$dir"/uftrace.data/*.dat | wc -c)
                echo "$ns $want $bytes" >>"$dir/times"
                r=$((r + 1))
            done
            median "$dir/times" | awk -v fs=$fs -v c=$cpus '{
                printf "  %-34s %-6s %-5s %12d %10.1f %8.2f\n",
                    "uftrace record (fib)", fs, c, $2, $2 / $1 * 1000, $3 / $2 }'
        else
            echo "  uftrace: not installed, skipped"
        fi
        # lttng: the cyg-profile helper in place of libdapto's hooks
        cyg=$(ls /usr/lib/*/liblttng-ust-cyg-profile.so* 2>/dev/null | head -1 || true)
        if command -v lttng >/dev/null 2>&1 && [ -n "$cyg" ]; then
            : >"$dir/times"
            r=0
            ok=1
            while [ $r -lt "$ROUNDS" ] && [ $ok = 1 ]; do
                rm -rf "$dir/lttng"
                sess=noosa-bench-$$
                if ! { lttng create "$sess" -o "$dir/lttng" &&
                       lttng enable-channel -u --subbuf-size=4M --num-subbuf=8 \
                           --blocking-timeout=inf ch &&
                       lttng enable-event -u -c ch 'lttng_ust_cyg_profile:*' &&
                       lttng start; } >"$dir/lttng.log" 2>&1; then
                    echo "  lttng: cannot make a session ($(tail -1 "$dir/lttng.log")), skipped"
                    lttng destroy "$sess" >/dev/null 2>&1 || true
                    ok=0
                    break
                fi
                BENCH_CPU=$prog_cpu LTTNG_UST_ALLOW_BLOCKING=1 LD_PRELOAD=$cyg taskset -c "$pin" \
                    "$FIB" "$NF" >"$dir/out" 2>&1
                lttng stop >/dev/null 2>&1
                lttng destroy "$sess" >/dev/null 2>&1
                ns=$(field ns "$dir/out")
                want=$((2 * $(field calls "$dir/out")))
                bytes=$(find "$dir/lttng" -type f ! -name metadata ! -name '*.idx' \
                    -exec cat {} + | wc -c)
                echo "$ns $want $bytes" >>"$dir/times"
                r=$((r + 1))
            done
            [ $ok = 1 ] && median "$dir/times" | awk -v fs=$fs -v c=$cpus '{
                printf "  %-34s %-6s %-5s %12d %10.1f %8.2f\n",
                    "lttng cyg-profile (fib)", fs, c, $2, $2 / $1 * 1000, $3 / $2 }'
        else
            echo "  lttng: lttng-tools or liblttng-ust-cyg-profile missing, skipped"
        fi
    done
done

echo "== replay into the profiles (time and frequency), median of $ROUNDS"
rm -rf "$SHM/rec"
"$NOOSA" record -o "$SHM/rec" "$FIB" "$NF" >"$SHM/out" 2>&1
events=$(sed -n 's/^noosa: recorded \([0-9]*\) events.*/\1/p' "$SHM/out")
: >"$SHM/times"
r=0
while [ $r -lt "$ROUNDS" ]; do
    t0=$(date +%s%N)
    "$NOOSA" --batch -n -e 'errors last 0' -e 'profile timeline 0' \
        -e 'profile time on' -e 'profile freq on' -e 'profile print off' \
        -e run "$SHM/rec" >"$SHM/play" 2>&1
    t1=$(date +%s%N)
    "$NOOSA" --batch -n -e 'errors last 0' "$SHM/rec" >/dev/null 2>&1
    t2=$(date +%s%N)
    echo "$(( (t1 - t0) - (t2 - t1) ))" >>"$SHM/times"
    r=$((r + 1))
done
median "$SHM/times" | awk -v n="$events" '{
    printf "  %d events played in %.1f ms: %.1f Mevents/s\n", n, $1 / 1e6,
        n / $1 * 1000 }'
