#!/bin/sh
# SPDX-License-Identifier: MIT
# attach.sh - attaching to a program that runs already (noosa -p PID and
# attach PID) and detaching from it, through `noosa --batch`.  nt in its
# `lines` mode reads its standard input from a FIFO that this script
# writes, so it is blocked in read(2) whenever noosa attaches:
#  - attach, stop at a breakpoint, open the value it carries, detach
#    (info program then says the program goes on, detached: it said "not
#    running"); the program then finishes with its own output and status 0;
#  - attach and detach twice in a row, then the program goes on;
#  - attach at the prompt, and detach refused for a program noosa started;
#  - each reason not to attach, with its message: no such process, no
#    runtime, a runtime too old (no attach entry points) and one of
#    another protocol (both versions named), already monitored by another
#    noosa, and, as root, another user's program and a program that may
#    not be traced (undumpable);
#  - noosa killed with SIGKILL while attached, with a breakpoint set: the
#    program goes on unmonitored, neither stopped nor killed; another
#    noosa then attaches to it (the runtime gives back the channel of the
#    one killed) and detaches, and nothing of either is left in it.
. "$srcdir/tests/noosa/lib.sh"
OLD=$abs_top_builddir/tests/noosa/old-runtime
PLAIN=$abs_top_builddir/tests/noosa/plain

# Process numbers and the C library's frames change from run to run.
norm_attach() {
    sed -e 's/process [0-9][0-9]*/process PID/g' \
        -e 's/Process [0-9][0-9]*/Process PID/g' \
        -e 's/stopped in [^,]*, called from/stopped in LIBC, called from/' \
        "$WORK/$1.out" >"$WORK/$1.tmp" && mv "$WORK/$1.tmp" "$WORK/$1.out"
    sed -e 's/process [0-9][0-9]*/process PID/g' \
        "$WORK/$1.err" >"$WORK/$1.tmp" && mv "$WORK/$1.tmp" "$WORK/$1.err"
}

# wait_for FILE TEXT: up to 20 s for TEXT to appear in FILE.
wait_for() {
    i=0
    while ! grep -q "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        if [ $i -gt 200 ]; then
            fail "waited in vain for \"$2\" in $1"
            cat "$1" 2>/dev/null
            return 1
        fi
        sleep 0.1
    done
}

# start NAME PROGRAM ARG...: start PROGRAM in the background reading the
# FIFO NAME.in and writing NAME.prog; its pid in $prog.  It starts once
# the caller opens NAME.in for writing (exec 3>NAME.in).
start() {
    name=$1
    shift
    rm -f "$name.in"
    mkfifo "$name.in"
    "$@" <"$name.in" >"$name.prog" 2>&1 &
    prog=$!
}

# The first program: attach with -p, stop at the breakpoint on the first
# cell made, open it, detach.  noosa runs in the background: the line
# that makes the cell is written once it has attached.
start one "$NT" lines
exec 3>one.in
wait_for one.prog ready
cat >one.tcl <<'EOF2'
break cell_made
n_say "status $n(status) at $n(where)\n"
continue
values
open 1
detach
n_say "status $n(status)\n"
info program
EOF2
timeout 60 "$NOOSA" --batch -n -B "$TESTS_SRC/browsers" -x one.tcl -p $prog \
    >"$WORK/one.out" 2>"$WORK/one.err" &
noosa=$!
wait_for one.out Attached
echo first >&3
wait $noosa
echo $? >"$WORK/one.rc"
echo second >&3
exec 3>&-
wait $prog
echo "status $?" >>one.prog
norm_attach one
check one
same one-prog one.prog "ready
got first
got second
done
status 0"

# Twice in a row, then at the prompt; and detach refused for a program
# noosa started.
start twice "$NT" lines
exec 3>twice.in
wait_for twice.prog ready
batch twice-1 -n -p $prog -e detach
norm_attach twice-1
check twice-1
batch twice-2 -n -e "attach $prog" -e "n_say \"\$n(status)\\n\"" -e detach \
    -e "n_say \"\$n(status)\\n\"" -e "attach $prog" -e detach
norm_attach twice-2
check twice-2
echo after >&3
exec 3>&-
wait $prog
echo "status $?" >>twice.prog
same twice-prog twice.prog "ready
got after
done
status 0"
batch started -n -e "break tick" -e "run > started-prog.out" -e detach \
    -e "attach 1" -e kill "$NT" ticks 1
norm_attach started
check started

# DAPTO_PTRACER (for Yama's ptrace_scope 1): "any" is taken silently
# and attaching works; anything else but a process id is refused, with a
# message, and the program runs on.
start ptracer env DAPTO_PTRACER=any "$NT" lines
exec 3>ptracer.in
wait_for ptracer.prog ready
batch ptracer -n -p $prog -e detach
norm_attach ptracer
check ptracer
exec 3>&-
wait $prog
echo "status $?" >>ptracer.prog
same ptracer-prog ptracer.prog "ready
done
status 0"
DAPTO_PTRACER=12x "$NT" ticks 1 >ptracer-bad.prog 2>&1
same ptracer-bad ptracer-bad.prog 'libdapto: DAPTO_PTRACER="12x" is neither "any" nor a process id; ignored
step 1'

