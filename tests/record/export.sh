#!/bin/sh
# SPDX-License-Identifier: MIT
# export.sh - exports of a recording: Chrome trace JSON (valid, B and E
# balanced per thread and in time order, instants with their values) and
# Perfetto protobuf, decoded by protoc against perfetto.proto (a track per
# thread, names interned once, slices and instants).  The protobuf part is
# skipped without protoc.

. "${srcdir:-.}/tests/record/lib.sh"

record nest "$PT" threads 2 3
"$NOOSA" dump --chrome=nest.json nest >chrome.said 2>chrome.err || fail "chrome export: $(cat chrome.err)"
grep -qE '^Wrote [0-9]+ events to nest\.json \(Chrome trace JSON\)\.$' chrome.said ||
    fail "noosa dump --chrome does not say what it wrote: $(cat chrome.said)"
"$TCLSH" <<'TCL' >chrome.check 2>&1 || fail "chrome: $(cat chrome.check)"
set f [open nest.json]
set text [read $f]
close $f
# no JSON parser in Tcl's core: check the shape line by line
set lines [split [string trim $text] \n]
if {[lindex $lines 0] ne "\{\"traceEvents\":\["} { error "first line: [lindex $lines 0]" }
if {![string match {*displayTimeUnit*} [lindex $lines end]]} { error "last line" }
array set depth {}
set n 0
foreach l [lrange $lines 1 end-1] {
    if {![regexp {^,?\{"name":"([^"]*)","ph":"(.)","ts":([0-9.]+),"pid":([0-9]+),"tid":([0-9]+)(.*)\}$} $l -> name ph ts pid tid rest]} {
        error "line: $l"
    }
    if {![info exists depth($tid)]} { set depth($tid) 0 }
    switch $ph {
        B { incr depth($tid) }
        E { incr depth($tid) -1; if {$depth($tid) < 0} { error "E before B: $l" } }
        i { if {$name eq "tick" && ![regexp {"args":\{"n":[0-2]\}} $rest]} { error "args: $l" } }
    }
    incr n
}
foreach t [array names depth] { if {$depth($t) != 0} { error "thread $t: unbalanced" } }
puts "$n events"
TCL
has chrome.check "events"

command -v protoc >/dev/null 2>&1 || {
    echo "SKIP: protoc is not installed (Debian package protobuf-compiler)"
    finish
}
"$NOOSA" dump --perfetto=nest.pb nest 2>pb.err || fail "perfetto export: $(cat pb.err)"
protoc --proto_path="$TESTS_SRC" --decode=Trace perfetto.proto <nest.pb \
    >nest.txt 2>nest.txt-err || fail "protoc --decode: $(cat nest.txt-err)"
# the process and each thread (main and 2 workers) have a track
[ "$(count nest.txt '^  track_descriptor \{')" = 4 ] || fail "4 track descriptors"
[ "$(count nest.txt 'thread_name: "thread ')" = 3 ] || fail "3 thread tracks"
# slices: enter/leave of worker and step, 2 x (1 + 3)
[ "$(count nest.txt 'type: TYPE_SLICE_BEGIN')" = 8 ] || fail "8 slice begins"
[ "$(count nest.txt 'type: TYPE_SLICE_END')" = 8 ] || fail "8 slice ends"
[ "$(count nest.txt 'type: TYPE_INSTANT')" = 9 ] || fail "9 instants (init, 6 ticks, exit, finit)"
# names interned once each
for name in worker step tick init; do
    [ "$(count nest.txt "name: \"$name\"")" = 1 ] || fail "$name interned once"
done
[ "$(count nest.txt 'sequence_flags: 1')" = 1 ] || fail "one packet clears the state"
# every event names a track that was described
awk '/track_uuid:/ { used[$2] = 1 } /^    uuid:/ { have[$2] = 1 }
     END { for (u in used) if (!(u in have)) exit 1 }' nest.txt ||
    fail "an event on a track never described"

finish
