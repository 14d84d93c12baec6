# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of tests/errors, sourced by each script:
# running et-errors under noosa --batch, normalising the transcript, and
# comparing it with the expected one.

: "${top_builddir:=.}"
: "${srcdir:=.}"
NOOSA=$top_builddir/src/noosa
ET=$top_builddir/tests/errors/et-errors
EXPECTED=$srcdir/tests/errors/expected
WORK=$top_builddir/tests/errors/work
mkdir -p "$WORK"
failures=0

# What changes from run to run or from machine to machine: thread and
# process ids become T1, T2, ... in order of appearance; addresses of
# five hex digits or more become ADDR (small ones, 0x0, stay); directories
# of source files go; frame numbers become #N and frames outside the
# program (the C library's) are left out, since they vary with the
# library.
normalise() {
    awk '
    function name(id) {
        if (!(id in seen)) seen[id] = "T" (++n)
        return seen[id]
    }
    /^  #[0-9]+ / && !/(et-errors|et_dapto)\.c:/ { next }
    {
        line = $0
        out = ""
        while (match(line, /(thread |pid=|n_thread=|no thread )[0-9]+/)) {
            pre = substr(line, RSTART, RLENGTH)
            sub(/[0-9]+$/, "", pre)
            id = substr(line, RSTART + length(pre), RLENGTH - length(pre))
            out = out substr(line, 1, RSTART - 1) pre name(id)
            line = substr(line, RSTART + RLENGTH)
        }
        line = out line
        gsub(/0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/, "ADDR", line)
        gsub(/ at [^ ]*\//, " at ", line)
        sub(/^  #[0-9]+ +/, "  #N ", line)
        sub(/\([0-9]+ more frames like #[0-9]+\)/, "(N more frames like #N)", line)
        sub(/: #[0-9]+ +/, ": #N ", line)
        print line
    }'
}

# batch NAME COMMAND...: noosa -b -n with each COMMAND as -e, program
# et-errors without arguments (run gives them), transcript in
# $WORK/NAME.out, exit status in $WORK/NAME.rc; 60 s at most.
batch() {
    name=$1
    shift
    for c in "$@"; do
        set -- "$@" -e "$c"
        shift
    done
    timeout 60 "$NOOSA" -b -n "$@" "$ET" >"$WORK/$name.out" \
        2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
}

# check NAME [STATUS]: the normalised transcript of NAME is
# expected/NAME.out, the program's output (when it wrote
# $WORK/NAME.prog) expected/NAME.prog, noosa's standard error is empty,
# and its exit status is STATUS (when given).
check() {
    ok=1
    normalise <"$WORK/$1.out" >"$WORK/$1.norm"
    if [ -n "$REGEN" ]; then
        cp "$WORK/$1.norm" "$EXPECTED/$1.out"
        [ -f "$WORK/$1.prog" ] && cp "$WORK/$1.prog" "$EXPECTED/$1.prog"
    fi
    if ! diff -u "$EXPECTED/$1.out" "$WORK/$1.norm"; then
        ok=0
    fi
    if [ -f "$WORK/$1.prog" ] &&
        ! diff -u "$EXPECTED/$1.prog" "$WORK/$1.prog"; then
        echo "(the program's output above)"
        ok=0
    fi
    if [ -s "$WORK/$1.err" ]; then
        echo "standard error of noosa:"
        cat "$WORK/$1.err"
        ok=0
    fi
    if [ $# -ge 2 ] && [ "$(cat "$WORK/$1.rc")" != "$2" ]; then
        echo "exit status $(cat "$WORK/$1.rc"), expected $2"
        ok=0
    fi
    if [ $ok = 1 ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1"
        failures=$((failures + 1))
    fi
}

# prog NAME: the redirection that sends the program's output to
# $WORK/NAME.prog (for run).
prog() {
    rm -f "$WORK/$1.prog"
    echo "> $WORK/$1.prog 2>&1"
}

finish() {
    if [ $failures -ne 0 ]; then
        echo "$failures failed"
        exit 1
    fi
    exit 0
}