# Reasons not to attach.  No such process (beyond the largest pid), and
# bad arguments.
batch no-process -n -p 2147483647
norm_attach no-process
check no-process
batch bad-pid -n -e "attach x" -e "attach 0" -e "attach 1 2"
check bad-pid
# No runtime, a runtime from before attaching, a runtime of another
# protocol; each program goes on as it was.
sleep 30 </dev/null &
prog=$!
batch no-runtime-p -n -p $prog
norm_attach no-runtime-p
check no-runtime-p
kill $prog
wait $prog 2>/dev/null
start old "$OLD"
exec 3>old.in
wait_for old.prog ready
batch old-runtime -n -p $prog
norm_attach old-runtime
check old-runtime
exec 3>&-
wait $prog
echo "status $?" >>old.prog
same old-prog old.prog "ready
status 0"
start v99 "$NT99" lines
exec 3>v99.in
wait_for v99.prog ready
batch v99 -n -p $prog
norm_attach v99
check v99
echo still >&3
exec 3>&-
wait $prog
echo "status $?" >>v99.prog
# (the runtime says why on its standard error, which is the program's)
grep -v '^libdapto:' v99.prog >v99.prog2
same v99-prog v99.prog2 "ready
got still
done
status 0"

# Already monitored by another noosa: the first one waits for commands
# on a FIFO, attached, until that is closed, and then detaches.
start busy "$NT" lines
exec 3>busy.in
wait_for busy.prog ready
mkfifo busy.cmd
timeout 60 "$NOOSA" --batch -n -p $prog <busy.cmd >"$WORK/busy-1.out" \
    2>"$WORK/busy-1.err" &
noosa=$!
exec 4>busy.cmd
wait_for "$WORK/busy-1.out" Attached
batch busy-2 -n -p $prog
norm_attach busy-2
check busy-2
exec 4>&-
wait $noosa
echo $? >"$WORK/busy-1.rc"
norm_attach busy-1
check busy-1
echo free >&3
exec 3>&-
wait $prog
echo "status $?" >>busy.prog
same busy-prog busy.prog "ready
got free
done
status 0"

# noosa killed while attached, a breakpoint set on the events the program
# emits for each line: the program is neither stopped nor killed, and no
# longer waits at the breakpoint once it finds noosa gone.
start killed "$NT" lines
exec 3>killed.in
wait_for killed.prog ready
mkfifo killed.cmd
timeout 60 "$NOOSA" --batch -n -p $prog <killed.cmd >"$WORK/killed.out" \
    2>&1 &
guard=$!
exec 4>killed.cmd
echo "break cell_made" >&4
echo 'n_say "set\n"' >&4
wait_for "$WORK/killed.out" set
# noosa itself, not the timeout around it: killing timeout would leave
# noosa attached, and the command pipe's end would let it detach cleanly.
noosa=$(pgrep -P $guard -x noosa || pgrep -P $guard)
[ -n "$noosa" ] || fail "no noosa under timeout $guard"
kill -9 $noosa
wait $guard 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "noosa under timeout ended with $rc, not killed by SIGKILL (137)"
exec 4>&-
echo one >&3
# another noosa attaches to it (it was refused: the runtime kept the
# channel of the one killed, "monitored already"), stops at the next line,
# detaches; nothing of either is left in it
timeout 60 "$NOOSA" --batch -n -p $prog -e 'break cell_made' -e continue \
    -e 'n_say "again at $n(where)\n"' -e detach >"$WORK/killed-again.out" \
    2>"$WORK/killed-again.err" &
noosa=$!
wait_for "$WORK/killed-again.out" Attached
echo two >&3
wait $noosa
echo $? >"$WORK/killed-again.rc"
norm_attach killed-again
check killed-again
if grep -q dapto-channel "/proc/$prog/maps"; then
    fail "a channel is left in the program: $(grep dapto-channel "/proc/$prog/maps")"
else
    echo "ok: no channel left in the program"
fi
echo three >&3
exec 3>&-
wait $prog
echo "status $?" >>killed.prog
same killed-prog killed.prog "ready
got one
got two
got three
done
status 0"

# As root: another user's program, and one that may not be traced (its
# own user's, but undumpable).  noosa runs as nobody.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=65534 --regid=65534 --clear-groups "$NOOSA" --version \
        >/dev/null 2>&1; then
    nobody() {
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    }
    start other "$NT" lines
    exec 3>other.in
    wait_for other.prog ready
    nobody "$NOOSA" --batch -n -p $prog >"$WORK/other-user.out" \
        2>"$WORK/other-user.err"
    echo $? >"$WORK/other-user.rc"
    norm_attach other-user
    check other-user
    exec 3>&-
    wait $prog
    start undumpable env NT_UNDUMPABLE=1 setpriv --reuid=65534 \
        --regid=65534 --clear-groups "$NT" lines
    exec 3>undumpable.in
    wait_for undumpable.prog ready
    nobody "$NOOSA" --batch -n -p $prog >"$WORK/undumpable.out" \
        2>"$WORK/undumpable.err"
    echo $? >"$WORK/undumpable.rc"
    norm_attach undumpable
    check undumpable
    exec 3>&-
    wait $prog
else
    echo "skipped: another user's program and an undumpable one (not root)"
fi

finish
