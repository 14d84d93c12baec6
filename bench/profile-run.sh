#!/bin/sh
# SPDX-License-Identifier: MIT
# profile-run.sh - the benchmarks of automatic instrumentation (make
# bench-profile).  bench/profile-calls runs the naive Fibonacci recursion
# (N_CALLS_FIB, default 27: 635621 calls) and times it itself; each way of
# running it is repeated ROUNDS times (default 7), the ways interleaved
# round by round, and the best time of each is kept:
#
#   plain         built without -finstrument-functions
#   hooks off     built with it, linked with libdapto, not monitored
#   noosa trail   under noosa with nothing on but the post-mortem trail of
#                 the last events (on by default: errors last 10), which
#                 keeps no function entry or exit unless asked (errors
#                 functions on)
#   noosa         under noosa with the time profile kept from the records
#                 (profile time in noosa; the post-mortem trail of the
#                 last events and the timeline for export chrome on)
#   noosa lean    the same with the trail and the timeline off
#   program       the time profile kept by the program (profile time in
#                 program): no function record crosses
#   sampled       the same with the self times sampled (profile time in
#                 sampled): the program reads no clock, noosa looks at
#                 each thread's current call path every millisecond
#   tsc           hooks that only read the time stamp counter at every
#                 entry and exit (bench/tsc-hooks.c, preloaded in place of
#                 libdapto's): the floor of any profile with exact times
#   uftrace       uftrace record of the same executable (uftrace's hooks
#                 take the place of libdapto's), and of the -pg build
#
# Per-call overhead = (time - plain) / calls.  All of it in two
# placements: everything on CPU 0 ("one CPU"), and the monitor (noosa,
# uftrace) on CPU 0 with the program on CPU 1 ("two CPUs": the program
# pins itself from BENCH_CPU, since the monitor starts it).  Then the rate at which
# noosa consumes function records into the profiles (both on, lean), with
# no loss (the calls counted must be the program's), from a longer run
# (N_FLOOD_FIB, default 30: 2.7 million calls, 5.4 million records).
set -e
B=${top_builddir:-.}
NOOSA=$B/src/noosa
TSC_HOOKS=$(cd "$B/bench/.libs" && pwd)/libtschooks.so
PLAIN=$B/bench/profile-calls-plain
INST=$B/bench/profile-calls
PG=$B/bench/profile-calls-pg
N=${N_CALLS_FIB:-27}
NF=${N_FLOOD_FIB:-30}
ROUNDS=${ROUNDS:-7}
UFTRACE=${UFTRACE:-uftrace}
TMP=${TMPDIR:-/tmp}/noosa-bench-profile.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT

have_uftrace=0
if [ "$UFTRACE" != no ] && command -v "$UFTRACE" >/dev/null 2>&1; then
    have_uftrace=1
fi

field() { # field KEY FILE: KEY=VALUE on the program's line
    sed -n "s/.*[ ^]$1=\([0-9]*\).*/\1/p; s/^$1=\([0-9]*\).*/\1/p" "$2" | head -1
}

run() { # run WAY: one run, appends "WAY NS" to $TMP/times
    way=$1
    out=$TMP/$way.out
    case $way in
    tsc) LD_PRELOAD=$TSC_HOOKS taskset -c 0 "$INST" "$N" >"$out" ;;
    plain) taskset -c 0 "$PLAIN" "$N" >"$out" ;;
    hooks) taskset -c 0 "$INST" "$N" >"$out" ;;
    trail) taskset -c 0 "$NOOSA" --batch -n -e run "$INST" "$N" >"$out" 2>&1 ;;
    noosa) taskset -c 0 "$NOOSA" --batch -n -e 'profile time on' -e 'profile time in noosa' \
               -e 'profile print off' -e run "$INST" "$N" >"$out" 2>&1 ;;
    lean) taskset -c 0 "$NOOSA" --batch -n -e 'errors last 0' -e 'profile timeline 0' \
              -e 'profile time on' -e 'profile time in noosa' -e 'profile print off' -e run \
              "$INST" "$N" >"$out" 2>&1 ;;
    program|sampled)
             where=program
             [ "$way" = sampled ] && where=sampled
             taskset -c 0 "$NOOSA" --batch -n -e 'errors last 0' -e "profile time in $where" \
                 -e 'profile time on' -e 'profile print off' -e run \
                 -e 'foreach r [profile get time -flat] {if {[dict get $r name] eq "fib"} {puts "counted=[dict get $r calls]"}}' \
                 "$INST" "$N" >"$out" 2>&1
             # the program's own count of fib's calls, before a time counts
             grep -q "^counted=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^calls=/) print substr($i, 7) }' "$out")\$" "$out" || {
                 echo "bench-profile: the program's tree did not count every call:" >&2
                 cat "$out" >&2
                 exit 1
             } ;;
    uftrace) taskset -c 0 "$UFTRACE" record -d "$TMP/uftrace.data" "$INST" "$N" >"$out" 2>&1 ;;
    uftrace-pg) taskset -c 0 "$UFTRACE" record -d "$TMP/uftrace.data" "$PG" "$N" >"$out" 2>&1 ;;
    esac
    ns=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^ns=/) print substr($i, 4) }' "$out")
    if [ -z "$ns" ]; then
        echo "bench-profile: $way gave no time:" >&2
        cat "$out" >&2
        exit 1
    fi
    echo "$way $ns" >>"$TMP/times"
    calls=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^calls=/) print substr($i, 7) }' "$out")
}

