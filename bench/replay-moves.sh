#!/bin/sh
# SPDX-License-Identifier: MIT
# replay-moves.sh - moves in long recordings (make bench-replay-moves,
# <design#checkpoints>, <design#recordings>).  bench/replay-loop records
# N tick events and one mark event at iteration 1000, for each N of SIZES
# (default 20000000 200000000), then:
#
#   index   the first opening, which makes the index (a pass over the
#           recording), and an opening with it (wall times; median of
#           ROUNDS)
#   moves   in one noosa with `break mark': goto near the end, step back,
#           goto near the start, goto near the end again, reverse-continue
#           to the mark near the start; each move's wall time inside noosa
#           (clock microseconds around the command), and their sum; the
#           median of ROUNDS noosas
#   stated  the same moves with both profiles on (every event wanted:
#           a first move forwards hands every event in between to them)
#   memory  noosa's peak resident set (VmHWM) after the moves, and after
#           a whole play into both profiles
#   play    a whole play into both profiles (lean: timeline 0), events a
#           second by noosa's CPU time (/proc/self/schedstat: the time
#           waiting for a CPU on a loaded machine left out), with the
#           checkpoints (by default) and with the first only (replay
#           checkpoints 0): what taking them costs
#
# and the ratio of the moves in the longest recording to those in the
# shortest (the goal: below 2, whatever the length).  With NOOSA_BASE=PATH
# (another build's src/noosa, one without an index or checkpoints), its
# opening and the first four moves too, and the ratio to this one.
#
# The recordings go to BENCH_DIR (default /tmp: 14 bytes an event, 2.8
# GB for 200 M events); KEEP=1 keeps them.  STATED=no and PLAY=no leave
# those parts out (for a recording of 1e9 events, 14 GB).  Everything runs
# pinned to CPU (default 1).
set -e
B=${top_builddir:-.}
NOOSA=$(cd "$(dirname "$B/src/noosa")" && pwd)/noosa
BASE=${NOOSA_BASE:-}
LOOP=$(cd "$(dirname "$B/bench/replay-loop")" && pwd)/replay-loop
SIZES=${SIZES:-"20000000 200000000"}
ROUNDS=${ROUNDS:-5}
CPU=${CPU:-1}
MARK=1000
W=${BENCH_DIR:-/tmp}/noosa-bench-moves.$$
mkdir -p "$W"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

median() { # median FILE [COLUMN]
    lines=$(wc -l <"$1")
    cut -d' ' -f"${2:-1}" "$1" | sort -n | sed -n "$(( (lines + 1) / 2 ))p"
}

now() {
    date +%s%N
}

run() { # run NOOSA ARG...: noosa pinned, batch mode
    nb=$1
    shift
    taskset -c "$CPU" "$nb" --batch -n "$@"
}

# The moves, timed inside noosa: "MOVE ms" lines, then "total ms", then
# "hwm KB".  $1: extra setup commands; $2: the number of events.
moves_script() {
    ne=$2
    cat <<TCL
$1
break mark
proc t {name cmd} {
    set t0 [clock microseconds]
    uplevel #0 \$cmd
    set d [expr {[clock microseconds] - \$t0}]
    puts "T \$name [expr {\$d / 1000.0}]"
    return \$d
}
proc hwm {} {
    set f [open /proc/self/status]
    set s [read \$f]
    close \$f
    regexp {VmHWM:\s+([0-9]+)} \$s -> kb
    return \$kb
}
set all 0
incr all [t goto-end {goto $((ne - ne / 20))}]
incr all [t step-back {step back}]
incr all [t goto-start {goto 2000}]
incr all [t goto-end2 {goto $((ne - ne / 10))}]
if {[info commands ::noosa::cmd::reverse-continue] ne ""} {
    incr all [t reverse-continue {reverse-continue}]
}
puts "T total [expr {\$all / 1000.0}]"
puts "H [hwm]"
TCL
}

# moves NOOSA REC SETUP: one noosa's figures into $W/m.NAME (appended)
moves() {
    moves_script "$3" "$(cat "$2.events")" >"$W/moves.tcl"
    run "$1" -x "$W/moves.tcl" "$2" >"$W/moves.out" 2>&1 || {
        cat "$W/moves.out" >&2
        exit 1
    }
    grep -q "Stopped at breakpoint 1 for event \"mark\"" "$W/moves.out" ||
        [ "$1" != "$NOOSA" ] || {
        echo "replay-moves: reverse-continue did not stop at the mark:" >&2
        cat "$W/moves.out" >&2
        exit 1
    }
    sed -n 's/^T \([a-z0-9-]*\) \(.*\)/\1 \2/p; s/^H \(.*\)/hwm \1/p' \
        "$W/moves.out" | while read -r name v; do
        echo "$v" >>"$W/m.$name"
    done
}

# opening NOOSA REC: ms of wall time to open REC (and in $W/hwm, the
# peak resident set, KB)
opening() {
    t0=$(now)
    run "$1" -e 'set f [open /proc/self/status]; regexp {VmHWM:\s+([0-9]+)} [read $f] -> kb; puts "H $kb"' \
        "$2" 2>/dev/null | sed -n 's/^H //p' >"$W/hwm"
    t1=$(now)
    echo $(((t1 - t0) / 1000)) | awk '{ printf "%.1f\n", $1 / 1000 }'
}

