#!/bin/sh
# SPDX-License-Identifier: MIT
# hit-regs.sh - a probe's hit handled in the program touches no register
# but the general ones and the flags <design#probes>: the trampoline saves
# nothing else, so every object of lib/runtime/probe-hit.c built here (the
# library's and the copies test programs compile in) must hold no
# instruction on a vector, mask or x87 register, no x87, MMX, SSE or AVX
# instruction, no indirect call, and no call to a function it does not
# define but rt_probe_out, from rt_probe_vsave_out alone (between its save
# and its restore of the vector state; the only place where xsave, xsavec,
# fxsave and their restores may be), a sanitizer's report (which ends
# the program) and AddressSanitizer's constructor of the object.  The
# check is first shown objects that break each rule, and must refuse each;
# with SANITIZE_FLAGS (the sanitizer build), probe-hit.c built so too.

. "${srcdir:-.}/tests/probes/lib.sh"

command -v objdump >/dev/null 2>&1 ||
    { echo "SKIP: objdump is not installed (Debian package binutils)"; exit 77; }
case $(uname -m) in
x86_64) ;;
*) echo "SKIP: the trampolines are x86-64's"; exit 77 ;;
esac

# check OBJ: nothing printed when OBJ keeps the rules, else each breach.
check() {
    nm --defined-only "$1" | awk '{ print $NF }' >"$WORK/defined"
    objdump -dr --no-show-raw-insn "$1" | awk -v obj="$1" '
    FILENAME != "-" { def[$1] = 1; next }
    /^[0-9a-f]+ <[^>]+>:$/ {
        fn = $2
        gsub(/[<>:]/, "", fn)
        next
    }
    /^[ \t]+[0-9a-f]+:[ \t]+R_X86_64_/ {
        sym = $3
        sub(/[-+]0x[0-9a-f]+$/, "", sym)
        if ($2 != "R_X86_64_PLT32" || sym ~ /^\./ || def[sym])
            next
        if (sym == "rt_probe_out" && fn == "rt_probe_vsave_out")
            next
        # (a sanitizer report, which ends the program; the AddressSanitizer
        # constructor and destructor of the object, which no hit runs)
        if (sym ~ /^(__asan_report_|__stack_chk_fail)/ ||
            sym ~ /^__ubsan_handle_.*_abort$/ || fn ~ /^_sub_[ID]_/)
            next
        printf "%s: %s calls %s, outside the object\n", obj, fn, sym
        next
    }
    /^ +[0-9a-f]+:\t/ {
        line = $0
        sub(/^ +[0-9a-f]+:\t/, "", line)
        n = split(line, w, /[ \t]+/)
        i = 1
        while (i < n && w[i] ~ /^(lock|rep|repz|repe|repnz|repne|notrack|bnd|data16|addr32|cs|ds|es|ss|fs|gs)$/)
            i++
        m = w[i]
        ops = ""
        for (k = i + 1; k <= n; k++)
            ops = ops " " w[k]
        sub(/#.*/, "", ops)
        bad = ""
        if (ops ~ /%[xyz]mm[0-9]|%st|%mm[0-7]|%k[0-7]/)
            bad = "a vector, mask or x87 register"
        else if (m ~ /^(xsave|xrstor|fxsave|fxrstor)/) {
            if (fn != "rt_probe_vsave_out")
                bad = "a save or restore of the vector state"
        } else if (m ~ /^(f|v)/ || m ~ /^(emms|femms|ldmxcsr|stmxcsr)$/)
            bad = "an x87, MMX, SSE or AVX instruction"
        else if (m ~ /^call/ && ops ~ /\*/)
            bad = "an indirect call"
        if (bad != "")
            printf "%s: %s: %s: %s\n", obj, fn, bad, line
    }' "$WORK/defined" -
}

# The check refuses what it must: made-up objects, one rule broken each.
cat >"$WORK/bad-float.c" <<'C'
double bad_float(double x, double y) { return x * y; }
C
cat >"$WORK/bad-call.c" <<'C'
#pragma GCC target("general-regs-only")
#include <string.h>
void bad_call(char *d, const char *s, unsigned long n) { memcpy(d, s, n); }
C
cat >"$WORK/bad-indirect.c" <<'C'
#pragma GCC target("general-regs-only")
void bad_indirect(void (*f)(void)) { f(); f(); }
C
cat >"$WORK/bad-xsave.c" <<'C'
#pragma GCC target("general-regs-only")
void bad_xsave(void *p) { __asm__ volatile("xsave64 (%0)" :: "r"(p), "a"(-1), "d"(-1) : "memory"); }
C
for b in float call indirect xsave; do
    ${CC:-cc} -O2 -fPIC -c "$WORK/bad-$b.c" -o "$WORK/bad-$b.o" ||
        fail "bad-$b.c does not compile"
    [ -n "$(check "$WORK/bad-$b.o")" ] ||
        fail "the check passes bad-$b.o: $(objdump -dr "$WORK/bad-$b.o")"
done

# (the sanitizer build's library has it built so; elsewhere, built so here)
if [ -z "$SANITIZE_FLAGS" ] &&
    ${CC:-cc} -fsanitize=address,undefined -fno-sanitize-recover=undefined \
        -x c -o /dev/null - <<'C' >/dev/null 2>&1
int main(void) { return 0; }
C
then
    ${CC:-cc} -O2 -fPIC -fvisibility=hidden -fsanitize=address,undefined \
        -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
        -I"$abs_top_builddir" -I"$abs_top_srcdir/lib" \
        -I"$abs_top_srcdir/lib/channel" -I"$abs_top_srcdir/lib/runtime" \
        -c "$abs_top_srcdir/lib/runtime/probe-hit.c" \
        -o "$WORK/asan-probe-hit.o" ||
        fail "probe-hit.c does not compile with the sanitizers"
fi
objs=$(ls "$abs_top_builddir"/lib/runtime/*probe-hit.o \
    "$abs_top_builddir"/lib/runtime/.libs/*probe-hit.o \
    "$WORK"/asan-probe-hit.o 2>/dev/null)
[ -n "$objs" ] || fail "no object of lib/runtime/probe-hit.c is built"
for o in $objs; do
    out=$(check "$o")
    [ -z "$out" ] || fail "$out"
    # (and it is the hit: a check of an empty object would pass)
    nm --defined-only "$o" | grep -q ' T dapto_probe_hit_gp$' ||
        fail "$o: no dapto_probe_hit_gp"
done

[ "$failures" = 0 ] || exit 1
echo "hit-regs.sh: every check passed ($(echo $objs | wc -w) objects)"
