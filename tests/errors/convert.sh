#!/bin/sh
# SPDX-License-Identifier: MIT
# convert.sh - conversion to failure: the faulting thread resumes in the
# failure branch of its innermost recovery point (asked, or by the policy
# errors convert ?N? which then asks); nested points; a point left with
# DAPTO_LEAVE is no longer there, and conversion is refused with the
# reason; a stack overflow converts too.
. "$srcdir/tests/errors/lib.sh"

batch div-convert "errors ask" "run div try $(prog div-convert)" convert
check div-convert 0

batch abort-convert "errors convert" "run abort try $(prog abort-convert)"
check abort-convert 0

# Three errors: two converted by the policy, the third asked about.
batch loop "errors convert 2" "run loop 3 $(prog loop)" errors convert errors
check loop 0

batch nested "errors convert" "run nested $(prog nested)"
check nested 0

batch leave "errors convert" "run leave $(prog leave)" convert kill
check leave 1

batch overflow "errors convert" "run overflow $(prog overflow)"
# Where the stack runs out within the innermost frame of recurse depends
# on where the stack starts, which changes from run to run: the fault may
# be the store into its frame (line 146), a store of its prologue, or the
# call that pushes the return address (line 147). Only the frames at the
# call are kept, so the transcript is the same whichever it was.
sed '/ in recurse () at .*et-errors\.c:14[0-6]$/d' "$WORK/overflow.out" \
    >"$WORK/overflow.cut" && mv "$WORK/overflow.cut" "$WORK/overflow.out"
check overflow 0

# Without noosa: a point left without DAPTO_LEAVE is cleaned up by the
# point around it.
"$ET" careless >"$WORK/careless.prog" 2>&1
printf '%s\n' "careless: depth 2 inside, 2 after it returned" \
    "careless: depth 0 after the outer point" "careless: exit" \
    >"$WORK/careless.want"
if diff -u "$WORK/careless.want" "$WORK/careless.prog"; then
    echo "ok: careless"
else
    echo "FAIL: careless"
    failures=$((failures + 1))
fi

finish