# play NOOSA REC SETUP: events a second of a whole play into both
# profiles, and the peak resident set
play() {
    run "$1" -e 'errors last 0' -e 'profile timeline 0' -e 'profile time on' \
        -e 'profile freq on' -e 'profile print off' -e "$3" \
        -e 'proc cpu {} { set f [open /proc/self/schedstat]; set t [lindex [read $f] 0]; close $f; return $t }' \
        -e 'set t0 [cpu]' -e run \
        -e 'puts "P [expr {([cpu] - $t0) / 1000}]"' \
        -e 'set f [open /proc/self/status]; regexp {VmHWM:\s+([0-9]+)} [read $f] -> kb; puts "H $kb"' \
        "$2" 2>&1 | sed -n 's/^[PH] //p' | tr '\n' ' '
    echo
}

echo "== recordings (bench/replay-loop N $MARK, in $W)"
for n in $SIZES; do
    rec=$W/r$n
    t0=$(now)
    taskset -c "$CPU" "$NOOSA" record -o "$rec" "$LOOP" "$n" "$MARK" \
        >"$rec.rec" 2>&1
    t1=$(now)
    sed -n 's/^noosa: recorded \([0-9]*\) events.*/\1/p' "$rec.rec" \
        >"$rec.events"
    [ -s "$rec.events" ] || { cat "$rec.rec" >&2; exit 1; }
    printf '  %11d events, %6d MB, recorded in %.1f s\n' "$(cat "$rec.events")" \
        "$(du -sm "$rec" | cut -f1)" "$(echo "$t0 $t1" | awk '{ print ($2 - $1) / 1e9 }')"
done

echo "== opening, ms of wall time (the first makes the index)"
for n in $SIZES; do
    rec=$W/r$n
    rm -f "$rec/.noosa_index"
    first=$(opening "$NOOSA" "$rec")
    fhwm=$(awk '{ printf "%.0f", $1 / 1024 }' "$W/hwm")
    : >"$W/open"
    : >"$W/open.base"
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        opening "$NOOSA" "$rec" >>"$W/open"
        [ -z "$BASE" ] || opening "$BASE" "$rec" >>"$W/open.base"
        r=$((r + 1))
    done
    printf '  %11d events: first %9.1f (peak %s MB, index %s KB), with the index %7.1f (median of %d, peak %s MB)' \
        "$n" "$first" "$fhwm" "$(du -k "$rec/.noosa_index" | cut -f1)" \
        "$(median "$W/open")" "$ROUNDS" "$(awk '{ printf "%.0f", $1 / 1024 }' "$W/hwm")"
    [ -z "$BASE" ] || printf ', base %.1f' "$(median "$W/open.base")"
    echo
done

hows=plain
[ "${STATED:-yes}" = no ] || hows="plain stated"
for how in $hows; do
    if [ $how = plain ]; then
        echo "== moves with \`break mark', ms of wall time inside noosa, median of $ROUNDS"
        setup=""
    else
        echo "== the same moves with both profiles on (every event wanted)"
        setup="profile time on; profile freq on; profile print off; profile timeline 0"
    fi
    printf '  %11s %9s %9s %10s %9s %9s %9s %9s\n' events goto-end step-back \
        goto-start goto-end2 reverse total peak-MB
    for n in $SIZES; do
        rec=$W/r$n
        rm -f "$W"/m.*
        r=0
        while [ $r -lt "$ROUNDS" ]; do
            moves "$NOOSA" "$rec" "$setup"
            r=$((r + 1))
        done
        printf '  %11d %9.2f %9.2f %10.2f %9.2f %9.2f %9.2f %9.1f\n' "$n" \
            "$(median "$W/m.goto-end")" "$(median "$W/m.step-back")" \
            "$(median "$W/m.goto-start")" "$(median "$W/m.goto-end2")" \
            "$(median "$W/m.reverse-continue")" "$(median "$W/m.total")" \
            "$(median "$W/m.hwm" | awk '{ print $1 / 1024 }')"
        median "$W/m.total" >"$W/total.$how.$n"
        if [ -n "$BASE" ] && [ $how = plain ]; then
            rm -f "$W"/m.*
            moves "$BASE" "$rec" "$setup"
            printf '  %11s %9.2f %9.2f %10.2f %9.2f %9s %9.2f  (base, once)\n' \
                base "$(cat "$W/m.goto-end")" "$(cat "$W/m.step-back")" \
                "$(cat "$W/m.goto-start")" "$(cat "$W/m.goto-end2")" - \
                "$(cat "$W/m.total")"
        fi
    done
    first=$(echo "$SIZES" | awk '{ print $1 }')
    last=$(echo "$SIZES" | awk '{ print $NF }')
    if [ "$first" != "$last" ]; then
        awk -v a="$(cat "$W/total.$how.$first")" -v b="$(cat "$W/total.$how.$last")" \
            -v x="$first" -v y="$last" 'BEGIN {
            printf "  growth: moves in %d events / in %d events = %.2f\n",
                y, x, (a > 0 ? b / a : 0) }'
    fi
done

[ "${PLAY:-yes}" = no ] && exit 0
echo "== a whole play into both profiles: Mevents/s by CPU time (median of $ROUNDS), peak MB"
for n in $SIZES; do
    rec=$W/r$n
    ev=$(cat "$rec.events")
    : >"$W/p.on"
    : >"$W/p.off"
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        play "$NOOSA" "$rec" "list" >>"$W/p.on"
        play "$NOOSA" "$rec" "replay checkpoints 0" >>"$W/p.off"
        r=$((r + 1))
    done
    printf '  %11d events: with checkpoints %6.1f M/s (%5.0f MB); first only %6.1f M/s (%5.0f MB)\n' \
        "$ev" "$(echo "$ev $(median "$W/p.on")" | awk '{ print $1 / $2 }')" \
        "$(median "$W/p.on" 2 | awk '{ print $1 / 1024 }')" \
        "$(echo "$ev $(median "$W/p.off")" | awk '{ print $1 / $2 }')" \
        "$(median "$W/p.off" 2 | awk '{ print $1 / 1024 }')"
done
