#!/bin/sh
# SPDX-License-Identifier: MIT
# print.sh - print of every kind of C data (tests/debug/exprs: structs,
# unions, enums, arrays, strings, bitfields, typedefs, nested and
# anonymous members, function pointers, globals and statics, locals and
# arguments, casts, arithmetic, formats, the value history, errors), and
# info locals and info args, at the same stop in noosa and in gdb: the
# visit event of dv at -O0 and at -O2 (<optimized out> where gdb says it,
# nowhere else), and dv's fault in crash() (both frames).  The two must
# print the same, line for line.
. "${srcdir:-.}/tests/debug/lib.sh"

if ! have_gdb; then
    echo "SKIP: gdb does not run here: noosa's print is compared with gdb's"
    exit 77
fi

printf 'break visit\nrun\ncontinue\n' >"$WORK/n-before"
printf 'kill\n' >"$WORK/n-after"
# gdb stops where noosa does: in the program's frame that emitted the
# event (the emitter's state byte set, as noosa would set it)
printf '%s\n' 'break main' run 'set var dv_dapto_state[0] = 1' \
    'break dv_dapto_emit_visit' continue continue 'frame 2' >"$WORK/g-before"

# compare NAME: the values noosa printed in run NAME (after the stop
# line of depth 1) and gdb's (after its frame line).
compare() {
    sed -n '/^Stopped at .*depth=1/,$p' "$WORK/$1.out" | sed 1d |
        grep -v '^Program killed' | normalise_values >"$WORK/$1.noosa"
    awk 'shown { print } /^#2  / { skip = 1; next } skip && !shown { shown = 1 }' \
        "$WORK/$1.gdb" | grep -v -e '^\[Inferior' -e '^$' |
        normalise_values >"$WORK/$1.want"
    if diff -u "$WORK/$1.want" "$WORK/$1.noosa" >"$WORK/$1.diff"; then
        echo "ok: $1: $(wc -l <"$WORK/$1.want") lines as gdb prints them"
    else
        fail "$1: noosa and gdb differ (gdb -, noosa +):"
        cat "$WORK/$1.diff"
    fi
}

for bin in dv dv-O2; do
    noosa_with "$bin" "$abs_top_builddir/tests/debug/$bin" \
        "$WORK/n-before" "$TESTS_SRC/exprs" "$WORK/n-after"
    gdb_with "$bin" "$abs_top_builddir/tests/debug/$bin" "$WORK/g-before" \
        "$TESTS_SRC/exprs"
    compare "$bin"
    # the optimised build has values the compiler did not keep
    if [ "$bin" = dv-O2 ] && ! grep -q '<optimized out>' "$WORK/$bin.noosa"
    then
        fail "$bin: nothing optimized out at -O2: the test shows nothing"
    fi
done

# At a fault: the innermost frame is the program's, every register
# there; its caller sees what the call preserved.
printf 'errors ask\nrun crash\n' >"$WORK/nf-before"
printf 'run\n' >"$WORK/gf-before"
for bin in dv dv-O2; do
    noosa_with "$bin-fault" "$abs_top_builddir/tests/debug/$bin" \
        "$WORK/nf-before" "$TESTS_SRC/fault-exprs" "$WORK/n-after"
    gdb_with "$bin-fault" "$abs_top_builddir/tests/debug/$bin" \
        "$WORK/gf-before" "$TESTS_SRC/fault-exprs" crash
    sed -n '/^\$1 = 12345$/,$p' "$WORK/$bin-fault.out" |
        grep -v '^Program killed' | normalise_values >"$WORK/$bin-fault.noosa"
    sed -n '/^\$1 = 12345$/,$p' "$WORK/$bin-fault.gdb" |
        grep -v -e '^\[Inferior' -e '^$' |
        normalise_values >"$WORK/$bin-fault.want"
    if [ "$(wc -l <"$WORK/$bin-fault.want")" -lt 15 ]; then
        fail "$bin-fault: gdb printed too little:"
        cat "$WORK/$bin-fault.gdb"
    elif diff -u "$WORK/$bin-fault.want" "$WORK/$bin-fault.noosa" \
        >"$WORK/$bin-fault.diff"; then
        echo "ok: $bin-fault: as gdb prints it"
    else
        fail "$bin-fault: noosa and gdb differ (gdb -, noosa +):"
        cat "$WORK/$bin-fault.diff"
    fi
done

finish
