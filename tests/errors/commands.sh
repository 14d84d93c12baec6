#!/bin/sh
# SPDX-License-Identifier: MIT
# commands.sh - the commands: errors (the policy, the number of last
# events, the component stacks, with bad arguments refused), bt and
# convert where they cannot work, the component stack in a report, bt at
# an event stop, and an operation that crashes while the program is
# stopped at an event: it stays stopped there.
. "$srcdir/tests/errors/lib.sh"

batch errors-cmd errors "errors ask" errors "errors convert 3" errors \
    "errors convert" errors "errors terminate" errors "errors last" \
    "errors last 0" "errors last" "errors bogus" "errors convert 0" \
    "errors convert x" "errors last 1001" "errors ask extra" bt convert \
    "bt 1 2" "bt x" "errors stacks" "errors stacks on" "errors stacks" \
    "errors stacks maybe" "errors stacks off" "errors stacks" \
    "errors functions" "errors functions on" "errors functions" \
    "errors functions maybe" "errors functions off" "errors functions"
check errors-cmd 1

# The last 5 events before the error, in order.
batch last "errors last 5" "errors ask" "run events $(prog last)" kill
check last 0
batch last-none "errors last 0" "errors ask" "run events $(prog last-none)" kill
check last-none 0

# The component stack, from enter and leave, when it is kept.
batch components "errors stacks on" "errors ask" "run components $(prog components)" kill
check components 0
batch components-off "errors stacks" "errors ask" "run components $(prog components-off)" kill
check components-off 0

# At an event: bt shows the program's frames, not the runtime's; an
# operation that crashes leaves the program stopped at its event.
batch send-crash "break step" "run steps 3 $(prog send-crash)" bt \
    "send crash" "set n(status)" "send count" continue "bt" "send count" \
    delete continue
if grep -q '^error: send crash: .*crash.*SIGSEGV' "$WORK/send-crash.out"; then
    # the wording of the message is the operation's business, not ours
    sed -i '/^error: send crash/d' "$WORK/send-crash.out"
else
    echo "FAIL: send-crash: no error for the crash"
    failures=$((failures + 1))
fi
check send-crash 1

# At an event whose condition the program decided (its encoder asked the
# filter before encoding): bt shows the program's frames alone too.
batch bt-cond 'break step if {$n == 2}' "run steps 3 $(prog bt-cond)" bt continue
check bt-cond 0

finish
