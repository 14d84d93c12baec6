# SPDX-License-Identifier: MIT
#
# db.tcl - the .db files dapto writes are Tcl that Noosa sources: check
# that sourcing them gives back every name and documentation string
# exactly, whatever characters they hold, and that nothing in them is
# substituted or run.

package require tcltest 2
namespace import ::tcltest::*

set dapto [file join $env(abs_top_builddir) src dapto dapto]
set specs [file join $env(abs_top_srcdir) tests dapto spec]
set expected [file join $env(abs_top_srcdir) tests dapto expected]
set work [file join $env(abs_top_builddir) tests dapto work db]
file delete -force $work
file mkdir $work

# Source FILE in a fresh interpreter, as Noosa does, with a variable x and
# a command exec that a broken quoting would pick up.  Returns the array
# n as a dict, plus the key pwned when something was substituted or run.
proc load_db {file} {
    set i [interp create]
    try {
        $i eval {
            set x SUBSTITUTED
            proc exec {args} { set ::pwned 1 }
        }
        $i eval [list source $file]
        set r [$i eval {array get n}]
        if {[$i eval {info exists pwned}]} {
            lappend r pwned 1
        }
        return $r
    } finally {
        interp delete $i
    }
}

# Compile a specification from tests/dapto/spec into the work directory.
proc compile {name} {
    file copy -force [file join $::specs $name.dapto] $::work
    exec $::dapto [file join $::work $name.dapto]
    return [file join $::work ${name}_dapto.db]
}

set docs [load_db [compile docs]]

test db-1.1 {aspects are listed} -body {
    dict get $docs aspects
} -result docs

test db-1.2 {nothing in a documentation string is substituted or run} -body {
    dict exists $docs pwned
} -result 0

test db-1.3 {Tcl's special characters come back exactly} -body {
    lindex [dict get $docs events] 0 1
} -result {Dollar $x and [set pwned 1] brackets}

test db-1.4 {unbalanced braces in a parameter's documentation} -body {
    lindex [dict get $docs events] 0 2 1
} -result "Braces \{ unbalanced \} \} and \{"

test db-1.5 {backslashes and quotes, a trailing backslash} -body {
    lindex [dict get $docs events] 0 2 3
} -result "Backslash \\ quote \" and a trailing backslash \\"

test db-1.6 {control characters and C escapes} -body {
    lindex [dict get $docs events] 1 1
} -result "Newline\nand\ttab and bell\a and CR\r and octal AB and hex C"

test db-1.7 {would-be trigraphs and comment delimiters are plain text} -body {
    list [lindex [dict get $docs events] 1 2 1] [lindex [dict get $docs events] 1 2 3]
} -result {{Trigraphs ??= ??/ ??' and ???} {Comment */ close and /* open}}

test db-1.8 {UTF-8 text} -body {
    lindex [dict get $docs events] 1 2 5
} -result "UTF-8: caf\u00e9 \u2615 and Gr\u00fc\u00dfe"

test db-1.9 {an empty documentation string} -body {
    lindex [dict get $docs events] 1 2 7
} -result {}

test db-1.10 {parameter names that are Tcl commands} -body {
    list [lindex [dict get $docs events] 0 0] [lindex [dict get $docs events] 0 2 0] \
        [lindex [dict get $docs events] 0 2 2]
} -result {list set puts}

test db-1.11 {operations: documentation, parameters, result type} -body {
    set op [lindex [dict get $docs operations] 0]
    list [lindex $op 0] [lindex $op 1] [lindex $op 2 1] [lindex $op 3]
} -result [list brace_result "A doc that ends in a backslash\\" "\{\[\$\]\}" str]

test db-1.12 {events not marked with * are not visible} -body {
    list [lindex [dict get $docs events] 0 3] [lindex [dict get $docs events] 1 3]
} -result {0 0}

test db-2.1 {the string table's database, as Noosa expects it} -body {
    set db [load_db [compile csm]]
    set events [lmap e [dict get $db events] {
        list [lindex $e 0] [lindex $e 1] [list {*}[lindex $e 2]] [lindex $e 3]
    }]
    list [dict get $db aspects] $events
} -result {string {{string_stored {Storage of a new string in the string table} {index {Index of new string} string {New string}} 1}}}

test db-2.2 {operations with and without a result type} -body {
    set db [load_db [compile csm]]
    lmap op [dict get $db operations] {list [lindex $op 0] [lindex $op 3]}
} -result {{get_string str} {set_string {}}}

test db-2.3 {several aspects in order} -body {
    dict get [load_db [compile headers]] aspects
} -result {first only_headers second}

test db-2.4 {an aspect and an event, an aspect and an operation, called alike} -body {
    set db [load_db [compile tree]]
    list [dict get $db aspects] [lmap e [dict get $db events] {lindex $e 0}] \
        [lmap op [dict get $db operations] {lindex $op 0}]
} -result {{tree eval} {tree attribute} {size eval}}

# Every expected .db file (each also checked byte for byte by golden.sh)
# sources cleanly and has well-formed entries.
foreach file [lsort [glob -directory $expected *_dapto.db]] {
    test db-3.[file tail $file] "[file tail $file] is well formed" -body {
        set db [load_db $file]
        set problems {}
        if {[dict exists $db pwned]} {
            lappend problems "substitution"
        }
        foreach key {events operations} {
            if {![dict exists $db $key]} {
                continue
            }
            foreach entry [dict get $db $key] {
                if {[llength $entry] != 4 || [llength [lindex $entry 2]] % 2 != 0} {
                    lappend problems "malformed $key entry: $entry"
                }
                if {$key eq "events" && [lindex $entry 3] ni {0 1}} {
                    lappend problems "visible flag: $entry"
                }
                if {![regexp {^[A-Za-z_][A-Za-z0-9_]*$} [lindex $entry 0]]} {
                    lappend problems "name: $entry"
                }
            }
        }
        if {[llength [dict get $db aspects]] == 0} {
            lappend problems "no aspect"
        }
        set problems
    } -result {}
}

set failed $::tcltest::numTests(Failed)
cleanupTests
exit [expr {$failed > 0}]
