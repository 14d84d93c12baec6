#!/bin/sh
# SPDX-License-Identifier: MIT
# defaults.sh - what a program pays for noosa's defaults, by what the
# program says it did (its region's counts, `info program`), never by
# timing: asked nothing, every event goes to its thread's own trail
# <protocol#ttrail> (no record, no shared trail); a handler's events are
# records besides; a -finstrument-functions build's calls are not kept
# unless `errors functions on` asks; `errors last 0` keeps nothing; the
# frequency profile counts events in the program, not from records.
. "$srcdir/tests/load/lib.sh"
PTI=$abs_top_builddir/tests/profile/pt-instr

kept() { # kept NAME: the events kept in threads' own trails, and in the shared one
    sed -n 's/^Kept by the program for the last events: \([0-9]*\) in \([0-9]*\) thread.* own trails*, \([0-9]*\) in the shared trail$/\1 \2 \3/p' \
        "$WORK/$1.out"
}
sent() { # sent NAME: bytes of records written for noosa
    sed -n 's/^Records written for noosa: \([0-9]*\) bytes$/\1/p' "$WORK/$1.out"
}
no_records() { # no_records NAME WHAT: no more than the runtime's own records
    # (hello, the interfaces: a few hundred bytes) were written for noosa
    s=$(sent "$1")
    if [ -n "$s" ] && [ "$s" -lt 2000 ]; then
        echo "ok: $1: $s bytes of records"
    else
        fail "$1: ${s:-no} bytes of records written for noosa for $2 (at most 2000 expected)"
    fi
}
expect() { # expect NAME WHAT GOT WANT
    if [ "$3" = "$4" ]; then
        echo "ok: $1: $2 $3"
    else
        fail "$1: $2 ${3:-none}, expected $4"
        show "$1"
    fi
}

# asked nothing: 100000 ticks, and init, exit, finit, kept; no record
# but the runtime's own (hello, the interfaces: a few hundred bytes)
batch nothing -e run -e 'info program' "$LT" loop 100000 x
status nothing 0
expect nothing "kept (own, threads, shared):" "$(kept nothing)" "100003 1 0"
no_records nothing "100000 ticks"

# a handler: its events are records too, and still kept (the trail has
# them in its thread's order)
batch handler -e 'handler add tick h {}' -e run -e 'info program' "$LT" loop 1000 x
status handler 0
expect handler "kept (own, threads, shared):" "$(kept handler)" "1003 1 0"
s=$(sent handler)
if [ -n "$s" ] && [ "$s" -ge 40000 ]; then
    echo "ok: handler: $s bytes of records"
else
    fail "handler: ${s:-no} bytes of records written for noosa (1000 records expected)"
fi

# the frequency profile: every event counted in the program's call tree,
# under its thread's path <protocol#cct>; no record crosses for them
batch freq -e 'profile freq on' -e 'profile print off' -e run -e 'info program' \
    -e profile -e 'foreach r [profile get freq] {puts $r}' "$LT" loop 100000 x
status freq 0
has freq '^event tick stack \{\(top level\)\} count 100000$'
has freq '^frequency profile kept: in the program \(calls and events counted in its call trees\)$'
no_records freq "100000 events counted"

# and with a handler's records and a stop besides: each event counted once
batch freq-mixed -e 'profile freq on' -e 'profile print off' -e 'set c 0' \
    -e 'handler add tick h {incr ::c}' -e 'break tick if {$i == 500}' -e run -e cont \
    -e 'puts "handled $c"' -e 'foreach r [profile get freq] {puts $r}' "$LT" loop 1000 x
has freq-mixed '^handled 1000$'
has freq-mixed '^event tick stack \{\(top level\)\} count 1000$'

# a condition that is never true, a question's count and one of a key
# with a histogram (the key the string parameter): each answered in the
# program with noosa's defaults, every tick kept in its thread's trail,
# and no record crosses for the ticks, their string included
for way in condition count keyed; do
    case $way in
    condition) set -- -e 'break tick if {$i < 0}' -e run ;;
    count) set -- -e 'question print off' -e 'question add q tick' -e run \
               -e 'puts "counted [dict get [lindex [question get q] 0] count]"' ;;
    keyed) set -- -e 'question print off' -e 'question add q tick i -by label -hist' -e run \
               -e 'set c 0; foreach d [question get q] {incr c [dict get $d count]}; puts "counted $c"' ;;
    esac
    batch "$way" "$@" -e 'info program' "$LT" loop 100000 x
    status "$way" 0
    expect "$way" "kept (own, threads, shared):" "$(kept "$way")" "100003 1 0"
    [ "$way" = condition ] || has "$way" '^counted 100000$'
    no_records "$way" "100000 ticks"
done
# and the condition decided by the encoder itself, without a call into
# the runtime, from the second or third tick on <protocol#quick>, with
# the condition's counts exact
d=$(sed -n 's/^loop: \([0-9]*\) decided by quick clauses$/\1/p' "$WORK/condition.out")
if [ -n "$d" ] && [ "$d" -ge 99990 ] && [ "$d" -le 100000 ]; then
    echo "ok: condition: $d ticks decided by the quick clause"
else
    fail "condition: ${d:-no} ticks decided by the quick clause (99990 to 100000 expected)"
fi
batch quick-counts -e 'break tick if {$i < 0}' -e run -e 'info breakpoints' "$LT" loop 100000 x
has quick-counts '^ +condition runs in the program: 100000 checked, 0 passed$'
has quick-counts '^loop: 999[0-9][0-9] decided by quick clauses$'

# errors last 0: nothing kept
batch none -e 'errors last 0' -e run -e 'info program' "$LT" loop 1000 x
expect none "kept (own, threads, shared):" "$(kept none)" "0 0 0"

# a program built with -finstrument-functions: its calls are not kept
# (every call would pay), its events are; with errors functions on, its
# calls too (main and nest: 2 entries, 2 exits)
batch functions-off -e run -e 'info program' "$PTI" nest 3
batch functions-on -e 'errors functions on' -e run -e 'info program' "$PTI" nest 3
off=$(kept functions-off | cut -d' ' -f1)
on=$(kept functions-on | cut -d' ' -f1)
if [ -n "$off" ] && [ -n "$on" ] && [ "$on" -eq $((off + 4)) ]; then
    echo "ok: functions: $off kept, $on with errors functions on"
else
    fail "functions: ${off:-none} kept, ${on:-none} with errors functions on (4 more expected)"
    show functions-off
    show functions-on
fi

# and the report of an error shows them by name, among the events
batch crash-on -e 'errors functions on' -e 'errors last 6' -e 'run crash 2' "$PTI"
has crash-on '^  leave function nest \(thread [0-9]+\)$'
has crash-on '^  enter name="crash" \(thread [0-9]+\)$'
batch crash-off -e 'errors last 6' -e 'run crash 2' "$PTI"
if grep -q ' function ' "$WORK/crash-off.out"; then
    fail "crash-off: functions among the last events, not asked for"
fi

finish
