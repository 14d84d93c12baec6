#!/bin/sh
# SPDX-License-Identifier: MIT
# threads.sh - one thread of three faults: every thread stops, the
# faulting thread's backtrace is shown and the others are listed; bt all
# shows each.
. "$srcdir/tests/errors/lib.sh"

batch threads "errors ask" "run threads $(prog threads)" "bt all" kill
check threads 0

finish
