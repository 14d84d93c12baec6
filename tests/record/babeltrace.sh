#!/bin/sh
# SPDX-License-Identifier: MIT
# babeltrace.sh - a recording is a CTF trace that babeltrace2 reads as it
# is: the program's events by name with their fields, noosa's own classes
# (hello, aspects, interned names, functions), the env block, several
# packets a stream, several streams.  Skipped without babeltrace2.

. "${srcdir:-.}/tests/record/lib.sh"

command -v babeltrace2 >/dev/null 2>&1 || {
    echo "SKIP: babeltrace2 is not installed (Debian package babeltrace2)"
    exit 77
}

record nest "$PT" nest 3
babeltrace2 nest >nest.bt 2>nest.bt-err || fail "babeltrace2 failed: $(cat nest.bt-err)"
[ "$(count nest.bt ' tick: .*\{ n = [0-2] \}')" = 6 ] || fail "6 ticks with n"
[ "$(count nest.bt ' enter: .*\{ name_id = [0-9]+ \}')" = 10 ] || fail "10 enters"
has nest.bt 'noosa_intern: '
has nest.bt 'text = "main"'
has nest.bt 'noosa_hello: '
has nest.bt 'noosa_aspect: '
has nest.bt 'name = "pt"'
has nest.bt 'interface = "aspect pt; /* ./tests/profile/pt.dapto */\nevent tick*(int n);'
babeltrace2 --output-format=text --clock-seconds nest >/dev/null 2>&1 ||
    fail "babeltrace2 --clock-seconds"
# the env block
babeltrace2 --component=sink.text.details nest 2>/dev/null >nest.details
has nest.details 'noosa_format_major: 1'
has nest.details "program: $PT"
has nest.details 'args: nest 3'

# many packets, several threads
record many "$PT" threads 3 5000
babeltrace2 many >many.bt 2>many.bt-err || fail "babeltrace2 many: $(cat many.bt-err)"
[ "$(count many.bt ' tick: ')" = 15000 ] || fail "many: 15000 ticks"

# functions of -finstrument-functions
record q "$QUEENS" 4
babeltrace2 q >q.bt 2>&1 || fail "babeltrace2 q"
has q.bt 'name = "place"'
[ "$(count q.bt 'noosa_function_enter: ')" = "$(count q.bt 'noosa_function_leave: ')" ] ||
    fail "queens: enters and leaves"

finish
