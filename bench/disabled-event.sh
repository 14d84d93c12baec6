#!/bin/sh
# SPDX-License-Identifier: MIT
#
# disabled-event.sh PROGRAM [VALGRIND] - run the disabled-event benchmark,
# then, when valgrind is there, count the instructions each loop executes
# per iteration with callgrind, as a cross-check that does not depend on
# the machine's load.
set -eu
prog=$1
valgrind=${2:-no}

"$prog"
if [ "$valgrind" = no ] || ! command -v callgrind_annotate >/dev/null 2>&1; then
    echo "  (callgrind not available: no instruction counts)"
    exit 0
fi
n=1000000
out=${TMPDIR:-/tmp}/disabled-event.callgrind.$$
trap 'rm -f "$out"' EXIT
"$valgrind" --tool=callgrind --callgrind-out-file="$out" "$prog" $n 1 >/dev/null 2>&1
callgrind_annotate --auto=no --threshold=100 "$out" 2>/dev/null | tr -d , | awk -v n=$n '
    # self cost per function, summed over the files it was inlined from
    $1 ~ /^[0-9]+$/ { f = $3; sub(/.*:/, "", f); cost[f] += $1 }
    END {
        if (!cost["loop_plain"] || !cost["loop_empty"]) {
            print "  (callgrind: loops not found)"
            exit
        }
        printf "callgrind, %d iterations, instructions/iteration:\n", n
        printf "  loop with work   %6.2f without the event, %6.2f with it (%+.2f)\n",
            cost["loop_plain"] / n, cost["loop_event"] / n,
            (cost["loop_event"] - cost["loop_plain"]) / n
        printf "  empty loop       %6.2f without the event, %6.2f with it (%+.2f)\n",
            cost["loop_empty"] / n, cost["loop_empty_event"] / n,
            (cost["loop_empty_event"] - cost["loop_empty"]) / n
    }'
