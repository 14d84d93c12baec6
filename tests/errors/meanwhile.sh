#!/bin/sh
# SPDX-License-Identifier: MIT
# meanwhile.sh - threads that fault while the program is stopped at an
# event: the stop stays the event's, and each fault is told as a stop of
# its own once the program goes on, one at a time <design#processes>,
# under every error policy (convert: all converted in turn; ask: continue
# stops at the first, each convert at the next; none in batch mode: the
# first terminates the program).  The faults come while an operation
# runs at the stop (send, from a command and from a handler of the event
# stopped at), or all at once from 40 threads; none is lost, no thread
# is left waiting at its fault, noosa never hangs.  And the race that
# found it: faults converted in 3 threads of tests/relate/rel while
# breakpoints stop them (a stress shape repeated by `make check-stress`).
. "$srcdir/tests/errors/lib.sh"

REL=$top_builddir/tests/relate/rel

# ended NAME STATUS: run NAME returned with exit status STATUS (124: it
# hung, and timeout ended it), noosa's standard error empty.
ended() {
    rc=$(cat "$WORK/$1.rc")
    if [ -s "$WORK/$1.err" ]; then
        echo "FAIL: $1: noosa's standard error:"
        head -20 "$WORK/$1.err"
        failures=$((failures + 1))
    fi
    if [ "$rc" = 124 ]; then
        echo "FAIL: $1: noosa hung (ended by timeout after 60 s); its last lines:"
        tail -5 "$WORK/$1.out"
        failures=$((failures + 1))
        return 1
    fi
    if [ "$rc" != "$2" ]; then
        echo "FAIL: $1: exit status $rc, expected $2"
        failures=$((failures + 1))
        return 1
    fi
    return 0
}

# lines NAME N ERE: N lines of run NAME's transcript match ERE.
lines() {
    got=$(grep -Ec -- "$3" "$WORK/$1.out")
    if [ "$got" != "$2" ]; then
        echo "FAIL: $1: $got lines match \"$3\", expected $2"
        failures=$((failures + 1))
    fi
}

# told_at_stop NAME: no fault is told between a stop at a breakpoint and
# the next command (its output starts with "== ").
told_at_stop() {
    if awk '/^Stopped at breakpoint/ { s = 1; next }
            /^== / { s = 0 }
            s && /^Program received/ { bad = 1 }
            END { exit !bad }' "$WORK/$1.out"; then
        echo "FAIL: $1: a fault was told while the program was stopped at the breakpoint"
        failures=$((failures + 1))
    fi
}

# one_each NAME: each command after the stop at the breakpoint that left
# the program stopped ("== ...: stopped" after it) told exactly one
# fault, and the one that let it end none.
one_each() {
    if ! awk '/^== run/ { on = 1; next }
              on && /^Program received/ { n++ }
              on && /^== / { if (n != ($0 ~ /stopped$/)) bad = 1; n = 0 }
              END { exit bad }' "$WORK/$1.out"; then
        echo "FAIL: $1: a command told no fault or several (one stop at a time)"
        failures=$((failures + 1))
    fi
}

# converted NAME N PREFIX: run NAME told N faults, each converted (its
# line starts with PREFIX).
converted() {
    lines "$1" "$2" '^Program received SIGSEGV'
    lines "$1" "$2" "^$3: thread"
}

done_ok() {
    [ $failures = "$before" ] && echo "ok: $1"
}

# An operation run at the stop lets 3 threads fault, from a command:
# continue converts each in turn and the program ends.
before=$failures
batch send-convert "errors convert" 'break step if {$n == 1}' \
    "run send 3 try $(prog send-convert)" 'puts "== run: $n(status)"' \
    "send release" continue 'puts "== continue: $n(status)"'
if ended send-convert 0; then
    lines send-convert 1 '^release => 3$'
    converted send-convert 3 'Converted \(errors convert\)'
    lines send-convert 1 '^Program exited with status 0\.$'
    lines send-convert 1 '^== continue: dead$'
    told_at_stop send-convert
    grep -q '^meanwhile: 3 faulters joined$' "$WORK/send-convert.prog" ||
        { echo "FAIL: send-convert: the program did not join its threads"; failures=$((failures + 1)); }
fi
done_ok send-convert

# The same from a handler of the event that stops: the faults come in
# the very turn that stops at the breakpoint, which run still returns at.
before=$failures
batch send-handler "errors convert" \
    'handler add step h {if {$n == 1} {send release}}' \
    'break step if {$n == 1}' "run send 3 try $(prog send-handler)" \
    'puts "== run: $n(status) $ev(n)"' continue 'puts "== continue: $n(status)"'
if ended send-handler 0; then
    lines send-handler 1 '^== run: stopped 1$'
    converted send-handler 3 'Converted \(errors convert\)'
    lines send-handler 1 '^== continue: dead$'
    told_at_stop send-handler
fi
done_ok send-handler

