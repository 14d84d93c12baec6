#!/bin/sh
# SPDX-License-Identifier: MIT
# hostile.sh - a program that spoils what noosa reads of its recovery
# table: a bad magic number or an address that is not mapped make noosa
# refuse to convert and say why; a bad recovery point only loses its name
# (the runtime itself does not trust the table, so converting still
# resumes at the real point).  Noosa never crashes.
. "$srcdir/tests/errors/lib.sh"

batch corrupt-magic "errors ask" "run corrupt magic $(prog corrupt-magic)" convert kill
check corrupt-magic 1

batch corrupt-address "errors ask" "run corrupt address $(prog corrupt-address)" convert kill
check corrupt-address 1

batch corrupt-point "errors ask" "run corrupt point $(prog corrupt-point)" convert
check corrupt-point 0

finish
