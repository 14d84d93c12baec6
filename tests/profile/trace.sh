#!/bin/sh
# SPDX-License-Identifier: MIT
# trace.sh - the event trace: Noosa's format, the filter (NAME or
# ASPECT.NAME, a Tcl regular expression), events it does not want stay
# off in the program, on/off and the status, values of user types
# browsable, strings shown as data, bad expressions.

. "${srcdir:-.}/tests/profile/lib.sh"

batch all -e 'trace on' -e run -e trace -e 'trace off' -e trace -e run \
    "$PT" nest 2
expect all

batch filter -e 'trace on {^(tick|pt\.other)$}' -e run -e trace "$PT" nest 1
expect filter

# the program sees only what the trace asked for
batch states -e 'trace on ^tick$' -e run "$PT" states 2
contains states "states tick=2 other=0 quiet=0 enter=0 leave=0"
batch states-all -e 'trace on' -e run "$PT" states 2
contains states-all "states tick=2 other=2 quiet=2 enter=2 leave=2"

# values of user types are browsable; strings are data
batch calc -e 'trace on ^(call_entered|printed)$' -e run -e 'values 0' \
    "$CALC" "$EXAMPLES/strings.calc"
contains calc 'call_entered call=Node:0x'
contains calc 'printed text="'
grep -q '^\[[0-9]*\] Node:0x' calc.out ||
    fail "calc: no Node among the browsable values"

# bad uses
batch bad -e 'trace on (' -e 'trace sideways' -e 'trace on a b' \
    -e 'trace off now' "$PT" nest 1
expect bad

finish
