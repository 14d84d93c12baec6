# SPDX-License-Identifier: MIT
# lib.sh - helpers for the tests of relations between events
# (tests/relate), sourced by each script: where rel, relf and the
# reference are, the batch runs and checks of tests/lib/batch-run.sh, and
# the comparison of noosa's answers with the reference's.
AREA=relate
. "${srcdir:-.}/tests/lib/batch-env.sh"
REL=$abs_top_builddir/tests/relate/rel
RELF=$abs_top_builddir/tests/relate/relf
REFERENCE=$abs_top_srcdir/tests/relate/reference.py
. "$abs_top_srcdir/tests/lib/batch-run.sh"
if ! command -v python3 >/dev/null 2>&1; then
    echo "python3 is absent (Debian package python3): the references cannot be computed"
    exit 77
fi

# same NAME: the lines "ans Q ..." run NAME printed are the lines
# "ref Q ..." of NAME.ref, the reference's, and there are some.
same() {
    sed -n 's/^ans //p' "$WORK/$1.out" | sort >"$WORK/$1.ans"
    sed -n 's/^ref //p' "$WORK/$1.ref" | sort >"$WORK/$1.want"
    if [ ! -s "$WORK/$1.want" ]; then
        fail "$1: the reference says nothing"
    elif cmp -s "$WORK/$1.ans" "$WORK/$1.want"; then
        echo "ok: $1: $(wc -l <"$WORK/$1.want") answers as the reference's"
    else
        fail "$1: answers differ from the reference's (< noosa, > reference)"
        diff "$WORK/$1.ans" "$WORK/$1.want" | head -20
    fi
}

# reference NAME SPEC...: the reference over run NAME's recording
# (NAME.rec) into NAME.ref; a derived event that differs is a failure.
reference() {
    name=$1
    shift
    "$NOOSA" dump "$WORK/$name.rec" >"$WORK/$name.dump" 2>"$WORK/$name.dump.err" ||
        fail "$name: noosa dump failed: $(head -3 "$WORK/$name.dump.err")"
    if python3 "$REFERENCE" "$WORK/$name.dump" "$@" >"$WORK/$name.ref"; then
        echo "ok: $name: derived events as the reference's"
        grep 'derived events$' "$WORK/$name.ref" | sed 's/^/    /'
    else
        fail "$name: derived events differ from the reference's"
        grep '^differ' "$WORK/$name.ref" | head -20
    fi
}

# answers Q...: Tcl printing "ans Q KEY... COUNT" for each group of each
# question Q (for -e).
answers() {
    for q in "$@"; do
        printf '%s\n' "foreach d_ [question get $q] {set k_ {}; foreach {n_ v_} \$d_ {if {\$n_ ni {count sum min max hist}} {lappend k_ \$v_}}; puts [concat ans $q \$k_ [dict get \$d_ count]]}"
    done
}
