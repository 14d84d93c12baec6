#!/bin/sh
# SPDX-License-Identifier: MIT
# generated.sh - a program with a monitoring interface, built with
# -finstrument-functions (pt-instr): its profile is of its own functions
# and components, never of dapto's stubs, encoders and operations or
# dapto.h's functions (they carry no_instrument_function), and its named
# components nest inside its functions as it entered them, with no leave
# that misses its enter; kept in the program (the default) and from the
# records alike.
. "${srcdir:-.}/tests/profile/lib.sh"
cd "$WORK" || exit 99
PTI=$abs_top_builddir/tests/profile/pt-instr

for where in default noosa; do
    place=
    [ "$where" = noosa ] && place='profile time in noosa'
    cat >gen.tcl <<TCL
profile time on
$place
profile print off
run
set names {}
foreach row [profile get time -flat] { lappend names [dict get \$row name] }
puts "names [lsort \$names]"
set at {}
foreach row [profile get time -tree] {
    set at [lrange \$at 0 [expr {[dict get \$row depth] - 1}]]
    lappend at [dict get \$row name]
    puts "path [join \$at /] [dict get \$row calls]"
}
profile
TCL
    batch "gen-$where" -x gen.tcl "$PTI" nest 3
    out=$WORK/gen-$where.out
    [ "$(cat "$WORK/gen-$where.rc")" = 0 ] || fail "gen-$where: exit status $(cat "$WORK/gen-$where.rc")"
    if grep '^names ' "$out" | grep -q -i 'dapto'; then
        fail "gen-$where: monitoring's code in the profile: $(grep '^names ' "$out")"
    else
        echo "ok: gen-$where: no dapto function in the profile"
    fi
    # main() -> nest() -> components main{a{b} c}, three times
    for path in 'main/nest/main 1' 'main/nest/main/a 3' 'main/nest/main/a/b 3' \
        'main/nest/main/c 3'; do
        contains "gen-$where" "path $path"
    done
    if grep -q 'does not match\|without an enter' "$out" "$WORK/gen-$where.err"; then
        fail "gen-$where: a leave missed its enter"
    fi
done
contains gen-default 'time profile kept: in the program'
contains gen-noosa 'time profile kept: in noosa, from the records of every enter and leave (as asked)'

finish
