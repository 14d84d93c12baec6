#!/bin/sh
# SPDX-License-Identifier: MIT
# report.sh - errors reported with dapto_error(): the program stops with
# the message and the backtrace of its caller; convert makes dapto_error
# return DAPTO_CONVERTED (no recovery point needed), continue lets it
# abort as it would without noosa, where the message is printed too.
. "$srcdir/tests/errors/lib.sh"

batch report-convert "errors ask" "run report $(prog report-convert)" convert
check report-convert 0

batch report-continue "errors ask" "run report $(prog report-continue)" continue
check report-continue 134

batch report-policy "errors convert 1" "run report try $(prog report-policy)" errors
check report-policy 0

"$ET" report >"$WORK/plain-report.prog" 2>&1
rc=$?
if [ $rc -ne 134 ] ||
    ! grep -q '^et-errors: bad value 42 (at most 10)$' "$WORK/plain-report.prog"; then
    echo "FAIL: et-errors report without noosa: status $rc, output:"
    cat "$WORK/plain-report.prog"
    failures=$((failures + 1))
else
    echo "ok: plain-report"
fi

finish
