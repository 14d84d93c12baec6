#!/bin/sh
# SPDX-License-Identifier: MIT
# dapto-out.sh - a dapto program's events are USDT probes too
# <design#probes>: gdb's `info probes' lists each event of nt (provider:
# the aspect), and at a breakpoint on a probe (`break -probe-stap') gdb
# reads the event's arguments, as many as it has, with the values the
# program passes.  noosa, which hears those events from the runtime,
# does not take them as probes too (the .note.dapto the generated header
# leaves): nt has its aspect once and no probe of its own.

. "${srcdir:-.}/tests/probes/lib.sh"
NT=$abs_top_builddir/tests/noosa/nt

if ! command -v gdb >/dev/null 2>&1; then
    echo "SKIP: gdb is not installed (Debian package gdb)"
    exit 77
fi
[ -x "$NT" ] || { echo "SKIP: $NT not built"; exit 77; }

gdb -batch -nx -ex 'info probes' "$NT" >info.out 2>&1
for ev in tick mark quiet said cell_made; do
    grep -Eq "^stap +nt +$ev +0x" info.out ||
        fail "gdb does not list nt:$ev: $(cat info.out)"
done

cat >gdb.cmd <<'GDB'
set pagination off
set confirm off
break -probe-stap nt:tick
commands
silent
printf "tick argc=%d n=%d text=%s\n", $_probe_argc, $_probe_arg0, (char *)$_probe_arg1
continue
end
break -probe-stap nt:quiet
commands
silent
printf "quiet argc=%d n=%d\n", $_probe_argc, $_probe_arg0
continue
end
break -probe-stap nt:cell_made
commands
silent
printf "cell_made argc=%d value=%d\n", $_probe_argc, **(int **)$_probe_arg0
continue
end
run
GDB
gdb -batch -nx -x gdb.cmd --args "$NT" ticks 2 >ticks.out 2>&1
grep -E '^(tick|quiet) ' ticks.out >ticks.values
cat >ticks.expected <<'OUT'
tick argc=2 n=1 text=step 1
quiet argc=1 n=1
tick argc=2 n=2 text=step 2
quiet argc=1 n=2
OUT
diff ticks.expected ticks.values >/dev/null ||
    fail "gdb's hits of nt's probes: $(diff ticks.expected ticks.values; tail ticks.out)"

# a parameter of a user type travels by its address (Cell's is that of a
# pointer to the cell)
gdb -batch -nx -x gdb.cmd --args "$NT" list 2 >list.out 2>&1
grep -E '^cell_made ' list.out >list.values
printf 'cell_made argc=1 value=10\ncell_made argc=1 value=20\n' >list.expected
diff list.expected list.values >/dev/null ||
    fail "gdb's hits of nt:cell_made: $(diff list.expected list.values; tail list.out)"

batch noosa -e 'info probes' -e 'info aspects' -e 'trace on ^tick$' -e run \
    "$NT" ticks 2
status noosa 0
has noosa "The program has no USDT probes."
[ "$(grep -c '^nt ' noosa.out)" = 1 ] ||
    fail "noosa: not one aspect nt: $(cat noosa.out)"
[ "$(grep -c '^tick ' noosa.out)" = 2 ] ||
    fail "noosa: not 2 ticks: $(cat noosa.out)"
[ "$failures" = 0 ] || exit 1
