# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of tests/profile, sourced by each script:
# where things are, `noosa --batch` in a work directory of the script's own
# (HOME and XDG_CONFIG_HOME inside it), normalising what varies from run
# to run, and comparing with expected/SCRIPT-NAME.out (REGEN=1 rewrites
# those).

AREA=profile
. "${srcdir:-.}/tests/lib/batch-env.sh"
PT=$abs_top_builddir/tests/profile/pt
CALC=$abs_top_builddir/tests/profile/calc

# batch NAME ARG...: noosa --batch -n ARG..., output in NAME.out, NAME.err,
# NAME.rc.
batch() {
    name=$1
    shift
    timeout 120 "$NOOSA" --batch -n "$@" </dev/null >"$WORK/$name.out" \
        2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
}

# Thread ids and pids become T1, T2 ... in order of appearance; times
# (seconds with 6 decimals) become S; the tree's paths become SRC, BUILD.
normalise() {
    awk -v src="$abs_top_srcdir" -v build="$abs_top_builddir" "$TREE_AWK"'
    {
        line = tree($0)
        out = ""
        while (match(line, /thread [0-9]+/)) {
            id = substr(line, RSTART + 7, RLENGTH - 7)
            if (!(id in seen)) { n++; seen[id] = "T" n }
            out = out substr(line, 1, RSTART - 1) "thread " seen[id]
            line = substr(line, RSTART + RLENGTH)
        }
        line = out line
        gsub(/pid=[0-9]+/, "pid=P", line)
        # a padded field of seconds or a percentage, whatever its width
        gsub(/ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]/, " S", line)
        gsub(/ *[0-9]+\.[0-9]%/, " P%", line)
        print line
    }'
}

# expect NAME: the normalised NAME.out (and NAME.err when not empty, and
# the exit status) against expected/SCRIPT-NAME.out.
expect() {
    name=$1
    want=$EXPECTED/$SCRIPT-$name.out
    {
        normalise <"$WORK/$name.out"
        if [ -s "$WORK/$name.err" ]; then
            echo "--- stderr"
            normalise <"$WORK/$name.err"
        fi
        echo "--- exit status $(cat "$WORK/$name.rc")"
    } >"$WORK/$name.norm"
    if [ "${REGEN:-0}" = 1 ]; then
        mkdir -p "$EXPECTED"
        cp "$WORK/$name.norm" "$want"
        return
    fi
    if ! diff -u "$want" "$WORK/$name.norm"; then
        fail "$name: the transcript differs from $want"
    fi
}

# contains NAME TEXT: NAME.out has a line with TEXT (a fixed string).
contains() {
    grep -F -q -e "$2" "$WORK/$1.out" || fail "$1: no line with \"$2\""
}

lacks() {
    if grep -F -q -e "$2" "$WORK/$1.out"; then
        fail "$1: a line with \"$2\""
    fi
}

finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$failures failure(s)"
        exit 1
    fi
    exit 0
}
