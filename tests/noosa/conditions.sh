#!/bin/sh
# SPDX-License-Identifier: MIT
# conditions.sh - a condition is refused where it is given when it could
# never be evaluated: one that reads a variable its event does not give
# (break word_seen if {$cnt > 3} used to be accepted and then fail at
# every event), for break, handler add -if and trace on -if (the trace
# only when no event it shows has the variable), with the event's
# parameters in the message; and one left unbraced at the prompt, whose
# variables Tcl would substitute as the command is read, with the braced
# command to type (a variable that holds a whole condition is fine).
# Nothing is added when a condition is refused.
. "$srcdir/tests/noosa/lib.sh"
. "$abs_top_srcdir/tests/lib/batch-run.sh"

batch reads -e 'break tick if {$cnt > 3}' -e 'break mark if {$n > 1 && $text eq "a"}' \
    -e 'handler add mark h {} -if {$text eq "a"}' -e 'trace on tick|mark -if {$zz}' \
    -e 'break nt.quiet if {$n_pid > 0 && $x}' -e 'info breakpoints' \
    -e 'handler list' -e trace "$NT" ticks 2
status reads 1
has reads '^error: break: the condition reads \$cnt, which event tick does not have: its parameters are \$n, \$text; and \$n_ename, \$n_time, \$n_thread and \$n_pid$'
has reads '^error: break: the condition reads \$text, which event mark does not have: its parameters are \$n, \$tick_state; '
has reads '^error: handler add: the condition reads \$text, which event mark does not have'
has reads '^error: trace: the condition reads \$zz, which none of the 2 events it would apply to has$'
has reads '^error: break: the condition reads \$x, which event quiet does not have: its parameters are \$n; '
has reads '^No breakpoints\.$'
has reads '^No handlers\.$'
has reads '^trace is off'
count reads 5 '^error: '

# what each event gives is fine, and a trace whose condition some of its
# events lack leaves those out
batch fine -e 'break tick if {$n == 2 && $n_thread > 0}' \
    -e 'handler add mark h {n_say "mark $n\n"} -if {$tick_state ne ""}' \
    -e 'trace on -if {$text ne ""}' -e run -e continue "$NT" ticks 2
status fine 0
count fine 1 '^Stopped at breakpoint 1 for event "tick": n=2 '
count fine 2 '^mark [12]$'
count fine 0 '^error'

batch unbraced -e 'break tick if $count > 3' -e 'break tick if $n > 3 every 2' \
    -e 'handler add tick h {} -if "$n > 1"' -e 'trace on tick -if $text eq "a"' \
    -e 'b tick if $n' -e 'set cond {$n == 2}; ::list' -e 'break tick if $cond' \
    -e 'info breakpoints' -e run "$NT" ticks 2
status unbraced 1
has unbraced '^error: break: brace the condition, as in: break tick if \{\$count > 3\} \(without braces Tcl substitutes \$count as the command is read, not at each event\)$'
has unbraced '^error: break: brace the condition, as in: break tick if \{\$n > 3\} every 2 '
has unbraced '^error: handler: brace the condition, as in: handler add tick h \{\} -if \{\$n > 1\} '
has unbraced '^error: trace: brace the condition, as in: trace on tick -if \{\$text eq "a"\} '
has unbraced '^error: b: brace the condition, as in: b tick if \{\$n\} '
count unbraced 5 '^error: '
has unbraced '^1 +y +0 +tick if \$n == 2$'
count unbraced 1 '^Stopped at breakpoint 1 for event "tick": n=2 '

finish
