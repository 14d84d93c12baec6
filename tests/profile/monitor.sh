#!/bin/sh
# SPDX-License-Identifier: MIT
# monitor.sh - the monitor coordinator: Tcl monitors get only the events
# they asked for; the program emits only what an enabled monitor wants
# (an event no monitor wants stays off in the program, and a disabled
# monitor's events are turned off at the source unless another wants
# them); disable/enable notices; artificial events between monitors (not
# to the sender, not to disabled monitors, loops stopped); monitor files
# loaded at start-up, off; listings; slow motion; bad uses.

. "${srcdir:-.}/tests/profile/lib.sh"

cat >ticks.tcl <<'TCL'
n_monitor ticker -description "counts ticks, posts ping" -on tick {
    variable count
    incr count
    n_post ping $count
} -notice {
    n_say "ticker: $n_notice\n"
}
n_monitor others -on other {
    variable count
    incr count
} -post ping {
    variable pings
    lappend pings [lindex $n_args 0]
}
n_monitor listener -post ping {
    # kept, not said: the program's own output must not race with it
    variable heard
    lappend heard "listener: $n_ename $n_args from '$n_from'"
}
proc heard {} {
    foreach line $::noosa::monitor::listener::heard {
        puts $line
    }
    set ::noosa::monitor::listener::heard {}
}
namespace eval ::noosa::monitor::ticker { variable count 0 }
namespace eval ::noosa::monitor::others { variable count 0; variable pings {} }
namespace eval ::noosa::monitor::listener { variable heard {} }
TCL

# each monitor gets its own events; the program emits only those
batch fanout -x ticks.tcl -e 'monitor disable others' \
    -e 'monitor disable listener' -e run \
    -e 'puts "ticker $::noosa::monitor::ticker::count others $::noosa::monitor::others::count"' \
    -e 'monitor enable others' -e 'monitor disable ticker' -e run \
    -e 'puts "ticker $::noosa::monitor::ticker::count others $::noosa::monitor::others::count"' \
    -e 'monitor disable others' -e run \
    -e 'monitor enable ticker' -e 'monitor enable others' \
    -e 'monitor enable listener' -e run \
    -e 'puts "ticker $::noosa::monitor::ticker::count others $::noosa::monitor::others::count pings $::noosa::monitor::others::pings"' \
    -e heard -e 'monitor post ping from-the-user' -e 'puts [n_post ping x]' \
    -e heard "$PT" states 2
expect fanout

# two monitors want tick: disabling one keeps it on in the program
cat >two.tcl <<'TCL'
n_monitor one -on tick { }
n_monitor two -on tick { }
TCL
batch two -x two.tcl -e 'monitor disable one' -e run "$PT" states 1
contains two "states tick=2 other=0 quiet=0 enter=0 leave=0"

# a monitor that errs is reported and the others go on; loops of posts
cat >loops.tcl <<'TCL'
n_monitor bad -on tick { error "no good" }
n_monitor ping -post a { n_post b }
n_monitor pong -post b { n_post a }
n_monitor counter -on tick { variable count; incr count }
namespace eval ::noosa::monitor::counter { variable count 0 }
TCL
batch loops -x loops.tcl -e 'run states 2 >prog.out' \
    -e 'puts "counter $::noosa::monitor::counter::count"' \
    -e 'n_post a' "$PT"
expect loops
grep -q "states tick=2 other=0 quiet=0 enter=0 leave=0" prog.out ||
    fail "loops: the monitors that err do not keep tick on"

# a monitor that calls n_break stops the program at the event, the stop
# naming the monitor; a second one that also breaks there does not rename
# it
cat >breaker.tcl <<'TCL'
n_monitor breaker -on tick { if {$n == 2} n_break }
n_monitor second -on tick { if {$n == 2} n_break }
TCL
batch breaker -x breaker.tcl -e run -e 'puts "where: $n(where)"' \
    -e continue "$PT" states 3
contains breaker 'Stopped at monitor "breaker" for event "tick": n=2'
contains breaker 'where: monitor "breaker" for event "tick"'
contains breaker "Program exited with status 0."
lacks breaker 'n=1'

# monitor files at start-up: the library's and the user's, off; -n skips
# the user's
mkdir -p "$HOME/.noosa/monitors" "$XDG_CONFIG_HOME/noosa/monitors"
cat >"$HOME/.noosa/monitors/mine.tcl" <<'TCL'
n_monitor mine -description "from ~/.noosa/monitors" -on tick { }
TCL
cat >"$XDG_CONFIG_HOME/noosa/monitors/xdg.tcl" <<'TCL'
n_monitor xdg -description "from the XDG directory" -on other { }
n_monitor eager -enabled 1 -on quiet { }
TCL
timeout 60 "$NOOSA" --batch -e 'monitor names' -e 'monitor list' -e run \
    "$PT" states 1 >startup.out 2>startup.err </dev/null
echo $? >startup.rc
expect startup
batch nouser -e 'monitor names' "$PT" states 1
contains nouser "frequency-profile time-profile trace depth eventcount postlog"
lacks nouser "mine"

# the shipped monitors work together
batch shipped -e 'monitor enable eventcount' -e 'monitor enable depth' \
    -e 'monitor enable postlog' -e run -e 'monitor post report' \
    -e 'monitor disable eventcount' -e 'monitor list' "$PT" nest 2
# the thread in depth-record's arguments
sed 's/\(depth-record by depth: [0-9]*\) [0-9]* /\1 TID /' shipped.out >shipped.tmp &&
    mv shipped.tmp shipped.out
expect shipped

# slow motion: visible events stop the program, 50 a second at most
cat >speed.tcl <<'TCL'
n_monitor times -on tick {
    variable t
    lappend t $n_time
} -on other {
    variable t
    lappend t $n_time
}
namespace eval ::noosa::monitor::times { variable t {} }
speed 50
run
set t $::noosa::monitor::times::t
set span [expr {[lindex $t end] - [lindex $t 0]}]
# 6 events: at least 4 gaps of 20 ms between the first and the last
if {$span < 4 * 20000000} {
    puts "FAIL: 6 events in $span ns at 50 a second"
}
puts "speed [speed]"
speed 0
run
TCL
batch speed -x speed.tcl "$PT" states 3
contains speed "states tick=6 other=6 quiet=0 enter=0 leave=0"
contains speed "speed 50.0"
contains speed "states tick=2 other=2 quiet=0 enter=0 leave=0"
lacks speed "FAIL"

# bad uses
cat >broken.tcl <<'TCL'
n_monitor fine -on tick { }

n_monitor broken -on
TCL
batch bad -e 'n_monitor' -e 'n_monitor {a b}' -e 'n_monitor trace' \
    -e 'n_monitor x -on tick' -e 'n_monitor x -on {} {}' \
    -e 'n_monitor x -colour red' -e 'n_monitor x -enabled maybe' \
    -e 'n_monitor x -description' \
    -e 'monitor' -e 'monitor fly' -e 'monitor enable nosuch' \
    -e 'monitor remove trace' -e 'monitor load nosuch.tcl' \
    -e 'monitor load broken.tcl' -e 'monitor list -some' \
    -e 'monitor enable' -e 'n_post' -e 'n_post {}' -e 'speed fast' \
    -e 'speed -1' -e 'speed 99999999999999999999999' -e 'speed 1e6' \
    -e 'speed 1000001' -e 'speed 1 2' -e 'speed' -e 'speed 0' \
    -e 'monitor names' \
    -e 'monitor remove fine' -e 'monitor names' "$PT" states 1
expect bad

finish
