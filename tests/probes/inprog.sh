#!/bin/sh
# SPDX-License-Identifier: MIT
# inprog.sh - probes handled in the program <design#probes>: pp-rt is
# pp-main with the runtime compiled in, so that once its runtime has
# attached, each probe site that can be is replaced by a jump to a
# trampoline calling the runtime, which reads the arguments and sends the
# event through the ring: no ptrace stop.  The values are those pp-main
# gives under ptrace (probes.sh) and gdb; `info probes' says which sites
# the program handles and why the others stay under ptrace; a forked
# child not followed, a vfork child and eight threads hitting a patched
# probe go through; a breakpoint with a condition stops at a probe the
# program handles (the runtime's stop).

. "${srcdir:-.}/tests/probes/lib.sh"
RT=$abs_top_builddir/tests/probes/pp-rt

[ -x "$RT" ] || { echo "SKIP: $RT not built"; exit 77; }

HINTS='
probe hint app:pair a who:str
probe string lib:work 2
'
TRACE='trace on {^(tick|pair|global|constant|guarded|work|plain|loaded)$}'

cat >run.tcl <<TCL
$HINTS
$TRACE
run
info probes
TCL
batch run -x run.tcl "$RT"
status run 0
sed -E 's/="([^"]*)"/=\1/g' run.out | grep -E '^[a-z]+ [a-z0-9]+=' |
    grep -v '^dl ' >run.values
pp_values >run.expected
diff run.expected run.values >/dev/null ||
    fail "run: the probes' values: $(diff run.expected run.values)"
# (which sites the program handles depends on the compiler's code; some
# do, and each one left under ptrace says why)
n=$(grep -cE '^[a-z]+ +[a-z_]+ +0x[0-9a-f]+ .* program ' run.out)
[ "$n" -ge 2 ] || fail "run: $n sites handled in the program: $(cat run.out)"
grep -A3 ' ptrace ' run.out | grep -q 'under ptrace: ' ||
    fail "run: a site under ptrace without its reason: $(cat run.out)"

# a breakpoint with a condition, at a probe the program handles
cat >break.tcl <<TCL
break plain if {\$arg1 == 3}
run
continue
TCL
batch break -x break.tcl "$RT"
status break 0
has break 'Stopped at breakpoint 1 for event "plain": arg1=3'
[ "$(grep -c 'Stopped at' break.out)" = 1 ] ||
    fail "break: not one stop: $(cat break.out)"

for mode in fork vfork; do
    batch "$mode" -e "$TRACE" -e run "$RT" "$mode"
    status "$mode" 0
    hasnt "$mode" "SIGTRAP"
    hasnt "$mode" "SIGSEGV"
done
has fork "child done"
has fork "child exited 0"
has vfork "vfork child exited 0"

batch threads -e 'trace on ^thread$' -e run -e 'info probes' "$RT" threads 8
status threads 0
[ "$(grep -c '^thread ' threads.out)" = 8000 ] ||
    fail "threads: $(grep -c '^thread ' threads.out) hits, not 8000"
grep -qE '^app +thread +0x[0-9a-f]+ .* program ' threads.out ||
    echo "note: app:thread is not handled in the program here"

# a program that keeps its own call trees (it has a runtime) would not see
# the components its probes enter: by default the profiles are noosa's,
# and say why; the components are there
cat >comp.tcl <<TCL
probe hint app:enter name:str
probe hint app:leave name:str
probe component app:enter enter {c-%{name}}
probe component app:leave leave {c-%{name}}
profile time on
profile freq on
profile print off
run
foreach row [profile get time -tree] {
    puts "row [dict get \$row depth] [dict get \$row name] [dict get \$row calls]"
}
profile
TCL
batch comp -x comp.tcl "$RT" components
status comp 0
has comp "row 3 c-beta 1"
has comp "time profile kept: in noosa, from the records of every enter and leave (the program's USDT probes are noosa's events, which its call trees do not see)"
has comp "frequency profile kept: in noosa"

[ "$failures" = 0 ] || exit 1
echo "inprog.sh: every check passed ($n sites handled in the program)"
