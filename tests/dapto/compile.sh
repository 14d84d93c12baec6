#!/bin/sh
# SPDX-License-Identifier: MIT
#
# compile.sh - the generated code is plain C that builds without a warning
# as C and as C++ with gcc and clang (-Wall -Wextra -Werror), links with
# libdapto and runs: for every specification in tests/dapto/spec that has a
# driver NAME-main.c, generate its files, build the driver with each
# compiler in each language, and run it.  A compiler that is not installed
# is skipped with a note; if none is, the test is skipped.  Last, an
# operation body with an error must make each C compiler point at its line
# and column in the specification.
set -u

dapto=$abs_top_builddir/src/dapto/dapto
specs=$abs_top_srcdir/tests/dapto/spec
work=$abs_top_builddir/tests/dapto/work/compile
libtool=$abs_top_builddir/libtool
lib=$abs_top_builddir/lib/libdapto.la
warn="-Wall -Wextra -Werror"
inc="-I$abs_top_srcdir/lib -I$specs -I$abs_top_srcdir/tests/dapto -I$abs_top_srcdir/tests/lib"

rm -rf "$work"
mkdir -p "$work" || exit 99

# The runtime was built by $CC.  Under the sanitizers a program must use
# the same sanitizer runtime as the library, so code from the other
# compiler family is compiled without them and linked by $CC or $CXX.
family() {
    case $("$1" --version 2>/dev/null) in
    *clang*) echo clang ;;
    *) echo gcc ;;
    esac
}
lib_family=$(family "${CC%% *}")

compilers=
for pair in "gcc c" "g++ c++" "clang c" "clang++ c++"; do
    set -- $pair
    case $1 in
    gcc) cc=${CC:-gcc}; [ "$(family "${cc%% *}")" = gcc ] || cc=gcc ;;
    g++) cc=${CXX:-g++}; [ "$(family "${cc%% *}")" = gcc ] || cc=g++ ;;
    clang) cc=${CLANG:-clang} ;;
    clang++) cc=${CLANGXX:-clang++} ;;
    esac
    if [ "$cc" = no ] || ! command -v "${cc%% *}" >/dev/null 2>&1; then
        echo "note: $1 not found, not building with it"
        continue
    fi
    compilers="$compilers $1:$2:$cc"
done
[ -n "$compilers" ] || { echo "no C compiler found"; exit 77; }

fail=0
ran=0
for main in "$specs"/*-main.c; do
    name=$(basename "$main" -main.c)
    dir=$work/$name
    mkdir -p "$dir"
    cp "$specs/$name.dapto" "$dir/" || exit 99
    if ! (cd "$dir" && "$dapto" "$name.dapto"); then
        echo "FAIL: $name: dapto failed"
        fail=1
        continue
    fi
    for c in $compilers; do
        tag=${c%%:*}
        rest=${c#*:}
        lang=${rest%%:*}
        cc=${rest#*:}
        out=$dir/$tag
        mkdir -p "$out"
        linker=$cc
        sanitize=$SANITIZE_FLAGS
        if [ -n "$SANITIZE_FLAGS" ] && [ "$(family "${cc%% *}")" != "$lib_family" ]; then
            sanitize=
            if [ "$lang" = c++ ]; then linker=${CXX:-g++}; else linker=${CC:-gcc}; fi
        fi
        flags="$warn $sanitize -x $lang"
        if [ "$lang" = c++ ]; then
            flags="$flags -std=c++11"
        else
            flags="$flags -std=c99"
        fi
        if ! $cc $flags $inc -I"$dir" -c "$dir/${name}_dapto.c" -o "$out/gen.o" ||
           ! $cc $flags $inc -I"$dir" -c "$main" -o "$out/main.o"; then
            echo "FAIL: $name: $tag ($lang) could not compile the generated code"
            fail=1
            continue
        fi
        ltag=CC
        [ "$lang" = c++ ] && ltag=CXX
        if ! "$libtool" --quiet --tag=$ltag --mode=link $linker $SANITIZE_FLAGS \
                -o "$out/prog" "$out/gen.o" "$out/main.o" "$lib"; then
            echo "FAIL: $name: $tag could not link"
            fail=1
            continue
        fi
        if ! "$out/prog"; then
            echo "FAIL: $name: the $tag build failed its checks"
            fail=1
            continue
        fi
        ran=$((ran + 1))
    done
done
# The C compiler's messages about an operation body point into the
# specification, at the right line and column.
dir=$work/broken
mkdir -p "$dir"
printf '%s\n' 'aspect e;' 'operation broken "A body with a mistake" () : int' \
    '    {' '        int x = undeclared_name;' '        DAPTO_RESULT_INT(x);' \
    '    }' 'end;' >"$dir/broken.dapto"
(cd "$dir" && "$dapto" broken.dapto) || { echo "FAIL: broken: dapto failed"; fail=1; }
for c in $compilers; do
    tag=${c%%:*}
    rest=${c#*:}
    cc=${rest#*:}
    [ "${rest%%:*}" = c ] || continue
    if (cd "$dir" && $cc $inc -c broken_dapto.c -o broken.o) >"$dir/$tag.err" 2>&1; then
        echo "FAIL: broken: $tag compiled a body with an error"
        fail=1
    elif ! grep -q "^broken.dapto:4:17: error: .*undeclared_name" "$dir/$tag.err"; then
        echo "FAIL: broken: $tag did not place the error at broken.dapto:4:17:"
        cat "$dir/$tag.err"
        fail=1
    fi
done

echo "compile.sh: $ran programs built and run"
[ "$ran" -gt 0 ] || fail=1
exit $fail
