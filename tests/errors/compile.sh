#!/bin/sh
# SPDX-License-Identifier: MIT
# compile.sh - the recovery-point macros and dapto_error of lib/dapto.h
# compile without a warning as strict C99 and C11 and as C++11, with gcc
# and clang when they are there: nested blocks, a block without
# DAPTO_FAIL, DAPTO_LEAVE, the fields of the failure branch.
set -u
work=$abs_top_builddir/tests/errors/work/compile
mkdir -p "$work" || exit 99
fail=0
n=0

cat >"$work/use.c" <<'SRC'
#include <dapto.h>

static int risky(int *p)
{
    return *p;
}

int use(int *p);
int use(int *p)
{
    volatile int r = 0;

    DAPTO_TRY(outer) {
        DAPTO_TRY(inner) {
            r = risky(p);
        } DAPTO_FAIL(inner) {
            r = -inner.signo - (inner.addr != 0) - inner.line;
        } DAPTO_END(inner);
        if (r < 0) {
            DAPTO_LEAVE(outer);
            return r;
        }
    } DAPTO_FAIL(outer) {
        r = outer.file[0] + outer.func[0];
    } DAPTO_END(outer);
    DAPTO_TRY(plain) {
        r += risky(p);
    } DAPTO_END(plain);
    if (r > 100 && dapto_error("too big: %d", (int)r) == DAPTO_CONVERTED)
        return -1;
    return r + dapto_recover_depth();
}
SRC
cp "$work/use.c" "$work/use.cc"

# try COMPILER FLAGS...: compile use.c (or use.cc for C++) with FLAGS.
try() {
    cc=$1
    shift
    n=$((n + 1))
    if ! $cc -I"$abs_top_srcdir/lib" -Wall -Wextra -Wshadow -Werror "$@" \
        -c -o "$work/use.$n.o" >"$work/use.$n.log" 2>&1; then
        echo "FAIL: $cc $*:"
        cat "$work/use.$n.log"
        fail=1
    else
        echo "ok: $cc $*"
    fi
}

for cc in "${CC:-cc}" "${CLANG:-no}"; do
    [ "$cc" = no ] && continue
    try "$cc" -std=c99 -pedantic "$work/use.c"
    try "$cc" -std=c11 -pedantic "$work/use.c"
done
for cxx in "${CXX:-no}" "${CLANGXX:-no}"; do
    [ "$cxx" = no ] && continue
    command -v "${cxx%% *}" >/dev/null 2>&1 || continue
    try "$cxx" -std=c++11 -x c++ "$work/use.cc"
done
exit $fail
