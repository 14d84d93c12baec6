#!/bin/sh
# SPDX-License-Identifier: MIT
# functions.sh - conditions on enter and leave in a program built with
# -finstrument-functions: its function records carry two addresses, not
# the name the conditions read, so the program sends them on and noosa
# decides <protocol#filter>.  The same condition gives the same handler
# runs with "conditions program" and "conditions noosa" (the program used
# to drop every function record the condition read a name of).
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
finish
