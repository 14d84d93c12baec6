# SPDX-License-Identifier: MIT
# lib.sh - helpers for the end-to-end tests of tests/noosa, sourced by each
# script: where things are, running `noosa --batch` in a directory of its
# own with HOME and XDG_CONFIG_HOME pointing into it, normalising what it
# printed, and comparing with the expected transcripts.
#
# Each run NAME leaves in $WORK: NAME.out (standard output: the
# transcript), NAME.err (standard error) and NAME.rc (the exit status).
# The expected file expected/NAME.out holds the normalised transcript,
# then "--- stderr" and standard error if there was any, then
# "--- exit status N".  REGEN=1 rewrites the expected files.

AREA=noosa
. "${srcdir:-.}/tests/lib/batch-env.sh"
NT=$abs_top_builddir/tests/noosa/nt
NT99=$abs_top_builddir/tests/noosa/nt-v99
CALC=$abs_top_builddir/tests/noosa/calc
TREE_PROG=$abs_top_builddir/tests/noosa/tree
# The channel protocol this noosa speaks, PROTO in expected files.
PROTO=$("$NOOSA" --version | sed -n 's/^noosa .* (channel protocol \([0-9.]*\))$/\1/p')

# batch NAME ARG...: noosa --batch ARG... in $WORK, 60 s at most, with
# standard input from $stdin (default /dev/null).
stdin=/dev/null
batch() {
    name=$1
    shift
    timeout 60 "$NOOSA" --batch "$@" <"$stdin" >"$WORK/$name.out" \
        2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
}

# Replace what changes from run to run: pids, thread ids and addresses
# become numbered names in order of appearance (the same address keeps its
# name), times become T, the directories of this tree and of the test
# become SRC, BUILD and WORK, and noosa's protocol version PROTO.
normalise() {
    awk -v src="$abs_top_srcdir" -v build="$abs_top_builddir" -v work="$WORK" \
        -v proto="$PROTO" "$TREE_AWK"'
    function name(kind, id,   k) {
        k = kind SUBSEP id
        if (!(k in seen)) { n[kind]++; seen[k] = kind n[kind] }
        return seen[k]
    }
    # Replace each match of RE in LINE (a prefix PRE of fixed text, then
    # the id) by PRE and the id numbered as KIND.
    function number(line, re, kind,   out, m, pre, id) {
        out = ""
        while (match(line, re)) {
            m = substr(line, RSTART, RLENGTH)
            pre = m
            sub(/(0x)?[0-9a-f]+$/, "", pre)
            id = substr(m, length(pre) + 1)
            out = out substr(line, 1, RSTART - 1) pre name(kind, id)
            line = substr(line, RSTART + RLENGTH)
        }
        return out line
    }
    {
        line = $0
        line = replace(line, work, "WORK")
        line = tree(line)
        line = replace(line, "protocol " proto, "protocol PROTO")
        line = replace(line, "speaks " proto, "speaks PROTO")
        line = number(line, "(pid=|pid |pid: )[0-9]+", "PID")
        line = number(line, "(thread=|thread |n_thread=)[0-9]+", "TID")
        line = number(line, "0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+", "ADDR")
        gsub(/time=[0-9]+/, "time=T", line)
        print line
    }'
}

# check NAME: the normalised output of run NAME is expected/NAME.out.
check() {
    {
        normalise <"$WORK/$1.out"
        if [ -s "$WORK/$1.err" ]; then
            echo "--- stderr"
            normalise <"$WORK/$1.err"
        fi
        echo "--- exit status $(cat "$WORK/$1.rc")"
    } >"$WORK/$1.norm"
    if [ -n "${REGEN:-}" ]; then
        cp "$WORK/$1.norm" "$EXPECTED/$1.out"
    elif ! diff -u "$EXPECTED/$1.out" "$WORK/$1.norm"; then
        fail "$1"
    else
        echo "ok: $1"
    fi
}

# same NAME FILE TEXT: FILE holds exactly TEXT (and a newline).
same() {
    if [ "$(cat "$2" 2>/dev/null)" = "$3" ]; then
        echo "ok: $1"
    else
        fail "$1: $2 holds:"
        cat "$2" 2>/dev/null || echo "(no such file)"
        echo "and should hold:"
        printf '%s\n' "$3"
    fi
}

finish() {
    if [ $failures -ne 0 ]; then
        echo "$failures failed"
        exit 1
    fi
    exit 0
}
