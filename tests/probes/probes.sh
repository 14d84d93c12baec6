#!/bin/sh
# SPDX-License-Identifier: MIT
# probes.sh - USDT probes as events <design#probes>, on pp-main: probes of
# the executable, of a library it links and of one it loads later (the
# dynamic linker's breakpoint), a semaphore counted up so that the probe
# it guards fires, every kind of operand (registers, the stack, a global
# symbol, a constant; signed and not), hints (names, strings); the values
# equal gdb's `break -probe-stap' on the same program (but for the
# operand NUM+SYM(%rip), which gdb 13 cannot read); breakpoints with a
# condition, handlers, recordings (played: the same values, strings
# too) and the profiles (components a probe enters and
# leaves) take them; `info probes' lists them; a forked child not
# followed, a vfork child that hits a probe and an exec are left with
# nothing of noosa; eight threads hitting a probe lose no hit, nor do
# threads that come and go in waves while signals, forks and a breakpoint
# stop them (a handler that does not stop: each thread goes on as soon as
# its hit is read).

. "${srcdir:-.}/tests/probes/lib.sh"

[ -x "$PP" ] || { echo "SKIP: $PP not built"; exit 77; }

HINTS='
probe hint app:pair a who:str
probe string lib:work 2
'
TRACE='trace on {^(tick|pair|global|constant|guarded|work|plain|loaded)$}'

# --- every probe, its values --------------------------------------------------
cat >run.tcl <<TCL
$HINTS
$TRACE
run
TCL
batch run -x run.tcl "$PP"
status run 0
sed -E 's/="([^"]*)"/=\1/g' run.out | grep -E '^[a-z]+ ' | grep -v '^dl ' \
    >run.values
pp_values >run.expected
diff run.expected run.values >/dev/null ||
    fail "run: the probes' values: $(diff run.expected run.values)"
has run "dl 49"
has run "done"
hasnt run "no monitoring interface"

# --- a recording of the run, played: the same events ------------------------------
cat >rec.tcl <<TCL
$HINTS
record start $WORK/rec
$TRACE
run
TCL
batch rec -x rec.tcl "$PP"
status rec 0
batch play -e "$TRACE" -e run "$WORK/rec"
status play 0
sed -E 's/="([^"]*)"/=\1/g' play.out | grep -E '^[a-z]+ [a-z0-9]+=' >play.values
diff run.expected play.values >/dev/null ||
    fail "play: the recording's values: $(diff run.expected play.values)"

# --- the same values as gdb's ---------------------------------------------------
if command -v gdb >/dev/null 2>&1; then
    cat >gdb.cmd <<'GDB'
set pagination off
set confirm off
set breakpoint pending on
break -probe-stap app:tick
commands
silent
printf "tick arg1=%d arg2=%ld arg3=%d\n", $_probe_arg0, $_probe_arg1, $_probe_arg2
continue
end
break -probe-stap app:pair
commands
silent
printf "pair a=%ld who=%s\n", $_probe_arg0, (char *)$_probe_arg1
continue
end
break -probe-stap app:constant
commands
silent
printf "constant arg1=%d\n", $_probe_arg0
continue
end
break -probe-stap app:guarded
commands
silent
printf "guarded arg1=%d\n", $_probe_arg0
continue
end
break -probe-stap lib:work
commands
silent
printf "work arg1=%d arg2=%s\n", $_probe_arg0, (char *)$_probe_arg1
continue
end
break -probe-stap lib:plain
commands
silent
printf "plain arg1=%ld\n", $_probe_arg0
continue
end
break -probe-stap dl:loaded
commands
silent
printf "loaded arg1=%d arg2=%d\n", $_probe_arg0, $_probe_arg1
continue
end
run
GDB
    timeout 120 gdb -batch -nx -x gdb.cmd --args "$PP" >gdb.out 2>&1
    grep -E '^(tick|pair|global|constant|guarded|work|plain|loaded) ' gdb.out \
        >gdb.values
    [ -s gdb.values ] || fail "gdb: no probe hit: $(head -20 gdb.out)"
    # (gdb 13 cannot read app:global's 16+pp_counters(%rip): its value is
    # checked above)
    grep -v '^global ' run.values >run.gdbvalues
    diff gdb.values run.gdbvalues >/dev/null ||
        fail "noosa and gdb differ: $(diff gdb.values run.gdbvalues)"
else
    echo "gdb is not installed: the values are not compared with gdb's"
fi

