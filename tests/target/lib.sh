# SPDX-License-Identifier: MIT
# lib.sh - helpers for the end-to-end tests of tests/target, sourced by
# each script: where things are, running noosa, normalising its output
# (pids, thread ids, times, addresses), and comparing with expected files.

: "${top_builddir:=.}"
: "${srcdir:=.}"
NOOSA=$top_builddir/src/noosa
TT=$top_builddir/tests/target
EXPECTED=$srcdir/tests/target/expected
WORK=$top_builddir/tests/target/work
mkdir -p "$WORK"
failures=0

# Replace what changes from run to run: pids and thread ids become
# numbered names in order of appearance, times become T, addresses ADDR,
# paths in parentheses lose their directories.
normalise() {
    awk '
    function name(kind, id,   k) {
        k = kind SUBSEP id
        if (!(k in seen)) { n[kind]++; seen[k] = kind n[kind] }
        return seen[k]
    }
    {
        line = $0
        out = ""
        while (match(line, /(thread=|pid=|thread |pid )[0-9]+/)) {
            pre = substr(line, RSTART, RLENGTH)
            sub(/[0-9]+$/, "", pre)
            id = substr(line, RSTART + length(pre), RLENGTH - length(pre))
            out = out substr(line, 1, RSTART - 1) pre name("T", id)
            line = substr(line, RSTART + RLENGTH)
        }
        line = out line
        gsub(/time=-?[0-9]+/, "time=T", line)
        sub(/ \(core dumped\)/, "", line)
        gsub(/\([^() ]*\//, "(", line)
        gsub(/0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/, "ADDR", line)
        print line
    }'
}

# check NAME: compare $WORK/NAME.out (normalised) with expected/NAME.out.
check() {
    normalise <"$WORK/$1.out" >"$WORK/$1.norm"
    if [ -n "$REGEN" ]; then
        cp "$WORK/$1.norm" "$EXPECTED/$1.out"
    elif ! diff -u "$EXPECTED/$1.out" "$WORK/$1.norm"; then
        echo "FAIL: $1"
        failures=$((failures + 1))
    else
        echo "ok: $1"
    fi
}

# expect_grep NAME PATTERN: the output of NAME has a line matching PATTERN.
expect_grep() {
    if grep -q -e "$2" "$WORK/$1.out"; then
        echo "ok: $1 has /$2/"
    else
        echo "FAIL: $1 has no line matching /$2/:"
        cat "$WORK/$1.out"
        failures=$((failures + 1))
    fi
}

# raw NAME ARGS...: noosa --raw-trace ARGS into $WORK/NAME.out, 60 s at most.
raw() {
    name=$1
    shift
    timeout 60 "$NOOSA" --raw-trace -o "$WORK/$name.out" "$@" \
        2>"$WORK/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $name: noosa exited with $rc"
        cat "$WORK/$name.err"
        failures=$((failures + 1))
    fi
}

finish() {
    if [ $failures -ne 0 ]; then
        echo "$failures failed"
        exit 1
    fi
    exit 0
}
