#!/bin/sh
# SPDX-License-Identifier: MIT
# debug-run.sh - what the program's C data costs (make bench-debug):
#
#   print    at the visit stop of tests/debug/dv (-O2): print of a struct
#            (nodes[1], 104 bytes) and of a 1000-element array (big,
#            4000 bytes, 200 shown), and n_cvalue of each (the whole
#            array as a Tcl list): microseconds a command, timed inside
#            noosa by Tcl's time over REPS (default 2000); the same
#            prints in gdb stopped in the same frame, timed by its Python
#            over REPS; the ratio gdb / noosa (above 1: noosa is faster).
#            Reading crosses to the program (process_vm_readv): pinned to
#            two CPUs and to one (taskset), median of ROUNDS.
#   index    bench/debug-index on a large program (PROGRAM, default
#            noosa's own binary: its 45k lines of C, with -g) stopped at
#            its exec, and on dv: the names and compilation units indexed,
#            the milliseconds to open the debug information and to build
#            the index (the first look-up of a global); gdb reading the
#            same program to find the same name (gdb -batch -ex 'info
#            address NAME' PROGRAM, less gdb -batch alone), median of
#            ROUNDS.
#   startup  noosa on the example (calc) to its prompt, and to a stop and
#            back: nothing of this layer runs before it is asked (with
#            NOOSA_BASE=another build's src/noosa, say main's before this
#            layer, the same for it, run by run in turn); then the first
#            print at a stop of dv, of a global (the debug information
#            opened, the index of names built) and of a local (the frames
#            unwound too).
#
# gdb is the peer; without it, its columns say "no gdb".
set -e
B=${top_builddir:-.}
NOOSA=$(cd "$(dirname "$B/src/noosa")" && pwd)/noosa
DV=$(cd "$B/tests/debug" && pwd)/dv-O2
IDX=$B/bench/debug-index
PROGRAM=${PROGRAM:-$(cd "$(dirname "$B/src/.libs/noosa")" 2>/dev/null && pwd)/noosa}
[ -x "$PROGRAM" ] || PROGRAM=$NOOSA
NAME=${NAME:-noosa_create}
REPS=${REPS:-2000}
ROUNDS=${ROUNDS:-5}
GDB=${GDB:-gdb}
W=${TMPDIR:-/tmp}/noosa-bench-debug.$$
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT
have_gdb=1
"$GDB" -nx -batch -ex 'print 1' >/dev/null 2>&1 || have_gdb=0
[ $have_gdb = 1 ] || echo "gdb is not installed: its columns say no gdb"

median() {
    sort -n "$1" | sed -n "$(( ($(wc -l <"$1") + 1) / 2 ))p"
}

# noosa_us CPUS WHAT: microseconds a command of WHAT (a Tcl script) at
# dv's second visit stop.
noosa_us() {
    taskset -c "$1" "$NOOSA" --batch -n -e 'break visit' -e run -e continue \
        -e "set r [lindex [time {$2} $REPS] 0]" -e 'n_say "RESULT $r\n"' \
        -e kill "$DV" </dev/null 2>/dev/null | sed -n 's/^RESULT //p'
}

# gdb_us CPUS EXPR: microseconds a print of EXPR in gdb at the same stop.
gdb_us() {
    taskset -c "$1" "$GDB" -nx -batch -ex 'set pagination off' \
        -ex 'break main' -ex run -ex 'set var dv_dapto_state[0] = 1' \
        -ex 'break dv_dapto_emit_visit' -ex continue -ex continue \
        -ex 'frame 2' \
        -ex "python import time; t = time.perf_counter(); [gdb.execute('print $2', to_string=True) for i in range($REPS)]; print('RESULT %.2f' % ((time.perf_counter() - t) / $REPS * 1e6))" \
        "$DV" </dev/null 2>/dev/null | sed -n 's/^RESULT //p'
}