# errors ask: continue stops at the first fault, each convert at the
# next; the last convert lets the program end.
before=$failures
batch send-ask "errors ask" 'break step if {$n == 1}' \
    "run send 3 try $(prog send-ask)" 'puts "== run: $n(status)"' \
    "send release" continue 'puts "== continue: $n(status)"' \
    convert 'puts "== convert: $n(status)"' \
    convert 'puts "== convert: $n(status)"' \
    convert 'puts "== convert: $n(status)"'
if ended send-ask 0; then
    converted send-ask 3 Converted
    lines send-ask 3 '^What now\?$'
    lines send-ask 1 '^== continue: stopped$'
    lines send-ask 2 '^== convert: stopped$'
    lines send-ask 1 '^== convert: dead$'
    told_at_stop send-ask
    one_each send-ask
    # three different threads
    n=$(sed -n 's/^Program received SIGSEGV .* in thread \([0-9]*\)\.$/\1/p' \
        "$WORK/send-ask.out" | sort -u | wc -l)
    [ "$n" = 3 ] || { echo "FAIL: send-ask: $n threads faulted, expected 3"; failures=$((failures + 1)); }
fi
done_ok send-ask

# No policy (batch mode): continue stops at the first fault, which
# terminates the program; nothing is left of it.
before=$failures
batch send-none 'break step if {$n == 1}' "run send 3 try $(prog send-none)" \
    'puts "== run: $n(status)"' "send release" continue \
    'puts "== continue: $n(status)"'
if ended send-none 1; then
    lines send-none 1 '^Program received SIGSEGV'
    lines send-none 1 '^Terminating the program: batch mode has no error policy'
    lines send-none 1 '^Program killed by SIGKILL\.$'
    told_at_stop send-none
fi
done_ok send-none

# 40 threads fault at once while the program is stopped at the event,
# and 40 while the operation runs there: none is lost.
for mode in meanwhile send; do
    before=$failures
    batch many-$mode "errors convert" 'break step if {$n == 1}' \
        "run $mode 40 try $(prog many-$mode)" 'puts "== run: $n(status)"' \
        "if {{$mode} eq {send}} {send release}" continue \
        'puts "== continue: $n(status)"'
    if ended many-$mode 0; then
        converted many-$mode 40 'Converted \(errors convert\)'
        lines many-$mode 1 '^== continue: dead$'
        told_at_stop many-$mode
        grep -q '^meanwhile: 40 faulters joined$' "$WORK/many-$mode.prog" ||
            { echo "FAIL: many-$mode: the program did not join its threads"; failures=$((failures + 1)); }
    fi
    done_ok many-$mode
done

# A child's 3 threads fault once their parent waits at its event (they
# look at its thread's state): the parent's stop is the run's, told
# before any fault, although the faults' wait statuses may come before
# noosa has read the parent's record (once in about 20 runs on one CPU,
# before each fault took the other processes' records first).  Then
# continue converts the three in turn.
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
for k in $(seq 1 40); do
    name=forked-$k
    before=$failures
    $pin timeout 60 "$NOOSA" -b -n -e 'errors convert' \
        -e 'break step if {$n == 1}' -e run -e 'puts "== run: $n(status)"' \
        -e continue -e 'puts "== continue: $n(status)"' \
        "$ET" forked 3 try >"$WORK/$name.out" 2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
    if ended $name 0; then
        first=$(grep -m1 -E '^(Program received|Stopped at breakpoint)' \
            "$WORK/$name.out")
        case $first in
        "Stopped at breakpoint 1 "*) ;;
        *)
            echo "FAIL: $name: a fault of the child was told before its parent's stop: $first"
            failures=$((failures + 1))
            ;;
        esac
        lines $name 1 '^== run: stopped$'
        converted $name 3 'Converted \(errors convert\)'
        lines $name 1 '^forked: the child exited with status 0$'
        told_at_stop $name
    fi
    [ $failures = "$before" ] || break
    rm -f "$WORK/$name".*
done
done_ok forked

# The race: 3 threads fault in recovery points (4 times each) while
# breakpoints stop them (5 times each); every stop is told alone and
# every fault converted.  (It hung almost every time.)
for seed in 1 2; do
    name=rel-$seed
    before=$failures
    timeout 60 "$NOOSA" -b -n -e 'errors convert' -e 'set stops 0' \
        -e 'break done if {$id % 6 == 0}' -e run \
        -e 'while {$n(status) eq "stopped"} {incr stops; puts "== go on"; cont}' \
        -e 'puts "== stops $stops"' "$REL" walk 30 "$seed" 3 try \
        >"$WORK/$name.out" 2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
    if ended $name 0; then
        lines $name 1 '^== stops 15$'
        converted $name 12 'Converted \(errors convert\)'
        lines $name 1 '^rel: 3 threads of 30 requests$'
        lines $name 1 '^Program exited with status 0\.$'
        told_at_stop $name
    fi
    done_ok $name
done

finish
