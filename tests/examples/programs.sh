#!/bin/sh
# SPDX-License-Identifier: MIT
#
# programs.sh - the example programs of examples/calc give the output in
# expected/ (standard output, standard error, exit status) with both the
# monitored build (calc) and the monitoring-free one (calc-plain), run
# with no monitor attached; the command line behaves as documented; calc
# is a real executable (noosa traces it, not a libtool wrapper) and
# calc-plain has no trace of the runtime.

set -u

examples="$abs_top_srcdir/examples/calc"
expected="$abs_top_srcdir/tests/examples/expected"
work="$abs_top_builddir/tests/examples/work/programs"
rm -rf "$work"
mkdir -p "$work" || exit 99

status=0
fail() {
    echo "FAIL: $*"
    status=1
}

# run NAME CMD...: run CMD in the examples' directory with standard input
# from $stdin (default /dev/null); output in $work/NAME.{out,err}, the exit
# status in $rc.
stdin=/dev/null
run() {
    name=$1
    shift
    (cd "$examples" && "$@" <"$stdin" >"$work/$name.out" 2>"$work/$name.err")
    rc=$?
}

# same FILE EXPECTED: FILE has the text EXPECTED (a file).
same() {
    if ! cmp -s "$1" "$2"; then
        fail "$1 differs from $2:"
        diff -u "$2" "$1" | head -40
    fi
}

# expect_rc NAME WANT
expect_rc() {
    [ "$rc" -eq "$2" ] || fail "$1: exit status $rc, expected $2"
}

# expect_text NAME STREAM TEXT: the stream (out or err) is exactly TEXT.
expect_text() {
    printf '%s\n' "$3" >"$work/$1.want"
    same "$work/$1.$2" "$work/$1.want"
}

for prog in calc calc-plain; do
    bin="$abs_top_builddir/examples/calc/$prog"
    [ -x "$bin" ] || { fail "$bin is missing"; continue; }

    for ex in demo closures strings error; do
        want=0
        [ "$ex" = error ] && want=1
        run "$prog-$ex" "$bin" "$ex.calc"
        expect_rc "$prog $ex.calc" $want
        same "$work/$prog-$ex.out" "$expected/$ex.out"
        same "$work/$prog-$ex.err" "$expected/$ex.err"
    done

    # Standard input, with and without "-"; errors name it <stdin>.
    stdin="$examples/demo.calc"
    run "$prog-stdin" "$bin"
    expect_rc "$prog <demo.calc" 0
    same "$work/$prog-stdin.out" "$expected/demo.out"
    run "$prog-dash" "$bin" -
    expect_rc "$prog - <demo.calc" 0
    same "$work/$prog-dash.out" "$expected/demo.out"
    stdin="$examples/error.calc"
    run "$prog-stdin-error" "$bin" -
    expect_rc "$prog - <error.calc" 1
    sed 's/^error\.calc:/<stdin>:/' "$expected/error.err" >"$work/stdin-error.want"
    same "$work/$prog-stdin-error.err" "$work/stdin-error.want"
    stdin=/dev/null

    # -e PROGRAM
    run "$prog-e" "$bin" -e 'let x = 20 in print x * 2 + 2, "ok"'
    expect_rc "$prog -e" 0
    expect_text "$prog-e" out "42 ok"
    run "$prog-eval" "$bin" --eval='print 1 +'
    expect_rc "$prog --eval" 1
    expect_text "$prog-eval" err "-e:1:10: error: expected an expression but found end of input"
    run "$prog-empty" "$bin" -e ''
    expect_rc "$prog -e ''" 0
    [ -s "$work/$prog-empty.out" ] && fail "$prog -e '': printed something"

    # --help, --version
    run "$prog-help" "$bin" --help
    expect_rc "$prog --help" 0
    head -1 "$work/$prog-help.out" | grep -q '^Usage: calc \[FILE | -e PROGRAM\]$' ||
        fail "$prog --help: no usage line"
    run "$prog-version" "$bin" -V
    expect_rc "$prog -V" 0
    grep -q '^calc (noosa example) [0-9]' "$work/$prog-version.out" ||
        fail "$prog -V: no version"

    # Wrong command lines: status 2 and a message.
    run "$prog-badopt" "$bin" --frobnicate
    expect_rc "$prog --frobnicate" 2
    grep -q "Try 'calc --help'" "$work/$prog-badopt.err" || fail "$prog --frobnicate: no hint"
    run "$prog-twofiles" "$bin" demo.calc error.calc
    expect_rc "$prog two files" 2
    grep -q "^calc: too many arguments, starting with 'error.calc'$" "$work/$prog-twofiles.err" ||
        fail "$prog two files: wrong message"
    run "$prog-eandfile" "$bin" -e 'print 1' demo.calc
    expect_rc "$prog -e and a file" 2
    grep -q "^calc: -e and a FILE ('demo.calc') cannot be used together$" "$work/$prog-eandfile.err" ||
        fail "$prog -e and a file: wrong message"

    # Files that cannot be read: status 1.
    run "$prog-missing" "$bin" no-such-file.calc
    expect_rc "$prog no-such-file.calc" 1
    expect_text "$prog-missing" err "calc: cannot open 'no-such-file.calc': No such file or directory"
    run "$prog-dir" "$bin" .
    expect_rc "$prog ." 1
    expect_text "$prog-dir" err "calc: cannot read '.': Is a directory"
done

# calc is the program itself, not a libtool wrapper script.
magic=$(head -c 4 "$abs_top_builddir/examples/calc/calc" | od -An -c | tr -d ' ')
[ "$magic" = '177ELF' ] || fail "examples/calc/calc is not an ELF executable ($magic)"

# The monitored build carries its interfaces; the other has none of it.
if command -v "${NM:-nm}" >/dev/null 2>&1; then
    nm_out=$("${NM:-nm}" "$abs_top_builddir/examples/calc/calc")
    for sym in dapto_register tree_dapto_aspect_tree eval_dapto_emit_call_entered; do
        printf '%s\n' "$nm_out" | grep -q "$sym" || fail "calc does not contain $sym"
    done
    if "${NM:-nm}" "$abs_top_builddir/examples/calc/calc-plain" | grep -q dapto; then
        fail "calc-plain refers to the runtime:"
        "${NM:-nm}" "$abs_top_builddir/examples/calc/calc-plain" | grep dapto | head
    fi
else
    echo "nm not found: symbol checks not run"
fi

exit $status
