# SPDX-License-Identifier: MIT
#
# depth.tcl - a monitor of component depth: it follows enter and leave
# (and so the functions of auto-instrumented programs) in each thread, and
# whenever a thread reaches a depth no thread had reached before, it posts
# the artificial event "depth-record" with the depth, the thread and the
# component entered, for other monitors (see postlog.tcl).
#
#     monitor enable depth

n_monitor depth -description "posts depth-record at each new deepest stack" \
    -on enter {
        variable depth
        variable deepest
        if {![info exists depth($n_thread)]} {
            set depth($n_thread) 0
        }
        if {[incr depth($n_thread)] > $deepest} {
            set deepest $depth($n_thread)
            n_post depth-record $deepest $n_thread $name
        }
    } -on leave {
        variable depth
        if {[info exists depth($n_thread)] && $depth($n_thread) > 0} {
            incr depth($n_thread) -1
        }
    } -on init {
        variable depth
        variable deepest 0
        array unset depth
    } -notice {
        # the stacks it followed are stale once it has been off
        variable depth
        array unset depth
    }

namespace eval ::noosa::monitor::depth {
    variable deepest 0
    variable depth
    array set depth {}
}
