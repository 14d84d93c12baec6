#!/bin/sh
# SPDX-License-Identifier: MIT
# handlers.sh - handlers through `noosa --batch`: the event's parameters,
# n_ename, n_time and n_thread as variables; newest first; n_break; an
# error reported with the handler's name, the event's other handlers
# skipped and monitoring going on; return -code break and other codes; removal during the event taking effect
# after it; handler list/get/rename/body/enable/disable; handler files
# saved and loaded back (round trip); calc's handler file on calc.
#
# Which state a handler puts its event in is read from the program
# itself: nt's event mark carries what the state byte of the tick just
# emitted asked for, as the program saw it (off, record, stop).  A handler
# that only prints leaves tick recorded: the program never waits for it.
. "$srcdir/tests/noosa/lib.sh"

cat >vars.tcl <<'EOF2'
handler add tick first {
    global times
    lappend times $n_time
    n_say "tick: n=$n text=$text n_ename=$n_ename"
    n_say " n_time [expr {[string is wide -strict $n_time] && $n_time >= 0}]"
    n_say " positive thread id [expr {$n_thread > 0}]\n"
}
handler add tick second {n_say "second runs first: $n\n"}
handler add mark m {n_say "mark $n sees tick in state $tick_state\n"}
run > vars-prog.out
n_say "times ascending [expr {[lsort -integer $times] eq $times && [llength $times] == 3}]\n"
EOF2
batch vars -n -x vars.tcl "$NT" ticks 3
check vars

# The state of tick, as the program sees it, for each kind of handler.
cat >states.tcl <<'EOF2'
proc ask_count {} { return [n_send tick_count] }
break mark
run > states-prog.out
handler add tick says {n_say "says $n\n"}
continue
handler add tick asks {n_say "asks: [n_send tick_count]\n"}
continue
handler disable tick asks
continue
handler remove tick asks
handler add tick through_proc {n_say "through a proc: [ask_count]\n"}
continue
handler remove tick through_proc
handler add tick stops {n_say "stops $n\n"} -stop
continue
handler remove tick stops
handler add tick never {n_say "never: [n_send tick_count]\n"} -nostop
continue
handler remove tick never
handler remove tick says
continue
handler list
EOF2
batch states -n -x states.tcl "$NT" ticks 7
check states

# n_break, errors, removal during the event, the listing commands.
cat >break.tcl <<'EOF2'
handler add tick later {n_say "later $n\n"}
handler add tick failing {if {$n == 2} {error "no good at $n"}; n_say "failing passed $n\n"}
handler add tick stopper {if {$n == 3} {n_say "asking to stop\n"; n_break}}
handler add tick remover {if {$n == 3} {n_say "removing later\n"; handler remove tick later}}
run > break-prog.out
n_say "where: $n(where)\n"
handler get tick
handler rename tick stopper halt
handler rename tick halt failing
handler body tick halt {n_say "halt body $n\n"}
handler disable tick failing
handler enable tick nobody
handler list
continue
EOF2
batch break -n -x break.tcl "$NT" ticks 4
check break

# Return codes, as for a script bound to an event in Tk: break skips the
# event's other handlers, quietly; continue ends this handler only; any
# other code is an error naming it (they used to be ignored).
cat >codes.tcl <<'EOF2'
handler add tick last {n_say "last $n\n"}
handler add tick odd {if {$n == 3} {return -code 99 odd}; n_say "odd passed $n\n"}
handler add tick skip {if {$n == 2} {n_say "skipping the others\n"; return -code break}}
handler add tick cont {if {$n == 1} {return -code continue}; n_say "cont passed $n\n"}
run > codes-prog.out
EOF2
batch codes -n -x codes.tcl "$NT" ticks 4
check codes

# Round trip: handlers installed from a file are saved as the same file.
cat >h1.handlers <<'EOF2'
n_install_handler {tick 0 shown 1 {n_say "shown: $n {braces} \"quotes\" \[brackets\] \$dollar\n"}}
n_install_handler {tick 1 two_lines 0 {n_say "first line\n"
n_say "second line\n"}}
n_install_handler {mark 0 stop_at_2 1 {if {$n == 2} n_break}}
EOF2
cat >files.tcl <<'EOF2'
handler load h1.handlers
handler save h2.handlers
handler remove tick shown
handler remove tick two_lines
handler remove mark stop_at_2
handler list
handler load h2.handlers
handler save h3.handlers
handler save h4.handlers mark
handler list
run > files-prog.out
handler load missing.handlers
EOF2
batch files -n -x files.tcl "$NT" ticks 3
check files
if cmp -s h1.handlers h2.handlers && cmp -s h1.handlers h3.handlers; then
    echo "ok: handler files round trip"
else
    fail "handler files round trip:"
    diff -u h1.handlers h2.handlers
    diff -u h1.handlers h3.handlers
fi
same "handler save FILE EVENT" h4.handlers \
    'n_install_handler {mark 0 stop_at_2 1 {if {$n == 2} n_break}}'

# Bad handlers and handler files.
printf '%s\n' 'n_install_handler {tick 0 fine 1 {n_say fine}}' '' \
    'n_install_handler {nosuch 0 bad 1 {n_say bad}}' >bad.handlers
cat >bad.tcl <<'EOF2'
handler add nosuch h {n_say hi}
handler add tick h
handler add tick h {n_say hi} -sometimes
n_install_handler {nosuch 0 h 1 {n_say hi}}
n_install_handler {tick 0 h}
n_install_handler {tick first h 1 {n_say hi}}
n_install_handler {tick 0 h maybe {n_say hi}}
handler load bad.handlers
handler remove tick nobody
handler frob
n_break
handler list
EOF2
batch handlers-bad -n -x bad.tcl "$NT" ticks 1
check handlers-bad

# calc's handler file on calc: bindings shown with browsable values, a
# stop when fact is bound, tokens counted and reported at the end.
cat >calc.tcl <<EOF2
handler load $EXAMPLES/calc.handlers
run > calc-prog.out
n_say "\$n(where)\n"
continue
EOF2
batch calc-handlers -n -x calc.tcl "$CALC" "$TESTS_SRC/small.calc"
check calc-handlers
same "calc's output under noosa" calc-prog.out "fact 6"

finish
