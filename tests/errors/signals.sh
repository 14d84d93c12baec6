#!/bin/sh
# SPDX-License-Identifier: MIT
# signals.sh - fatal signals under noosa: each stops the program before
# delivery with the signal, its cause, the backtrace (function names and
# file:line), the last events and the choices; continue passes the signal
# (the program dies, or its own handler runs); kill terminates; batch mode
# without a policy terminates and says so.  And without noosa, recovery
# points change nothing.
. "$srcdir/tests/errors/lib.sh"

# Division by zero, asked: no recovery point, so no conversion; continue
# passes SIGFPE and the program dies of it.
batch div-continue "errors ask" "run div $(prog div-continue)" continue
check div-continue 136

# A null pointer, in batch mode with no policy: terminated, and told so.
batch null-none "run null $(prog null-none)"
check null-none 1

# errors terminate: terminated without a question.
batch null-terminate "errors terminate" "run null try $(prog null-terminate)"
check null-terminate 1

# abort, asked, then kill.
batch abort-kill "errors ask" "run abort $(prog abort-kill)" kill
check abort-kill 0

# An illegal instruction and a bus error, converted.
batch ill "errors convert" "run ill try $(prog ill)"
check ill 0
batch bus "errors convert" "run bus try $(prog bus)"
check bus 0

# The program's own handler runs when the signal is passed.
batch handler "errors ask" "run handler $(prog handler)" continue
check handler 3

# Without noosa, a recovery point does not catch anything.
"$ET" null try >"$WORK/plain-null.prog" 2>&1
rc=$?
if [ $rc -ne 139 ]; then
    echo "FAIL: et-errors null try without noosa: status $rc, expected 139"
    failures=$((failures + 1))
else
    echo "ok: plain-null"
fi

finish
