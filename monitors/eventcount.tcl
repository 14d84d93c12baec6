# SPDX-License-Identifier: MIT
#
# eventcount.tcl - a monitor that counts every event of the program by
# name, and prints the counts when the program finishes, when it is
# disabled, and when another monitor (or the user: monitor post report)
# posts the artificial event "report".
#
#     monitor enable eventcount

n_monitor eventcount -description "counts every event by name" \
    -on * {
        variable counts
        incr counts($n_ename)
    } -on finit {
        ::noosa::monitor::eventcount::report
    } -post report {
        ::noosa::monitor::eventcount::report
    } -notice {
        if {$n_notice eq "disable"} {
            ::noosa::monitor::eventcount::report
        }
    }

namespace eval ::noosa::monitor::eventcount {
    variable counts
    array set counts {}

    proc report {} {
        variable counts
        set total 0
        n_say "Event counts:\n"
        foreach name [lsort [array names counts]] {
            n_say [format "%10d %s\n" $counts($name) $name]
            incr total $counts($name)
        }
        n_say [format "%10d in all\n" $total]
    }
}
