#!/bin/sh
# SPDX-License-Identifier: MIT
# breaks.sh - breakpoints on events through `noosa --batch`: plain and
# conditional (the event's parameters and n_ename are variables of the
# condition), NAME and ASPECT.NAME, delete/enable/disable, hit counts;
# step from event to visible event (invisible ones are passed), from a
# stop and from no program; the ev array and n(status), n(where), n(pid)
# at a stop and after; bad breakpoints and conditions.
. "$srcdir/tests/noosa/lib.sh"

cat >bp.tcl <<'EOF2'
break tick if {$n % 2 == 0}
run > bp-prog.out
n_say "ev: [lsort [array names ev]]; n=$ev(n) text=$ev(text) n_ename=$ev(n_ename)\n"
n_say "status $n(status); where $n(where); pid [expr {$n(pid) > 0 ? {set} : {unset}}]\n"
continue
break nt.mark if {$n == 5 && $n_ename eq "mark"}
info breakpoints
continue
continue
disable 1
break mark if {$n == 8}
continue
enable 1
delete 2 3
info breakpoints
continue
delete
info breakpoints
n_say "status $n(status); where '$n(where)'; pid zero [expr {$n(pid) == 0}]; ev [array exists ev]\n"
EOF2
batch bp -n -x bp.tcl "$NT" ticks 8
check bp
same bp-prog "$WORK/bp-prog.out" "step 1
step 2
step 3
step 4
step 5
step 6
step 7
step 8"

# step: event by event (quiet is not visible, nor is the runtime's finit
# a step) to the end; then, with no program, it starts one and stops at
# the program's first visible event (it stopped in the runtime's init).
cat >step.tcl <<'EOF2'
break dapto.init
run > step-prog.out
delete
step
step
step
step
step
step
n_say "status $n(status)\n"
step
n_say "status $n(status)\n"
kill
EOF2
batch step -n -x step.tcl "$NT" ticks 2
check step

# A condition that fails when evaluated stops the program and says why;
# malformed breakpoints, and a condition reading a variable the event
# does not give, are refused when they are set.
cat >bp-bad.tcl <<'EOF2'
break nosuch
break nt.nosuch
break tick if
break tick when {$n > 1}
break tick if {$n >}
break tick if {[string length $text}
break tick if {$nosuch > 1}
break tick if {[nosuch_command] > 1}
run > bp-bad-prog.out
delete 9
delete x
enable 1 2
info breakpoints
EOF2
batch bp-bad -n -x bp-bad.tcl "$NT" ticks 2
check bp-bad

finish