ways="plain hooks tsc trail noosa lean program sampled"
[ $have_uftrace = 1 ] && ways="$ways uftrace uftrace-pg"

# per_call PLACE CPU: every way, ROUNDS interleaved rounds, everything
# pinned to CPU 0 and the program to CPU
per_call() {
BENCH_CPU=$2
export BENCH_CPU
: >"$TMP/times"
r=0
while [ $r -lt "$ROUNDS" ]; do
    for w in $ways; do
        run "$w"
    done
    r=$((r + 1))
done

echo "== per call, $1: fib($N), $calls calls, best of $ROUNDS interleaved rounds"
awk -v calls="$calls" -v ways="$ways" '
    { if (!($1 in best) || $2 < best[$1]) best[$1] = $2 }
    END {
        label["plain"] = "plain (no instrumentation)"
        label["hooks"] = "instrumented, not monitored"
        label["trail"] = "noosa, only the trail on"
        label["noosa"] = "noosa, time profile on"
        label["lean"] = "noosa, time profile on, lean"
        label["program"] = "noosa, time profile in the program"
        label["sampled"] = "noosa, the same, self time sampled"
        label["tsc"] = "two TSC reads a call, nothing else"
        label["uftrace"] = "uftrace record (-finstrument-functions)"
        label["uftrace-pg"] = "uftrace record (-pg)"
        n = split(ways, w, " ")
        printf "  %-42s %10s %10s %10s\n", "", "ms", "ns/call", "overhead"
        for (i = 1; i <= n; i++) {
            t = best[w[i]]
            printf "  %-42s %10.2f %10.2f %10.2f\n", label[w[i]], t / 1e6,
                t / calls, (t - best["plain"]) / calls
            over[w[i]] = (t - best["plain"]) / calls
        }
        if ("uftrace" in best) {
            printf "  overhead ratio uftrace / noosa: %.2f (-pg: %.2f); lean: %.2f (-pg: %.2f)\n",
                over["uftrace"] / over["noosa"], over["uftrace-pg"] / over["noosa"],
                over["uftrace"] / over["lean"], over["uftrace-pg"] / over["lean"]
            printf "  in the program: uftrace / noosa %.2f (goal: at least 5); %.1f ns a call over the instrumented build (goal: at most 10)\n",
                over["uftrace"] / over["program"], over["program"] - over["hooks"]
            printf "  sampled: uftrace / noosa %.2f (goal: at least 5); %.1f ns a call over the instrumented build (goal: at most 10)\n",
                over["uftrace"] / over["sampled"], over["sampled"] - over["hooks"]
            printf "  the floor, two TSC reads a call: %.1f ns over the instrumented build; uftrace / floor %.2f\n",
                over["tsc"] - over["hooks"], over["uftrace"] / over["tsc"]
        } else {
            print "  uftrace: not found, not compared"
        }
    }' "$TMP/times"
}

per_call "one CPU (everything on CPU 0)" 0
per_call "two CPUs (the monitor on CPU 0, the program on CPU 1)" 1
unset BENCH_CPU

echo "== consumption: fib($NF), both profiles on, lean, lossless ring"
for i in 1 2 3; do
    cat >"$TMP/flood.tcl" <<'TCL'
errors last 0
profile timeline 0
profile freq on
profile freq in noosa
profile time on
profile time in noosa
profile print off
run
set calls 0
foreach row [profile get time -flat] {
    if {[dict get $row name] eq "fib"} { set calls [dict get $row calls] }
}
puts "counted=$calls"
TCL
    t0=$(date +%s%N)
    "$NOOSA" --batch -n -x "$TMP/flood.tcl" "$INST" "$NF" >"$TMP/flood.out" 2>&1
    t1=$(date +%s%N)
    echo "$((t1 - t0)) $(cat "$TMP/flood.out" | tr '\n' ' ')" >>"$TMP/flood"
done
sort -n "$TMP/flood" | head -1 | awk '{
    wall = $1
    for (i = 2; i <= NF; i++) {
        if ($i ~ /^calls=/) calls = substr($i, 7)
        if ($i ~ /^ns=/) prog = substr($i, 4)
        if ($i ~ /^counted=/) counted = substr($i, 9)
        if ($i ~ /lost/) lost = 1
    }
    recs = 2 * calls
    printf "  %d records in %.3f s of the program (%.3f s for noosa in all)\n", recs, prog / 1e9, wall / 1e9
    printf "  %.1f million records a second into the profiles, %.1f ns each\n", recs / (prog / 1e9) / 1e6, prog / recs
    if (counted == calls && !lost)
        printf "  no loss: %d calls counted, %d made\n", counted, calls
    else
        printf "  LOSS: %s calls counted, %d made\n", counted, calls
}'
