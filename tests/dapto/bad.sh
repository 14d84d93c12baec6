#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bad.sh - every malformed specification in tests/dapto/bad gives exactly
# the diagnostics in its .err file (file, line, column and message), exit
# status 1, and leaves no file behind.  Specifications named stdin-*.dapto
# are read from standard input ("dapto -"), so their messages say <stdin>.
# With REGEN=1 write the .err files instead; review them before committing.
set -u

dapto=$abs_top_builddir/src/dapto/dapto
bad=$abs_top_srcdir/tests/dapto/bad
work=$abs_top_builddir/tests/dapto/work/bad

rm -rf "$work"
mkdir -p "$work" || exit 99
fail=0
n=0
for spec in "$bad"/*.dapto; do
    name=$(basename "$spec" .dapto)
    dir=$work/$name
    mkdir -p "$dir"
    cp "$spec" "$dir/" || exit 99
    case $name in
    stdin-*) (cd "$dir" && "$dapto" - <"$name.dapto") 2>"$work/$name.stderr" ;;
    *) (cd "$dir" && "$dapto" "$name.dapto") 2>"$work/$name.stderr" ;;
    esac
    status=$?
    if [ -n "${REGEN:-}" ]; then
        cp "$work/$name.stderr" "$bad/$name.err" || exit 99
        echo "wrote $bad/$name.err"
    fi
    if [ "$status" -ne 1 ]; then
        echo "FAIL: $name: exit status $status, expected 1"
        fail=1
    fi
    if ! cmp -s "$bad/$name.err" "$work/$name.stderr"; then
        echo "FAIL: $name: diagnostics differ from $name.err:"
        diff -u "$bad/$name.err" "$work/$name.stderr"
        fail=1
    fi
    left=$(cd "$dir" && ls -A | grep -v -x -F "$name.dapto")
    if [ -n "$left" ]; then
        echo "FAIL: $name: files left behind: $left"
        fail=1
    fi
    n=$((n + 1))
done
echo "bad.sh: $n malformed specifications"
[ "$n" -ge 25 ] || { echo "FAIL: expected at least 25 cases"; fail=1; }
exit $fail
