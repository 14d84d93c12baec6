#!/bin/sh
# SPDX-License-Identifier: MIT
# processes-run.sh - `make bench-processes`: a run of several processes
# (follow-fork both) against one, through `noosa --batch`, every event to
# a consumer in noosa (the frequency profile):
#  - throughput: four workers of K ticks each (lt workers 4 K) against
#    one process of 4 K ticks (lt loop), the same events; events per
#    second and their ratio, median of ROUNDS interleaved runs;
#  - following a child: 32 workers of one tick each, under follow-fork
#    both and under follow-fork parent (the children not followed); the
#    difference per child is what following one costs (its fork point,
#    its attach, its end).
# Both on two CPUs (noosa on CPU 0, the program on CPU 1) and on one.
#
# NOOSA and LT in the environment; K (default 500000) and ROUNDS (5).
set -e
K=${K:-500000}
ROUNDS=${ROUNDS:-5}
N=$((4 * K))

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run PLACEMENT ARG...: seconds noosa takes, all its output checked for
# the program's normal end
run() {
    cpu=$1
    shift
    t0=$(now)
    LT_CPU=$cpu taskset -c 0 "$NOOSA" --batch -n "$@" </dev/null >"$work/out" 2>&1
    t1=$(now)
    grep -q '^Program exited with status 0\.$' "$work/out" || {
        echo "noosa $*: the run went wrong" >&2
        cat "$work/out" >&2
        exit 1
    }
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-processes.XXXXXX")
trap 'rm -rf "$work"' EXIT
for place in two one; do
    cpu=1
    [ "$place" = one ] && cpu=0
    one= four= both= parent=
    for r in $(seq "$ROUNDS"); do
        one="$one $(run $cpu -e 'profile freq on' -e 'profile print off' -e run "$LT" loop $N x)"
        four="$four $(run $cpu -e 'profile freq on' -e 'profile print off' -e run "$LT" workers 4 $K)"
        both="$both $(run $cpu -e 'profile freq on' -e 'profile print off' -e run "$LT" workers 32 1)"
        parent="$parent $(run $cpu -e 'follow-fork parent' -e 'profile freq on' -e 'profile print off' -e run "$LT" workers 32 1)"
    done
    m1=$(median $one)
    m4=$(median $four)
    mb=$(median $both)
    mp=$(median $parent)
    echo "== $place CPU$( [ $place = two ] && echo s), medians of $ROUNDS runs"
    awk -v n=$N -v a="$m1" -v b="$m4" 'BEGIN {
        printf "one process, %d events:        %.3f s, %.2f M events/s\n", n, a, n / a / 1e6
        printf "four processes, %d events:     %.3f s, %.2f M events/s\n", n, b, n / b / 1e6
        printf "ratio four / one (time):            %.3f\n", b / a
    }'
    awk -v a="$mb" -v b="$mp" 'BEGIN {
        printf "32 children followed: %.3f s, not followed: %.3f s: %.2f ms a child followed\n", a, b, (a - b) / 32 * 1000
    }'
done
