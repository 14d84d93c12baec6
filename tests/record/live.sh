#!/bin/sh
# SPDX-License-Identifier: MIT
# live.sh - the record command: a session's run recorded alongside
# everything else (the same events as noosa record, a handler still
# running), only the events named, exported live as Chrome JSON and as
# Perfetto protobuf (decoded by protoc when it is there); record status;
# bad uses.

. "${srcdir:-.}/tests/record/lib.sh"

b() {
    name=$1
    shift
    timeout 60 "$NOOSA" --batch -n "$@" </dev/null >"$name.out" 2>&1
    echo $? >"$name.rc"
}

# the whole run, with a handler
cat >all.tcl <<'TCL'
record start all
handler add tick h {n_say "handler $n\n"}
record status
run
record status
record stop
TCL
b all -x all.tcl "$PT" nest 3
has all.out "Recording every event to all (recording)."
has all.out "Recording to all (recording): 0 events so far."
has all.out "handler 2"
has all.out "Recorded 35 events to all (recording)."
record cli "$PT" nest 3
for r in all cli; do
    "$NOOSA" dump $r | sed -E 's/^[0-9]+ [0-9]+ thread=[0-9]+ //; s/pid=[0-9]+/pid=P/' |
        grep -v '^# recording' >$r.norm
done
diff -u cli.norm all.norm || fail "record start: not what noosa record records"

# some events, and -finstrument-functions
b some -e 'record start some {tick other}' -e run -e 'record stop' "$PT" nest 3
has some.out "Recording the events tick other to some (recording)."
"$NOOSA" dump some >some.dump
[ "$(count some.dump ' (tick|other) n=')" = 12 ] || fail "some: 12 events"
[ "$(count some.dump ' (enter|leave|init) ')" = 0 ] || fail "some: only those"
b q -e 'record start q' -e run -e 'record stop' "$QUEENS" 4
"$NOOSA" dump q >q.dump
has q.dump "function-enter function=place"

# live exports
b chrome -e 'record start -chrome t.json' -e run -e 'record stop' "$PT" threads 2 3
has chrome.out "(Chrome JSON)."
head -1 t.json | grep -qF '{"traceEvents":[' || fail "chrome: the start"
[ "$(grep -c '"ph":"B"' t.json)" = 8 ] || fail "chrome: 8 slice begins"
grep -q '"name":"tick","ph":"i"' t.json || fail "chrome: ticks as instants"
if command -v protoc >/dev/null 2>&1; then
    b pb -e 'record start -perfetto t.pb' -e run -e 'record stop' "$PT" threads 2 3
    has pb.out "(Perfetto protobuf)."
    protoc --proto_path="$TESTS_SRC" --decode=Trace perfetto.proto <t.pb \
        >t.txt 2>t.err || fail "protoc: $(cat t.err)"
    [ "$(count t.txt 'type: TYPE_SLICE_BEGIN')" = 8 ] || fail "perfetto: 8 slices"
    grep -q 'pid: [1-9]' t.txt || fail "perfetto: the process's pid"
fi

# bad uses
b bad -e 'record stop' -e 'record start all' -e 'record start x' \
    -e 'record start y' -e 'record frob' -e 'record stop' -e 'record start' "$PT" nest 1
has bad.out "error: record stop: nothing is being recorded"
has bad.out "error: record start: all: holds a recording already"
has bad.out "error: record start: already recording to x (record stop first)"
has bad.out 'error: record: unknown subcommand "frob": should be start, stop, dump or status'
has bad.out "error: record: usage: record start ?-chrome|-perfetto|-flight BYTES? PATH ?EVENTS?"

finish
