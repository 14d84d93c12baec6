#!/bin/sh
# SPDX-License-Identifier: MIT
# raw-plain.sh - programs without the runtime (tt-prog) under noosa: they
# run, noosa says they have no monitoring interface, and reports their
# exit status, their death by a signal, a fault before delivery, an
# interrupt of a busy program; start-up errors are clear.
. "$srcdir/tests/target/lib.sh"

raw plain-exit "$TT/tt-prog" exit 3
check plain-exit
raw plain-segv "$TT/tt-prog" segv
check plain-segv
raw plain-kill "$TT/tt-prog" kill 15
check plain-kill
raw plain-abort "$TT/tt-prog" abort
check plain-abort
raw plain-busy --interrupt-after 200 "$TT/tt-prog" busy 2
check plain-busy

# start-up errors: noosa exits 1 with a message naming the program
timeout 20 "$NOOSA" --raw-trace ./no/such/prog >"$WORK/plain-missing.out" 2>&1
echo "exit $?" >>"$WORK/plain-missing.out"
check plain-missing
timeout 20 "$NOOSA" --raw-trace "$srcdir/tests/target/lib.sh" \
    >"$WORK/plain-noexec.out" 2>&1
echo "exit $?" >>"$WORK/plain-noexec.out"
expect_grep plain-noexec "lib.sh: not executable"
"$NOOSA" >"$WORK/plain-usage.out" 2>&1
expect_grep plain-usage "no program given"
"$NOOSA" --help >"$WORK/plain-help.out" 2>&1
expect_grep plain-help "^  --stop-at=EVENT"
"$NOOSA" --version >"$WORK/plain-version.out" 2>&1
proto=$(awk '/^#define DAPTO_PROTO_(MAJOR|MEDIAN|MINOR) / { v = v sep $3; sep = "." }
    END { print v }' "$srcdir/lib/channel/protocol.h")
expect_grep plain-version "(channel protocol $proto)\$"
"$NOOSA" --raw-trace --timeout x "$TT/tt-prog" >"$WORK/plain-badnum.out" 2>&1
expect_grep plain-badnum '--timeout wants a number up to 2147483647, got "x"'
finish
