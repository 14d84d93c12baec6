#!/bin/sh
# SPDX-License-Identifier: MIT
# freq.sh - the frequency profile: Noosa's format (per event, a line per
# component stack, a total when there is more than one line, the total of
# all), the flat view, sorting, one event, the calls, limits, `profile
# get`, reset, off and on, printing at the end, the events it asks the
# program for, a profile never turned on, and bad arguments.

. "${srcdir:-.}/tests/profile/lib.sh"

# calc's demo: the stacks are calc's components
batch calc-demo -e 'profile freq on' -e run \
    -e 'profile show freq -flat -sort name' \
    -e 'profile show freq -event token' \
    -e 'profile show freq -calls -limit 2' \
    "$CALC" "$EXAMPLES/demo.calc"
expect calc-demo

# pt nest 3: main{a{tick b{tick other}} c{other}} three times
batch nest -e 'profile freq on' -e 'profile print off' -e run \
    -e 'profile show freq' -e 'profile freq show -flat' \
    -e 'profile show freq -sort name -limit 1' \
    -e 'puts [profile get freq -event tick]' \
    -e 'puts [profile get freq -flat -calls]' \
    -e 'profile freq reset' -e 'profile show freq' \
    -e run -e 'profile freq off' -e run -e 'profile show freq -flat' \
    -e 'profile' \
    "$PT" nest 3
expect nest

# what the profile asks the program for: by default, the visible events
# counted in the program's call trees, under their threads' paths, and
# enter and leave counted there (PROFILE 16 alone), no record of any;
# kept in noosa, the records of the visible events, and of enter and
# leave for the stacks; never the invisible event quiet
batch states -e 'profile freq on' -e 'profile print off' -e run \
    "$PT" states 2
contains states "states tick=16 other=16 quiet=0 enter=16 leave=16"
batch states-noosa -e 'profile freq on' -e 'profile freq in noosa' \
    -e 'profile print off' -e run "$PT" states 2
contains states-noosa "states tick=2 other=2 quiet=0 enter=2 leave=2"
batch states-off -e 'profile freq on' -e 'profile freq off' -e run \
    "$PT" states 2
contains states-off "states tick=0 other=0 quiet=0 enter=0 leave=0"

# a profile never turned on says so rather than "no events counted"
batch never -e run -e 'profile show freq' -e 'profile show time' "$PT" nest 1
contains never "The frequency profile is off (profile freq on turns it on)."
contains never "The time profile is off (profile time on turns it on)."

# bad arguments
batch bad -e 'profile show freq -sort self' -e 'profile show freq -event' \
    -e 'profile show freq -event nosuch' -e 'profile show freq -thread 1' \
    -e 'profile bogus' -e 'profile freq sideways' -e 'profile show' \
    -e 'profile show freq -limit x' -e 'profile show freq -colour' \
    -e 'profile show freq -sort up' -e 'profile show memory' \
    "$PT" nest 1
expect bad

finish
