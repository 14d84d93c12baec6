#!/bin/sh
# SPDX-License-Identifier: MIT
# broken.sh - a program that corrupts the channel (a commit word of an
# impossible size at the head of the ring, as a wild pointer would): noosa
# says "protocol error" once, with the position and the size; by default
# it lets the program go on unmonitored (a thread at a stop goes on, a
# thread waiting for room in the ring gives up its record), and batch mode
# ends with status 1 once the program has ended by itself.  Nothing hangs.
. "$srcdir/tests/load/lib.sh"

# Every event a stop: the thread of the first event after the corrupt
# word waits at its stop when noosa finds the word.
batch stops -e 'conditions noosa' -e 'break tick if {$i < 0}' -e run "$LT" scribble 1000
status stops 1
count stops 1 'protocol error'
has stops 'protocol error: the event ring is corrupt at position [0-9]+: a record of 12345 bytes .*; monitoring stops here$'
has stops '^The program goes on unmonitored\.$'
has stops '^scribble: done$'
has stops '^Program exited with status 0\.$'

# Every event recorded: after the corrupt word the program fills the ring
# (50000 records of 48 bytes, more than its 1 MiB) and waits for room.
batch records -e 'handler add tick h {}' -e run "$LT" scribble 50000
status records 1
count records 1 'protocol error'
has records '^scribble: done$'
has records '^Program exited with status 0\.$'

# The error policy decides, as for any error of the program: ask stops
# it (continue lets it go on unmonitored, or kill), terminate kills it.
batch ask -e 'errors ask' -e 'conditions noosa' -e 'break tick if {$i < 0}' -e run \
    -e 'puts "status $n(status)"' -e continue "$LT" scribble 1000
status ask 1
count ask 1 'protocol error'
has ask '^Stopping the program \(errors ask\): "continue" lets it go on unmonitored, "kill" ends it\.$'
has ask '^status stopped$'
has ask '^scribble: done$'
has ask '^Program exited with status 0\.$'

batch ask-kill -e 'errors ask' -e 'handler add tick h {}' -e run \
    -e 'puts "status $n(status)"' -e kill "$LT" scribble 50000
status ask-kill 1
count ask-kill 1 'protocol error'
has ask-kill '^status stopped$'
has ask-kill '^Program killed by SIGKILL\.$'
count ask-kill 0 '^scribble: done$'

batch terminate -e 'errors terminate' -e 'conditions noosa' -e 'break tick if {$i < 0}' -e run \
    "$LT" scribble 1000
status terminate 1
count terminate 1 'protocol error'
has terminate '^Terminating the program \(errors terminate\)\.$'
has terminate '^Program killed by SIGKILL\.$'
count terminate 0 '^scribble: done$'
# A program that scribbles over the filters noosa wrote in its region
# and their counters <protocol#filter>: the program checks what it reads
# and neither crashes nor reads out of bounds; noosa never reads filters
# back, so it goes on as if nothing happened: no protocol error, and the
# counts it shows are numbers, whatever they are.  Conditions that can
# never hold and one that holds at the first tick of each half.
batch filters -e 'break tick if {$i == 0 || $i == 2000}' \
    -e 'handler add tick h {global n; incr n} -if {$label eq "none"}' \
    -e 'trace on tick -if {$i < 0}' -e run \
    -e 'while {$n(status) eq "stopped"} {cont}' -e 'info breakpoints' \
    "$LT" scribble-filters 2000
status filters 0
has filters '^Stopped at breakpoint 1 for event "tick": i=0 label="before"'
has filters '^scribble-filters: done$'
has filters '^Program exited with status 0\.$'
has filters 'condition runs in the program: [0-9]+ checked, [0-9]+ passed'
count filters 0 'protocol error|error:'
finish
