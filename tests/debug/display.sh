#!/bin/sh
# SPDX-License-Identifier: MIT
# display.sh - display EXPR in batch mode: shown at once, then at every
# stop after the stop's line, as gdb shows it ("1: x = 5", "2: /x y =
# 0x1"), an expression that cannot be read there showing its error;
# undisplay, info display.
. "${srcdir:-.}/tests/debug/lib.sh"

cat >"$WORK/cmds" <<'CMDS'
break visit
run
display n->count
display/x depth
display *n->label
info display
continue
undisplay 1
continue
display
undisplay 9
undisplay
info display
continue
kill
CMDS
noosa_with display "$DV" "$WORK/cmds"
cat >"$WORK/want" <<'WANT'
1: n->count = 0
2: /x depth = 0x0
3: *n->label = <error: Cannot access memory at address 0x0>
Auto-display expressions now in effect:
Num Enb Expression
1:   y  n->count
2:   y  /x depth
3:   y  *n->label
1: n->count = 10
2: /x depth = 0x1
3: *n->label = 111 'o'
2: /x depth = 0x2
3: *n->label = <error: Cannot access memory at address 0x0>
2: /x depth = 0x2
3: *n->label = <error: Cannot access memory at address 0x0>
There are no auto-display expressions now.
WANT
grep -v -e '^Breakpoint' -e '^Stopped at' -e '^Program killed' \
    -e '^error: undisplay' "$WORK/display.out" >"$WORK/got"
if diff -u "$WORK/want" "$WORK/got"; then
    echo "ok: displays shown at each stop"
else
    fail "displays"
fi
has display '^error: undisplay: no display number 9 \(see "info display"\)$'
# after the stop's line, not before
awk '/^Stopped at .*depth=1/ { s = NR } /^1: n->count = 10$/ { d = NR }
     END { exit !(s && d == s + 1) }' "$WORK/display.out" ||
    fail "display before its stop's line"

# at each of 400 stops in a row, the display is read in the program's
# frame: noosa unwinds the stopped thread while it still spins in the
# runtime, and a spin that read the clock (clock_gettime, in the vDSO,
# which the unwinder cannot read through) left about 1 stop in 150 with a
# broken stack and "No symbol" (1 run of this test in 40 under load)
cat >"$WORK/many" <<'CMDS'
break visit
run loop 400
display k
for {set j 1} {$j < 400} {incr j} {cont}
kill
CMDS
noosa_with many "$DV" "$WORK/many"
count many 400 '^1: k = [0-9]+$'
count many 0 'No symbol'

finish
