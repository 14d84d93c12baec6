# SPDX-License-Identifier: MIT
# lib.sh - helpers of the tests of tests/debug, sourced by each script:
# the programs (dv at -O0 and -O2, without debug information, stripped),
# noosa --batch with a list of commands, the same commands in gdb at the
# same stop, and the normalising of both for comparison.

AREA=debug
. "${srcdir:-.}/tests/lib/batch-env.sh"
. "$abs_top_srcdir/tests/lib/batch-run.sh"
DV=$abs_top_builddir/tests/debug/dv
DV2=$abs_top_builddir/tests/debug/dv-O2

# dv without its debug information (its symbols kept), and dv stripped of
# every symbol, made in $WORK.
nodebug() {
    objcopy --strip-debug "$DV" "$WORK/dv-nodebug" || exit 99
}
stripped() {
    strip -o "$WORK/dv-stripped" "$DV" || exit 99
}
: "${GDB:=gdb}"

# cmd_lines FILE: the commands of FILE (no comments, no blank lines).
cmd_lines() {
    grep -v -e '^#' -e '^$' "$1"
}

# noosa_with NAME BIN ARGS FILE...: noosa --batch -n on BIN with -e for
# every command of the FILEs, BIN's arguments ARGS (one word or none)
# given to run; run NAME of batch-run.sh ($WORK/NAME.out, .err, .rc).
noosa_with() {
    _n=$1
    _b=$2
    shift 2
    for _f in "$@"; do
        cmd_lines "$_f"
    done >"$WORK/$_n.cmds"
    (
        set --
        while IFS= read -r line; do
            set -- "$@" -e "$line"
        done <"$WORK/$_n.cmds"
        timeout -k 5 "$LIMIT" "$NOOSA" --batch -n "$@" "$_b" \
            </dev/null >"$WORK/$_n.out" 2>"$WORK/$_n.err"
        echo $? >"$WORK/$_n.rc"
    )
}

# gdb_with NAME BIN BEFORE-FILE CMD-FILE ARGS...: gdb -batch on BIN (with
# ARGS) with -ex for every line of the two files; output in
# $WORK/NAME.gdb.  LC_ALL=C: characters outside ASCII escaped, as noosa
# does.
gdb_with() {
    _n=$1
    _b=$2
    _bf=$3
    _cf=$4
    shift 4
    (
        args="$*"
        set -- -nx -batch -ex 'set pagination off' -ex 'set width 0' \
            -ex 'set confirm off'
        if [ -n "$args" ]; then
            set -- "$@" -ex "set args $args"
        fi
        for _f in "$_bf" "$_cf"; do
            while IFS= read -r line; do
                set -- "$@" -ex "$line"
            done <<EOF
$(cmd_lines "$_f")
EOF
        done
        LC_ALL=C timeout -k 5 "$LIMIT" "$GDB" "$@" "$_b" </dev/null \
            >"$WORK/$_n.gdb" 2>&1
    )
}

# What differs between two runs and between noosa and gdb for reasons
# that are not the values: addresses of five hex digits or more (the
# program is mapped elsewhere each run) become ADDR, noosa's "error: "
# goes, directories of the tree go.
normalise_values() {
    sed -E -e 's/0x[0-9a-f]{5,}/ADDR/g' -e 's/^error: //' \
        -e "s|$abs_top_srcdir/||g" -e "s|$abs_top_builddir/||g"
}

# have_gdb: whether gdb runs here (the comparisons skip without it).
have_gdb() {
    "$GDB" -nx -batch -ex 'print 1' >/dev/null 2>&1
}
