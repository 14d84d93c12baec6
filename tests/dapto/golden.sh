#!/bin/sh
# SPDX-License-Identifier: MIT
#
# golden.sh - compile every specification in tests/dapto/spec and compare
# the three generated files with tests/dapto/expected, byte for byte.
# With REGEN=1 (or `make dapto-regen`) write the expected files instead;
# review the difference before committing it.
set -u

dapto=$abs_top_builddir/src/dapto/dapto
specs=$abs_top_srcdir/tests/dapto/spec
expected=$abs_top_srcdir/tests/dapto/expected
work=$abs_top_builddir/tests/dapto/work/golden

rm -rf "$work"
mkdir -p "$work" || exit 99
fail=0
n=0
for spec in "$specs"/*.dapto; do
    name=$(basename "$spec" .dapto)
    cp "$spec" "$work/" || exit 99
    # run where the specification is, so the names in the output are stable
    if ! (cd "$work" && "$dapto" "$name.dapto"); then
        echo "FAIL: $name: dapto failed"
        fail=1
        continue
    fi
    for ext in h c db; do
        file=${name}_dapto.$ext
        if [ -n "${REGEN:-}" ]; then
            cp "$work/$file" "$expected/$file" || exit 99
            echo "wrote $expected/$file"
        elif [ ! -f "$expected/$file" ]; then
            echo "FAIL: $name: no expected $file (run make dapto-regen)"
            fail=1
        elif ! cmp -s "$expected/$file" "$work/$file"; then
            echo "FAIL: $name: $file differs from the expected output:"
            diff -u "$expected/$file" "$work/$file" | head -60
            fail=1
        else
            n=$((n + 1))
        fi
    done
done
echo "golden.sh: $n files as expected"
exit $fail
