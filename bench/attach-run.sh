#!/bin/sh
# SPDX-License-Identifier: MIT
# attach-run.sh - `make bench-attach`.  First, noosa -p on a running
# program: the time from starting noosa to its prompt (the first command
# runs), and the time of detach, median of RUNS (default 10) attaches.
# Then the cost of an event in the program in one run of it: before
# attach, while attached with the event off, while attached with the
# event recorded for a handler, and after detach, each as the ratio of
# the loop with the event to the same loop without it (medians of the
# rounds wholly inside each phase).
set -u
NOOSA=${NOOSA:-src/noosa}
PROG=${PROG:-bench/attach-loop}
RUNS=${RUNS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_us() { echo $(($(date +%s%N) / 1000)); }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

"$PROG" 600 >"$tmp/p0.out" &
prog=$!
sleep 0.5
i=0
while [ $i -lt "$RUNS" ]; do
    i=$((i + 1))
    t0=$(now_us)
    "$NOOSA" --batch -n -p $prog -e 'puts "prompt [clock microseconds]"' \
        -e 'puts "detach [clock microseconds]"' -e detach \
        -e 'puts "detached [clock microseconds]"' >"$tmp/a$i.out" 2>&1
    awk -v t0=$t0 '/^prompt/ {p = $2} /^detach / {d = $2} /^detached/ {e = $2}
        END {printf "%d %d\n", p - t0, e - d}' "$tmp/a$i.out" >>"$tmp/times"
done
kill $prog
wait $prog 2>/dev/null
echo "noosa -p to the prompt: median $(cut -d' ' -f1 <"$tmp/times" | median) us;" \
    "detach: median $(cut -d' ' -f2 <"$tmp/times" | median) us ($RUNS attaches," \
    "$(grep -c 'Attached to' "$tmp"/a*.out | awk -F: '{s += $2} END {print s}') attached)"

# One run of the program: 2 s alone, attached 2 s with noosa's default
# states (every event kept in the post-mortem trail; noosa stops at pace
# and goes on, twenty times), 2 s with a handler on the event too, then
# detached for the rest.
"$PROG" 9 >"$tmp/p1.out" &
prog=$!
sleep 2
"$NOOSA" --batch -n -p $prog -e 'break pace' \
    -e 'for {set k 0} {$k < 20} {incr k} {cont}' \
    -e 'puts "phase handler [clock milliseconds]"' \
    -e 'set c 0; handler add hit count {incr ::c}' \
    -e 'for {set k 0} {$k < 20} {incr k} {cont}' \
    -e 'puts "events handled $c"' -e 'puts "phase detach [clock milliseconds]"' \
    -e detach >"$tmp/n1.out" 2>&1
wait $prog
split=$(awk '/^phase handler/ {print $3}' "$tmp/n1.out")
stop=$(awk '/^phase detach/ {print $3}' "$tmp/n1.out")
# rounds wholly inside one phase: attached before and after (1 1), and
# not attached before the first attached round or after the last one
awk -v cut="$split" -v stop="$stop" '/^round/ { n++; st[n] = $2 $3; a[n] = $4; b[n] = $5; t[n] = $6 }
    END {
        first = 0; last = 0
        for (i = 1; i <= n; i++) if (st[i] != "00") { if (!first) first = i; last = i }
        for (i = 1; i <= n; i++) {
            if (i < first) ph = "before"
            else if (i > last) ph = "after"
            else if (st[i] != "11") continue
            else if (t[i] < cut) ph = "trail"
            else if (t[i - 1] > cut && t[i] < stop) ph = "handler"
            else continue
            print ph, b[i] / a[i], a[i], b[i]
        }
    }' "$tmp/p1.out" >"$tmp/rounds"
phase() {
    printf '  %-34s %6.3f  (%d rounds; %.2f ns per iteration with the event)\n' "$2" \
        "$(grep "^$1 " "$tmp/rounds" | awk '{print $2}' | median)" \
        "$(grep -c "^$1 " "$tmp/rounds")" \
        "$(grep "^$1 " "$tmp/rounds" | awk '{print $4}' | median)"
}
printf 'event cost: the loop with the event / the same loop without it, medians:\n'
phase before "before attach"
phase trail "attached, noosa's default (trail)"
phase handler "attached, a handler on the event"
phase after "after detach"
printf '  the loop without the event: %s ns per iteration (median of all rounds)\n' \
    "$(awk '{print $3}' "$tmp/rounds" | median)"
grep -E '^events handled|^Detached' "$tmp/n1.out"
