#!/bin/sh
# SPDX-License-Identifier: MIT
# man.sh - libdapto(3) renders without warnings and names every function
# and macro that lib/dapto.h makes public; noosa(1) describes run-time
# errors and their commands.
set -u
page=$abs_top_srcdir/man/libdapto.3
header=$abs_top_srcdir/lib/dapto.h
fail=0

if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -t -man -ww -z -Tutf8 "$page" 2>&1)
    if [ -n "$warnings" ]; then
        echo "FAIL: groff warns about libdapto.3:"
        echo "$warnings"
        fail=1
    fi
else
    echo "note: groff not found; rendering not checked"
fi
names=$( (grep -oE '(^|[^A-Za-z0-9_])_?dapto_[a-z_]+ *\(' "$header" |
        sed 's/^[^_d]//' | tr -d '( '
    grep -oE '^#define DAPTO_(TRY|FAIL|END|LEAVE|CONVERTED|STATE_[A-Z]+|EVENT_(BEGIN|END))\b' "$header" |
        awk '{ print $2 }'
    echo dapto_builtin_state) | sort -u)
for name in $names; do
    # in roff source an underscore is itself; a name may be cut by font
    # changes, so look for it in the rendered page
    if ! groff -man -Tascii -P-c "$page" 2>/dev/null | sed 's/.\x08//g' |
        grep -q -e "$name"; then
        echo "FAIL: libdapto.3 does not name $name"
        fail=1
    fi
done
# noosa(1) describes the commands and the policies.
page1=$abs_top_srcdir/man/noosa.1
for text in 'RUN-TIME ERRORS' 'errors ask' 'errors terminate' \
    'errors convert' 'errors last' '.B convert' '.BR bt ' 'stacks' \
    'DAPTO_CONVERTED' 'libdapto (3)'; do
    if ! grep -q -F -e "$text" "$page1"; then
        echo "FAIL: noosa.1 does not mention $text"
        fail=1
    fi
done
[ $fail = 0 ] && echo "ok: libdapto.3 names $(echo $names | wc -w) functions and macros"
exit $fail
