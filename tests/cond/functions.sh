#!/bin/sh
# SPDX-License-Identifier: MIT
# functions.sh - conditions on enter and leave in a program built with
# -finstrument-functions: its function records carry two addresses, not
# the name the conditions read, so the program sends them on and noosa
# decides <protocol#filter>.  The same condition gives the same handler
# runs with "conditions program" and "conditions noosa" (the program used
# to drop every function record the condition read a name of).  A
# breakpoint on a function's entry or exit stops the program there (the
# program used to record the function record instead, so the breakpoint
# counted hits and never stopped), with the stop line and backtrace of
# the function it stopped in, its condition evaluated in noosa.
. "$srcdir/tests/cond/lib.sh"
QUEENS=$abs_top_builddir/tests/profile/queens

for where in program noosa; do
    batch "$where" -e "conditions $where" -e 'set c 0; set l 0' \
        -e 'handler add enter h {incr ::c} -if {[string match p* $name]}' \
        -e 'handler add leave g {incr ::l} -if {$name eq "place"}' -e run \
        -e 'puts "enters $c leaves $l"' "$QUEENS"
    status "$where" 0
done
a=$(grep '^enters' "$WORK/program.out")
b=$(grep '^enters' "$WORK/noosa.out")
if [ -n "$a" ] && [ "$a" = "$b" ]; then
    echo "ok: $a in both"
else
    fail "in the program: $a; in noosa: $b"
fi
has program '^enters [1-9][0-9]* leaves [1-9][0-9]*$'

# queens 4 places queens in 17 calls of place (2 solutions)
for where in program noosa; do
    batch "break-$where" -e "conditions $where" \
        -e 'break enter if {$name eq "place"} count 3' \
        -e 'break leave if {$name eq "report"}' -e run -e bt -e continue \
        -e continue -e continue -e 'info breakpoints' -e continue \
        "$QUEENS" 4
    status "break-$where" 0
    count "break-$where" 3 '^Stopped at breakpoint 1 for event "enter": name="place"$'
    count "break-$where" 1 '^Stopped at breakpoint 2 for event "leave": name="report"$'
    count "break-$where" 4 '^Stopped at '
    # the backtrace starts at the function (not in the runtime's hooks)
    has "break-$where" '^  #0 +(0x[0-9a-f]+ in )?place \(.*\) at '
    count "break-$where" 0 '^  #[0-9]+ .*(fn_record|hook_on|hook_more|stop_event|sched_yield)'
    has "break-$where" '^1 +y +3 +enter if \$name eq "place" count 3$'
    has "break-$where" '^Program exited with status 0'
done
has break-program 'in noosa for function entries and exits \(-finstrument-functions\)'
# a handler that needs a stop (n_break) stops at function entries too
batch handler-stop -e 'handler add enter h {if {$name eq "place"} n_break}' \
    -e run -e continue -e kill "$QUEENS" 4
status handler-stop 0
count handler-stop 2 '^Stopped at handler "h" for event "enter": name="place"$'
finish
