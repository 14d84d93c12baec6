#!/bin/sh
# SPDX-License-Identifier: MIT
# operations.sh - operations that do not answer: one that loops for ever
# and one that sleeps in a system call are interrupted after --timeout and
# their thread is back at its event, where operations run again and from
# where the program goes on.  With a runtime that cannot be interrupted
# (as before protocol 1.0.1), noosa says that the thread still runs the
# operation, send and continue say so too (never a state number), and
# kill ends the program.
. "$srcdir/tests/load/lib.sh"

batch spin --timeout=300 -e 'break tick' -e run -e 'send spin' \
    -e 'send add 2 3' -e 'send nap 5000' -e 'send add 3 4' \
    -e 'puts "status $n(status)"' -e continue "$LT" stopped
status spin 1
count spin 1 '^error: send spin: operation spin did not answer within 300 ms: noosa interrupted it, and its thread is back at the event$'
count spin 1 '^error: send nap: operation nap did not answer within 300 ms: noosa interrupted it, and its thread is back at the event$'
has spin '^add 2 3 => 5$'
has spin '^add 3 4 => 7$'
has spin '^status stopped$'
has spin '^stopped: went on$'
has spin '^Program exited with status 0\.$'

# n_send in a handler at a stop: the same, as a Tcl error the handler
# can catch.
batch caught --timeout=300 \
    -e 'handler add tick h {catch {n_send spin} m; puts "caught: $m"; puts "then [n_send add 1 1]"} -stop' \
    -e run "$LT" stopped
status caught 0
has caught '^caught: n_send spin: operation spin did not answer within 300 ms: noosa interrupted it, and its thread is back at the event$'
has caught '^then 2$'
has caught '^stopped: went on$'

batch old --timeout=300 -e 'break tick' -e run -e 'send spin' \
    -e 'send add 2 3' -e continue -e 'puts "status $n(status)"' -e kill \
    "$LT" stopped-old
status old 1
has old '^error: send spin: operation spin did not answer within 300 ms and could not be interrupted \(the program.s runtime does not offer to interrupt operations\): thread [0-9]+ is still running it \("kill" ends the program\)$'
count old 2 'the thread stopped at the event still runs an operation that did not answer \("kill" ends the program\)$'
has old '^status stopped$'
has old '^Program killed by SIGKILL\.$'
count old 0 'state [0-9]'
finish