# --- info probes --------------------------------------------------------------------
cat >info.tcl <<TCL
break constant
run
info probes
continue
kill
TCL
batch info -x info.tcl "$PP"
has info "Provider     Name"
has info "app          tick"
has info "lib          work"
has info "libpplib.so"
# (the library loaded later is not there yet at the first stop)
has info "arguments: -4@\$42"
grep -E "^app +constant +0x[0-9a-f]+ +0x[0-9a-f]+ +ptrace " "$WORK/info.out" \
    >/dev/null || fail "info: app:constant is not on: $(cat info.out)"
grep -E '^app +tick +0x[0-9a-f]+ +0x[0-9a-f]+ +off ' "$WORK/info.out" \
    >/dev/null || fail "info: app:tick is not off: $(cat info.out)"

# --- a breakpoint with a condition, a handler ---------------------------------------
cat >break.tcl <<TCL
$HINTS
break tick if {\$arg1 == 1}
handler add pair h {n_say "handler: \$a \$who\\n"}
run
continue
TCL
batch break -x break.tcl "$PP"
status break 0
has break 'Stopped at breakpoint 1 for event "tick": arg1=1 arg2=1000000000 arg3=-1'
[ "$(grep -c 'Stopped at' break.out)" = 1 ] ||
    fail "break: not one stop: $(cat break.out)"
[ "$(grep -c '^handler: ' break.out)" = 3 ] ||
    fail "break: the handler did not run 3 times: $(cat break.out)"
has break "handler: 41 parent"

# --- a component that probes enter and leave, in the time profile -------------------
cat >comp.tcl <<TCL
probe hint app:enter name:str
probe hint app:leave name:str
probe component app:enter enter {c-%{name}}
probe component app:leave leave {c-%{name}}
profile time on
profile print off
run
foreach row [profile get time -tree] {
    puts "row [dict get \$row depth] [dict get \$row name] [dict get \$row calls]"
}
TCL
batch comp -x comp.tcl "$PP" components
status comp 0
has comp "row 0 c-main 1"
has comp "row 1 c-alpha 1"
has comp "row 2 c-gamma 1"
has comp "row 3 c-beta 1"

# --- processes: a child not followed, a vfork child, an exec ----------------------------
for mode in fork vfork exec; do
    batch "$mode" -e "$TRACE" -e run "$PP" "$mode"
    status "$mode" 0
    hasnt "$mode" "SIGTRAP"
done
has fork "child done"
has fork "child exited 0"
[ "$(grep -c '^tick ' fork.out)" = 3 ] ||
    fail "fork: the child's hits were told (it is not followed): $(cat fork.out)"
has vfork "vfork child exited 0"
[ "$(grep -c '^tick ' vfork.out)" = 6 ] ||
    fail "vfork: not the parent's 6 ticks: $(cat vfork.out)"
has exec "executed /usr/bin/true"

# --- threads: every hit ---------------------------------------------------------------
batch threads -e 'trace on ^thread$' -e run "$PP" threads 8
status threads 0
[ "$(grep -c '^thread ' threads.out)" = 8000 ] ||
    fail "threads: $(grep -c '^thread ' threads.out) hits, not 8000"
for i in 0 1 2 3 4 5 6 7; do
    [ "$(grep -c "^thread arg1=$i " threads.out)" = 1000 ] ||
        fail "threads: thread $i's hits are not 1000"
done

# --- waves: hits racing stops of every kind ------------------------------------------
# 10 waves of 8 threads, 100 hits each, a signal and a fork a wave: to a
# handler that needs no stop (each thread goes on once its hit is read),
# then with a breakpoint on one hit a wave too (every hit waits to be
# told; the others' wait their turn while the program is stopped there).
WAVES='set bad 0; for {set k 0} {$k < 80} {incr k} {
    if {![info exists c($k)] || $c($k) != 100} {incr bad}
}; puts "threads [array size c] wrong $bad stops $stops"'
batch waves -e 'set stops 0' -e 'handler add thread h {incr ::c($arg1)}' \
    -e run -e "$WAVES" "$PP" waves 10
status waves 0
has waves "waves 10 signals 10"
has waves "threads 80 wrong 0 stops 0"
batch waves-break -e 'set stops 0' \
    -e 'handler add thread h {incr ::c($arg1)}' \
    -e 'break thread if {$arg2 == 50 && $arg1 % 8 == 5}' -e run \
    -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
    -e "$WAVES" "$PP" waves 10
status waves-break 0
has waves-break "waves 10 signals 10"
has waves-break "threads 80 wrong 0 stops 10"

[ "$failures" = 0 ] || exit 1
echo "probes.sh: every check passed"
