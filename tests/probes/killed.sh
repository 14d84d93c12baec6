#!/bin/sh
# SPDX-License-Identifier: MIT
# killed.sh - noosa killed with SIGKILL while attached to a running
# program (noosa -p) with a probe armed under ptrace <protocol#probes>:
# the breakpoint instruction stays in the program, and its runtime's
# SIGTRAP handler carries out the nop it replaced at each later hit, so
# that the program goes on unmonitored to its own end (without it, the
# program dies of SIGTRAP at the next hit).  pp-vec-rt's probe vec:stay
# stays under ptrace (a call follows its nop); `pp-vec lines' hits it
# once for each line it reads.

. "${srcdir:-.}/tests/probes/lib.sh"
VRT=$abs_top_builddir/tests/probes/pp-vec-rt

case $(uname -m) in
x86_64) ;;
*) echo "SKIP: pp-vec is x86-64's"; exit 77 ;;
esac
[ -x "$VRT" ] || { echo "SKIP: $VRT not built"; exit 77; }

# until FILE TEXT: up to 30 s for TEXT (a fixed string) in FILE.
until_in() {
    i=0
    until grep -qF -- "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -le 300 ] || { fail "no \"$2\" in $1: $(cat "$1")"; return 1; }
        sleep 0.1
    done
}

# (a program dead of SIGTRAP must not end this script with SIGPIPE)
trap '' PIPE
rm -f prog.in cmd.in
mkfifo prog.in cmd.in
"$VRT" lines <prog.in >prog.out 2>&1 &
prog=$!
exec 3>prog.in
until_in prog.out ready
# (not under timeout: the SIGKILL is noosa's own; it comes in every case)
"$NOOSA" --batch -n -p $prog <cmd.in >noosa.out 2>&1 &
noosa=$!
exec 4>cmd.in
echo 'trace on ^stay$' >&4
echo 'info probes' >&4
echo 'n_say "set\n"' >&4
until_in noosa.out set
grep -qE '^vec +stay +0x[0-9a-f]+ .* ptrace ' noosa.out ||
    fail "vec:stay is not under ptrace: $(cat noosa.out)"
echo continue >&4
echo one >&3
until_in noosa.out 'stay arg1=1'
until_in prog.out 'got one'
kill -9 $noosa
wait $noosa 2>/dev/null
exec 4>&-
echo two >&3
echo three >&3
exec 3>&-
wait $prog
echo "status $?" >>prog.out
printf 'ready\ngot one\ngot two\ngot three\ndone\nstatus 0\n' >prog.expected
cmp -s prog.expected prog.out ||
    fail "the program after noosa's SIGKILL: $(cat prog.out)"

[ "$failures" = 0 ] || exit 1
echo "killed.sh: every check passed"
