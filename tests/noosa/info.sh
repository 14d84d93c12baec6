#!/bin/sh
# SPDX-License-Identifier: MIT
# info.sh - what noosa tells about the program and itself: info events
# (-v), aspects, operations, program (before, at a stop, after),
# breakpoints, handlers; n(events), n(aspects), n(operations) in the .db
# files' format, n_provided, n(status) and n(pid); help and help COMMAND.
. "$srcdir/tests/noosa/lib.sh"

cat >info.tcl <<'EOF2'
info events
info events -v
info aspects
info operations
info program
n_say "aspects: $n(aspects)\n"
n_say "events: [llength $n(events)]; tick: [lsearch -inline -index 0 $n(events) tick]\n"
n_say "quiet: [lsearch -inline -index 0 $n(events) quiet]\n"
n_say "cell_info: [lsearch -inline -index 0 $n(operations) cell_info]\n"
n_say "provided: nt [n_provided nt], dapto [n_provided dapto], calc [n_provided tree]\n"
n_say "status $n(status), pid $n(pid)\n"
break nt.tick if {$n > 1}
handler add mark m {n_say "mark $n\n"}
info breakpoints
info handlers
run > info-prog.out
info program
n_say "status $n(status), pid [expr {$n(pid) > 0}]\n"
continue
info program
EOF2
batch info -n -x info.tcl "$NT" ticks 2
check info

# help lists at least these commands, each with a summary.
batch help-list -n -e help "$NT"
for c in 'run ?ARG ...?' continue step stop kill 'break ...' \
    'delete ?N ...?' 'enable ?N ...?' 'disable ?N ...?' 'handler ...' \
    'send OPERATION ?ARG ...?' 'info SUBCOMMAND ?ARG ...?' \
    'help ?COMMAND ?SUBCOMMAND??' 'quit ?STATUS?' \
    'values ?FIRST?' 'open N'; do
    if grep -q -F -e "  $c " help-list.out; then
        echo "ok: help lists $c"
    else
        fail "help does not list $c"
    fi
done
cat >help.tcl <<'EOF2'
help break
help c
help handler
help frobnicate
help a b
EOF2
batch help -n -x help.tcl "$NT"
check help

# An info subcommand that does not exist lists noosa's (Tcl's own info is
# ::info at the prompt); prefixes still work, an ambiguous one says which
# it begins.
batch info-bad -n -e 'info nothing' -e 'info pro' -e 'info op' \
    -e 'info tclversion' "$NT"
check info-bad

finish
