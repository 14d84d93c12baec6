#!/bin/sh
# SPDX-License-Identifier: MIT
# probe-run.sh - `make bench-probes`: what a hit of a USDT probe costs
# <design#probes>, on tests/probes/pp-main's app:tick (three arguments in
# registers) hit N times in a loop:
#  - noosa through ptrace stops (a breakpoint at the probe, its arguments
#    read at the stop), every hit to a handler in noosa (an empty Tcl
#    body: the cheapest consumer told of every hit of a probe; it needs
#    no stop, so the thread goes on once its arguments are read);
#  - the same with the handler added -stop: the thread waits at each hit
#    until the handler has run (what a breakpoint's condition costs);
#  - noosa with the probe handled in the program (PP_RT: pp-main with the
#    runtime compiled in; the site's nop and the instructions after it
#    replaced by a jump to a trampoline that calls the runtime, which
#    reads the arguments and puts the event in the ring): the program's
#    own time for the loop (it says it) less its time alone, per hit, with
#    a ring that holds every event (the program never waits for noosa,
#    which takes each event to the same empty handler meanwhile);
#  - gdb's `break -probe-stap' on the same probe, with a command that
#    only continues (gdb's cheapest way to see every hit);
#  - a bare stop under ptrace (FLOOR, bench/ptrace-floor.c: a breakpoint
#    instruction in a loop, a C tracer that finds each stop as noosa does,
#    reads the registers and continues): what the kernel's stop and the
#    wake-ups cost on the placement, which no tracer goes below;
# each as the time of the run less that of the same run with nothing
# wanted (the tool's own start and end), per hit; the program alone is
# the baseline.  Kernel uprobes, for comparison (they need root and are
# not run here), cost about 140-330 ns a hit in published measurements.
# On two CPUs (the tool on CPU 0, the program on CPU 1) and on one.
#
# NOOSA, PP, PP_RT and FLOOR in the environment; N (default 20000), NG for gdb
# (2000), NI in the program (1000000),
# ROUNDS (3, medians).
set -e
N=${N:-20000}
NG=${NG:-2000}
NI=${NI:-1000000}
ROUNDS=${ROUNDS:-3}

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.5f", b - a }'; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-probes.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/gdb-on" <<'GDB'
set pagination off
set confirm off
break -probe-stap app:tick
commands
silent
continue
end
run
GDB
printf 'set pagination off\nrun\n' >"$work/gdb-off"

# time CPU CMD...: seconds CMD takes on CPU 0 with the program on CPU
time_of() {
    cpu=$1
    shift
    t0=$(now)
    PP_CPU=$cpu taskset -c 0 "$@" </dev/null >"$work/out" 2>&1 || {
        echo "$*: failed" >&2
        cat "$work/out" >&2
        exit 1
    }
    t1=$(now)
    secs "$t0" "$t1"
}

have_gdb=1
command -v gdb >/dev/null 2>&1 || {
    have_gdb=0
    echo "gdb is not installed (Debian package gdb): its row is left out"
}

for place in two one; do
    cpu=1
    [ "$place" = one ] && cpu=0
    base= non= nstop= noff= gon= goff= rtalone= rton= floor=
    for r in $(seq "$ROUNDS"); do
        base="$base $(time_of $cpu "$PP" loop "$N")"
        non="$non $(time_of $cpu "$NOOSA" --batch -n -e 'handler add tick h {}' \
            -e run "$PP" loop "$N")"
        grep -q 'Program exited with status 0' "$work/out" ||
            { cat "$work/out" >&2; exit 1; }
        nstop="$nstop $(time_of $cpu "$NOOSA" --batch -n \
            -e 'handler add tick h {} -stop' -e run "$PP" loop "$N")"
        grep -q 'Program exited with status 0' "$work/out" ||
            { cat "$work/out" >&2; exit 1; }
        noff="$noff $(time_of $cpu "$NOOSA" --batch -n -e run "$PP" loop "$N")"
        time_of $cpu "$FLOOR" "$N" >/dev/null
        floor="$floor $(sed -n 's/^\([0-9]*\) ns a hit$/\1/p' "$work/out")"
        time_of $cpu "$PP_RT" loop "$NI" >/dev/null
        rtalone="$rtalone $(sed -n 's/^loop: .* in \([0-9]*\) ns$/\1/p' "$work/out")"
        time_of $cpu "$NOOSA" --batch -n --ring-size=268435456 \
            -e 'handler add tick h {}' -e run "$PP_RT" loop "$NI" >/dev/null
        rton="$rton $(sed -n 's/^loop: .* in \([0-9]*\) ns$/\1/p' "$work/out")"
        if [ $have_gdb = 1 ]; then
            gon="$gon $(time_of $cpu gdb -batch -nx -x "$work/gdb-on" --args "$PP" loop "$NG")"
            goff="$goff $(time_of $cpu gdb -batch -nx -x "$work/gdb-off" --args "$PP" loop "$NG")"
        fi
    done
    echo "== $place CPU$( [ $place = two ] && echo s), medians of $ROUNDS runs"
    awk -v n=$N -v b="$(median $base)" -v on="$(median $non)" \
        -v st="$(median $nstop)" -v off="$(median $noff)" \
        -v fl="$(median $floor)" 'BEGIN {
        printf "program alone, %d hits:             %.4f s\n", n, b
        printf "noosa, ptrace stops:              %8.0f ns a hit\n", (on - off) / n * 1e9
        printf "noosa, ptrace stops, -stop:       %8.0f ns a hit\n", (st - off) / n * 1e9
        printf "a bare ptrace stop (C):           %8.0f ns a hit\n", fl
    }'
    awk -v n=$NI -v a="$(median $rtalone)" -v b="$(median $rton)" 'BEGIN {
        printf "noosa, in the program:            %8.0f ns a hit\n", (b - a) / n
    }'
    if [ $have_gdb = 1 ]; then
        awk -v n=$NG -v on="$(median $gon)" -v off="$(median $goff)" \
            -v nn=$N -v non="$(median $non)" -v noff="$(median $noff)" \
            -v nst="$(median $nstop)" 'BEGIN {
            g = (on - off) / n * 1e9
            o = (non - noff) / nn * 1e9
            s = (nst - noff) / nn * 1e9
            printf "gdb, break -probe-stap:           %8.0f ns a hit\n", g
            printf "gdb / noosa (ptrace):             %8.1f\n", g / o
            printf "gdb / noosa (ptrace, -stop):      %8.1f\n", g / s
        }'
    fi
    echo "kernel uprobes (published):        140-330 ns a hit"
done
