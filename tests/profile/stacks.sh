#!/bin/sh
# SPDX-License-Identifier: MIT
# stacks.sh - component stacks on a real program: leaves that do not match
# the innermost enter are reported once per distinct case and tolerated
# (the profile stays right); stacks taken into use while the program runs
# ignore the leaves of frames entered before, without a word.

. "${srcdir:-.}/tests/profile/lib.sh"

batch mismatch -e 'profile time on' -e 'profile time in noosa' -e 'profile freq on' -e 'profile freq in noosa' \
    -e 'profile print off' -e run \
    -e 'profile show time -tree -sort name' -e 'profile show freq' \
    "$PT" mismatch
expect mismatch

batch midrun -e 'break tick' -e run -e 'delete' -e 'profile freq on' -e 'profile freq in noosa' \
    -e 'profile print off' -e continue -e 'profile show freq' \
    "$PT" nest 3
expect midrun

finish
