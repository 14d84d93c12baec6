#!/bin/sh
# SPDX-License-Identifier: MIT
# vecregs.sh - a probe's hit leaves the program's registers as they were
# <design#probes>: pp-vec holds values in every vector, mask and x87
# register it has, in MXCSR, the x87 control word and general registers,
# across the hits of its probe vec:hit, and says whether they came out
# unchanged.  Under ptrace (pp-vec) and handled in the program (pp-vec-rt,
# whose trampoline saves the general registers alone, its hit touching no
# other but around the rare paths, which save the vector state), by every
# path of the hit: the ring (small, so that the writer waits for room),
# the clock without a TSC, an overwriting ring (the whole event path), a
# stop at a breakpoint with a condition.  The arguments (a float, a
# double, strings: one, an unreadable pointer, NULL, one longer than
# what is read) are the same both ways, and the thread's trail keeps the
# hits (the last events before a fault).  The comparison itself works:
# pp-vec-rt `clobber' changes a register and must say so.

. "${srcdir:-.}/tests/probes/lib.sh"
VEC=$abs_top_builddir/tests/probes/pp-vec
VRT=$abs_top_builddir/tests/probes/pp-vec-rt

case $(uname -m) in
x86_64) ;;
*) echo "SKIP: pp-vec is x86-64's"; exit 77 ;;
esac
[ -x "$VEC" ] && [ -x "$VRT" ] || { echo "SKIP: pp-vec not built"; exit 77; }

HINTS='
probe hint vec:hit left f d s bad null long
probe string vec:hit 4
probe string vec:hit 5
probe string vec:hit 6
probe string vec:hit 7
'
printf '%s\ntrace on ^hit$\nrun\ninfo probes\n' "$HINTS" >trace.tcl

# the program's verdict on its registers: kept, and N hits
kept() {
    has "$1" "vec $2 hits, registers kept"
    hasnt "$1" "vec: "
}

# the comparison works: a register changed is told
"$VRT" 3 clobber >clobber.out 2>&1 && fail "pp-vec-rt clobber exits 0"
grep -q '^vec: vector register 3 changed$' clobber.out ||
    fail "pp-vec-rt clobber: $(cat clobber.out)"

# under ptrace, and the values the hits give
batch ptrace -x trace.tcl "$VEC" 3
status ptrace 0
kept ptrace 3
grep '^hit ' ptrace.out >ptrace.values
long=$(printf '%512s' '' | tr ' ' x)
{
    for left in 3 2 1; do
        printf 'hit left=%s f=1.5 d=-2.25 s="kept" ' "$left"
        printf 'bad="<unreadable 0x10>" null="(null)" long="%s"\n' "$long"
    done
} >expected.values
cmp -s expected.values ptrace.values ||
    fail "ptrace: the values: $(diff expected.values ptrace.values | cut -c1-200)"

# handled in the program, the same values
batch inprog -x trace.tcl "$VRT" 3
status inprog 0
kept inprog 3
grep -qE '^vec +hit +0x[0-9a-f]+ .* program ' inprog.out ||
    fail "inprog: vec:hit is not handled in the program: $(cat inprog.out)"
grep '^hit ' inprog.out >inprog.values
cmp -s expected.values inprog.values ||
    fail "inprog: the values: $(diff expected.values inprog.values | cut -c1-200)"

# the rare paths: a ring of 4 KiB, whose writer waits for room (records
# of some 600 bytes), and without a TSC (the clock's system call)
N=3000
batch small --ring-size 4096 --no-tsc -e 'trace on ^hit$' -e run "$VRT" $N
status small 0
kept small $N
[ "$(grep -c '^hit ' small.out)" = $N ] ||
    fail "small: $(grep -c '^hit ' small.out) hits traced, not $N"
hasnt small "lost"
# the whole event path (an overwriting ring goes through it)
batch over --overwrite -e 'trace on ^hit$' -e run "$VRT" 200
status over 0
kept over 200
# a stop in the program, at the hit where left is 2
cat >stop.tcl <<TCL
$HINTS
break hit if {\$left == 2}
run
continue
TCL
batch stop -x stop.tcl "$VRT" 4
status stop 0
kept stop 4
has stop 'Stopped at breakpoint 1 for event "hit": left=2'
[ "$(grep -c 'Stopped at' stop.out)" = 1 ] ||
    fail "stop: not one stop: $(cat stop.out)"

# the thread's own trail keeps the hits handled in the program: the
# last events before a fault after them
batch trail -e 'errors last 100' -e 'trace on ^hit$' -e run "$VRT" 3 fault
[ "$(grep -cE '^  hit arg1=[123] ' trail.out)" = 3 ] ||
    fail "trail: not the 3 hits before the fault: $(cat trail.out)"

[ "$failures" = 0 ] || exit 1
echo "vecregs.sh: every check passed"
