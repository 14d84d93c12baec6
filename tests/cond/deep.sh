#!/bin/sh
# SPDX-License-Identifier: MIT
# deep.sh - conditions nested far deeper than the program's filter could
# hold (60000 !s around a comparison, a || of 60000 comparisons) are
# evaluated in noosa, with the reason in the listing, for a breakpoint, a
# handler's -if and the trace's -if: reading them for the program used to
# recurse once a level and overflow noosa's stack.
. "$srcdir/tests/cond/lib.sh"

# The conditions are built by Tcl in the run (an argument of 60 KB is
# more than a command line may hold): NOTS holds for i == 7, ORS for i
# == 3 and i == 11.
nots='set nots "[string repeat ! 60000](\$i == 7)"; ::list'
ors='set ors "[join [lrepeat 60000 {$i == 3}] { || }] || \$i == 11"; ::list'

batch break -e "$nots" -e 'break sample if $nots' -e run \
    -e 'info breakpoints' -e continue "$CV" samples 20 1
status break 0
count break 1 '^Stopped at breakpoint 1 .*: i=7 '
has break 'condition runs in noosa: an expression nested more than 256 deep is not compilable'
has break '^Program exited with status 0'

batch handler -e "$ors" -e 'handler add sample h {puts "handled $i"} -if $ors' \
    -e run -e 'handler list' "$CV" samples 20 1
status handler 0
count handler 2 '^handled '
has handler '^handled 3$'
has handler '^handled 11$'
has handler 'nested more than 256 deep'

batch trace -e "$ors" -e 'trace on sample -if $ors' -e run -e trace \
    "$CV" samples 20 1
status trace 0
count trace 2 '^sample i='
has trace 'nested more than 256 deep'

# a question must be answered in the program: refused, with the reason
batch question -e "$nots" -e 'question add q sample -if $nots' "$CV" samples 20 1
status question 1
has question 'nested more than 256 deep'

finish
