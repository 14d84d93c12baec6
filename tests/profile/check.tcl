# SPDX-License-Identifier: MIT
# check.tcl - assertions for the profile tests, sourced into noosa with -x:
# each failed check prints a line starting with FAIL, which the shell
# scripts look for.

proc check {cond msg} {
    if {![uplevel 1 [list expr $cond]]} {
        puts "FAIL: $msg"
    }
}

# The rows of `profile get ...` as a dict NAME -> row (time, flat).
proc rows_by_name {args} {
    set d [dict create]
    foreach row [profile get time {*}$args] {
        dict set d [dict get $row name] $row
    }
    return $d
}

# Field KEY of the row of NAME; 0 when there is no such row.
proc field {rows name key} {
    if {![dict exists $rows $name]} {
        return 0
    }
    return [dict get $rows $name $key]
}