echo "print: microseconds a command at a stop of dv (-O2), $REPS each, median of $ROUNDS"
printf '%-6s %-22s %10s %10s %8s\n' cpus command noosa gdb gdb/noosa
for cpus in 0,1 0; do
    for what in "print {nodes[1]}|nodes[1]" "print big|big" \
        "n_cvalue {nodes[1]}|" "n_cvalue big|"; do
        script=${what%|*}
        expr=${what#*|}
        : >"$W/n"
        : >"$W/g"
        r=0
        while [ $r -lt "$ROUNDS" ]; do
            noosa_us "$cpus" "$script" >>"$W/n"
            if [ $have_gdb = 1 ] && [ -n "$expr" ]; then
                gdb_us "$cpus" "$expr" >>"$W/g"
            fi
            r=$((r + 1))
        done
        n=$(median "$W/n")
        if [ -s "$W/g" ]; then
            g=$(median "$W/g")
            ratio=$(awk -v a="$g" -v b="$n" 'BEGIN { printf "%.2f", a / b }')
        else
            g=-
            ratio=-
            [ $have_gdb = 1 ] || g="no gdb"
        fi
        printf '%-6s %-22s %10s %10s %8s\n' "$cpus" "$script" "$n" "$g" "$ratio"
    done
done

echo
echo "index: the debug information of a program stopped at its exec, median of $ROUNDS"
for prog in "$PROGRAM:$NAME" "$DV:counter"; do
    p=${prog%:*}
    name=${prog##*:}
    echo "$(basename "$p") ($name): $("$IDX" "$p" "$name" "$ROUNDS")"
    if [ $have_gdb = 1 ]; then
        : >"$W/g"
        r=0
        while [ $r -lt "$ROUNDS" ]; do
            t0=$(date +%s%N)
            "$GDB" -nx -batch -ex "info address $name" "$p" >/dev/null 2>&1
            t1=$(date +%s%N)
            "$GDB" -nx -batch >/dev/null 2>&1
            t2=$(date +%s%N)
            echo $(( (t1 - t0) - (t2 - t1) )) >>"$W/g"
            r=$((r + 1))
        done
        awk -v ns="$(median "$W/g")" \
            'BEGIN { printf "  gdb reading it to find the name: %.2f ms\n", ns / 1e6 }'
    fi
done

echo
LOOP=${LOOP:-20000}
echo "handler: microseconds an event, $LOOP events of dv, median of $ROUNDS"
printf '%-6s %-54s %10s\n' cpus handler us/event
for cpus in 0,1 0; do
    for h in "{first; incr ::cnt} -nostop" "{first; incr ::cnt} -stop" \
        "{first; incr ::cnt; set c [n_cvalue {node->count}]}" \
        "{first; incr ::cnt; set c [n_cvalue {*node}]}"; do
        : >"$W/h"
        r=0
        while [ $r -lt "$ROUNDS" ]; do
            taskset -c "$cpus" "$NOOSA" --batch -n -e 'set ::cnt 0' \
                -e 'proc first {} { if {$::cnt == 1} { set ::t0 [clock microseconds] } }' \
                -e "handler add visit h $h" -e "run loop $LOOP" \
                -e 'n_say "RESULT [expr {([clock microseconds] - $::t0) / double($::cnt - 1)}]\n"' \
                "$DV" </dev/null 2>/dev/null | sed -n 's/^RESULT //p' >>"$W/h"
            r=$((r + 1))
        done
        printf '%-6s %-54s %10.2f\n' "$cpus" "$h" "$(median "$W/h")"
    done
done

echo
CALC=$B/examples/calc/calc
DEMO=$(cd "$(dirname "$0")/../examples/calc" && pwd)/demo.calc
echo "startup: ms, median of $((ROUNDS * 3)), pinned to two CPUs"
# calc_ms NOOSA CMDS...: one run of the example to CMDS
calc_ms() {
    n=$1
    shift
    t0=$(date +%s%N)
    taskset -c 0,1 "$n" --batch -n "$@" "$CALC" "$DEMO" </dev/null \
        >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
}
printf '  %-44s %8s %8s\n' "the example (calc)" this base
for what in "to the prompt|-e|quit" "to a stop and back|-e|break binding_made|-e|run|-e|kill"; do
    label=${what%%|*}
    args=${what#*|}
    : >"$W/t"
    : >"$W/b"
    r=0
    while [ $r -lt $((ROUNDS * 3)) ]; do
        (IFS='|'; calc_ms "$NOOSA" $args) >>"$W/t"
        [ -n "${NOOSA_BASE:-}" ] && (IFS='|'; calc_ms "$NOOSA_BASE" $args) >>"$W/b"
        r=$((r + 1))
    done
    base=-
    [ -s "$W/b" ] && base=$(awk -v us="$(median "$W/b")" 'BEGIN { printf "%.1f", us / 1e3 }')
    printf '  %-44s %8.1f %8s\n' "$label" "$(awk -v us="$(median "$W/t")" 'BEGIN { print us / 1e3 }')" "$base"
done
# the first print of a stop of dv: what the debug layer costs when asked
for expr in counter sum; do
    : >"$W/t"
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        taskset -c 0,1 "$NOOSA" --batch -n -e 'break visit' -e run \
            -e 'n_say "RESULT [lindex [time {p '"$expr"'} 1] 0]\n"' \
            -e kill "$DV" </dev/null 2>/dev/null | sed -n 's/^RESULT //p' >>"$W/t"
        r=$((r + 1))
    done
    printf '  %-44s %8.1f\n' "dv's first print of $expr at a stop" \
        "$(awk -v us="$(median "$W/t")" 'BEGIN { print us / 1e3 }')"
done
