#!/bin/sh
# SPDX-License-Identifier: MIT
# threads.sh - one thread of three faults: every thread stops, the
# faulting thread's backtrace is shown and the others are listed; bt all
# shows each; after a conversion every thread goes on.
. "$srcdir/tests/errors/lib.sh"

batch threads "errors ask" "run threads $(prog threads)" "bt all" kill
check threads 0

# Converted, the faulting thread wakes the two others: the program ends
# only if they went on too.
batch threads-convert "errors convert" "run threads try $(prog threads-convert)"
check threads-convert 0

finish
