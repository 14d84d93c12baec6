# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of conditions (tests/cond), sourced by
# each script: where cv is, and the batch runs and checks of
# tests/lib/batch-run.sh.
AREA=cond
. "${srcdir:-.}/tests/lib/batch-env.sh"
CV=$abs_top_builddir/tests/cond/cv
. "$abs_top_srcdir/tests/lib/batch-run.sh"

# compare WHERE: for each condition on standard input (one a line), the
# caller's `run NAME PLACE LINE` with "conditions program" and with
# "conditions noosa" gives the same `result NAME` (the caller's: what the
# run saw), and its listing says "${WHERE_PREFIX}condition runs in"
# WHERE for the first (program, or noosa for shapes the program cannot
# evaluate) and in noosa for the second.
WHERE_PREFIX=
k=0
compare() {
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        k=$((k + 1))
        run "p$k" program "$line"
        run "n$k" noosa "$line"
        status "p$k" 0
        status "n$k" 0
        a=$(result "p$k")
        b=$(result "n$k")
        if [ -n "$a" ] && [ "$a" = "$b" ]; then
            echo "ok: {$line}: $a" | cut -c1-100
        else
            fail "{$line}: in the program $a; in noosa $b"
        fi
        has "p$k" "${WHERE_PREFIX}condition runs in (the )?$1"
        has "n$k" "${WHERE_PREFIX}condition runs in noosa"
    done
}
