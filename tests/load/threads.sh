#!/bin/sh
# SPDX-License-Identifier: MIT
# threads.sh - threads that come and go while they emit: 8 and 32 threads,
# at most a few alive at a time, so that some exit while others start,
# with a handler counting each thread's events, then with a breakpoint on
# a rare event as well.  Every count must be exact and every thread must
# be seen.  noosa used to lose a new thread's parent when the table of
# threads grew (it resumed a stale entry), which left the program's main
# thread stopped at clone3 for ever.
. "$srcdir/tests/load/lib.sh"

# counts T N: the handler's count for each of T threads is N.
counts='set bad 0; for {set k 0} {$k < $T} {incr k} {
    if {![info exists c($k)] || $c($k) != $N} {incr bad; puts "thread $k: [expr {[info exists c($k)] ? $c($k) : 0}]"}
}; puts "threads [array size c] wrong $bad"'

for shape in "8 20000 3" "32 5000 6" "32 2000 32"; do
    set -- $shape
    name=handler-$1-$3
    batch "$name" -e "set T $1; set N $2" \
        -e 'handler add tock count {global c; incr c($th)}' -e run \
        -e "$counts" "$LT" threads "$1" "$2" "$3"
    status "$name" 0
    has "$name" "^threads $1 wrong 0\$"
    has "$name" "^threads: $1 x $2 tocks\$"
done

# A breakpoint on the last rare event of each thread (every thousandth
# event is rare): one stop per thread, the counts still exact.
batch break-8 -e 'set T 8; set N 20000; set stops 0' \
    -e 'handler add tock count {global c; incr c($th)}' \
    -e 'break rare if {$i == 19999}' -e run \
    -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
    -e 'puts "stops $stops"' -e "$counts" "$LT" threads 8 20000 3
status break-8 0
has break-8 '^stops 8$'
has break-8 '^threads 8 wrong 0$'

# The same with the condition evaluated in noosa: every rare event
# crosses to noosa, which decides.
batch break-8n -e 'set T 8; set N 20000; set stops 0' \
    -e 'handler add tock count {global c; incr c($th)}' \
    -e 'conditions noosa' -e 'break rare if {$i == 19999}' -e run \
    -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
    -e 'puts "stops $stops"' -e "$counts" "$LT" threads 8 20000 3
status break-8n 0
has break-8n '^stops 8$'
has break-8n '^threads 8 wrong 0$'

batch break-32 -e 'set T 32; set N 4000; set stops 0' \
    -e 'handler add tock count {global c; incr c($th)}' \
    -e 'break rare if {$i == 3999}' -e run \
    -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
    -e 'puts "stops $stops"' -e "$counts" "$LT" threads 32 4000 8
status break-32 0
has break-32 '^stops 32$'
has break-32 '^threads 32 wrong 0$'
finish
