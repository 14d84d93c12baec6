#!/bin/sh
# SPDX-License-Identifier: MIT
# raw-fake.sh - a hostile program (tt-fake) that claims another protocol
# version, sends bad records, never answers an operation, scribbles over
# the header, fills the ring with garbage, or corrupts a commit word:
# every problem is reported, noosa neither crashes nor hangs, and the
# program's exit status is still reported.
. "$srcdir/tests/target/lib.sh"

for mode in version records header ring corrupt; do
    raw fake-$mode "$TT/tt-fake" $mode
    check fake-$mode
done
raw fake-stop --stop-at ping --timeout 300 --send 'get 1' --send 'get x' \
    --send 'get' --send 'nosuch 1' "$TT/tt-fake" stop
check fake-stop
raw fake-functions "$TT/tt-fake" functions
check fake-functions
raw fake-ack "$TT/tt-fake" ack
check fake-ack
raw fake-serve --stop-at ping --send 'get 5' --send 'get 1' --send 'get 2' \
    "$TT/tt-fake" serve
check fake-serve
finish
