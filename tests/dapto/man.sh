#!/bin/sh
# SPDX-License-Identifier: MIT
#
# man.sh - dapto(1) renders without warnings and documents every option
# that `dapto --help` lists, and that the specification's headers need
# include guards (the generated header includes them again).
set -u
page=$abs_top_srcdir/man/dapto.1
dapto=$abs_top_builddir/src/dapto/dapto
fail=0

if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -t -man -ww -z -Tutf8 "$page" 2>&1)
    if [ -n "$warnings" ]; then
        echo "FAIL: groff warns about dapto.1:"
        echo "$warnings"
        fail=1
    fi
else
    echo "note: groff not found; rendering not checked"
fi
for opt in $("$dapto" --help | grep -o -e '--[a-z-]*' -e ' -[a-zA-Z],' | tr -d ' ,' | sort -u); do
    # in roff source a dash is written \-
    pattern=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
    if ! grep -q -e "$pattern" "$page"; then
        echo "FAIL: dapto.1 does not document $opt"
        fail=1
    fi
done
if ! sed -n '/^\.SS The header/,/^\.SS /p' "$page" | grep -q 'include guard of its own'; then
    echo "FAIL: dapto.1 does not say that the specification's headers need include guards"
    fail=1
fi
exit $fail
