# SPDX-License-Identifier: MIT
#
# api.tcl - unit tests of tcl/noosa.tcl, the Tcl half of noosa's Tcl
# layer, in a plain tclsh: n_hextodec and n_dectohex at their edges,
# n_say_val with and without n_TYPE_say, n_provided, ::noosa::needs_stop
# (which decides whether a handler makes its event stop the program),
# and the `info` subcommands it sets up.  n_say, which noosa implements
# in C, is a stub that collects what is said.

package require tcltest 2
namespace import ::tcltest::*

set said ""
proc n_say {args} {
    append ::said {*}$args
}
# What SCRIPT says through n_say.
proc said {script} {
    set ::said ""
    uplevel #0 $script
    return $::said
}
set n(aspects) {dapto tree}
# The command tables' entries, as noosa's ::noosa::commands gives them:
# info's subcommands, one of them a name Tcl's info has (frame), and a
# gdb word that only says what to use instead.
namespace eval ::noosa {}
proc ::noosa::commands {} {
    set out {}
    foreach {name kind} {
        {info events} subcommand {info breakpoints} subcommand
        {info program} subcommand {info frame} subcommand
        {info locals} instead info command
    } {
        lappend out [dict create name $name kind $kind]
    }
    return $out
}
source [file join $env(abs_top_srcdir) tcl noosa.tcl]

# --- n_hextodec ---------------------------------------------------------

test hextodec-1 {with and without 0x, either case} -body {
    list [n_hextodec 0x1f] [n_hextodec 1f] [n_hextodec 0X1F] [n_hextodec 1F]
} -result {31 31 31 31}

test hextodec-2 {zero} -body {
    list [n_hextodec 0] [n_hextodec 0x0] [n_hextodec 0x000]
} -result {0 0 0}

test hextodec-3 {pointers are unsigned: the top bit set stays positive} -body {
    list [n_hextodec 0xffffffffffffffff] [n_hextodec 8000000000000000]
} -result {18446744073709551615 9223372036854775808}

test hextodec-4 {wider than 64 bits} -body {
    n_hextodec 0x10000000000000000
} -result 18446744073709551616

test hextodec-5 {leading zeros are not octal} -body {
    n_hextodec 010
} -result 16

foreach {i bad} {1 {} 2 0x 3 xyz 4 -1 5 { 1f} 6 1f. 7 0x0x1 8 1g} {
    test hextodec-bad-$i "not hexadecimal: \"$bad\"" -body {
        n_hextodec $bad
    } -returnCodes error -result "n_hextodec: expected a hexadecimal number, got \"$bad\""
}

# --- n_dectohex ---------------------------------------------------------

test dectohex-1 {bare lower-case hex, no 0x} -body {
    list [n_dectohex 31] [n_dectohex 255] [n_dectohex 4096]
} -result {1f ff 1000}

test dectohex-2 {zero} -body {
    n_dectohex 0
} -result 0

test dectohex-3 {unsigned 64-bit pointers and wider} -body {
    list [n_dectohex 18446744073709551615] [n_dectohex 18446744073709551616]
} -result {ffffffffffffffff 10000000000000000}

test dectohex-4 {leading zeros are decimal, not octal} -body {
    list [n_dectohex 010] [n_dectohex 0009]
} -result {a 9}

test dectohex-5 {the round trip} -body {
    set r {}
    foreach v {0 1 9 10 255 140737488355328 18446744073709551615} {
        lappend r [expr {[n_hextodec 0x[n_dectohex $v]] == $v}]
    }
    set r
} -result {1 1 1 1 1 1 1}

foreach {i bad} {1 {} 2 -1 3 abc 4 1.5 5 0x10 6 { 5} 7 +5 8 1e3} {
    test dectohex-bad-$i "not a non-negative decimal integer: \"$bad\"" -body {
        n_dectohex $bad
    } -returnCodes error -result "n_dectohex: expected a non-negative decimal integer, got \"$bad\""
}

# --- n_say_val ----------------------------------------------------------

test say_val-1 {without n_TYPE_say: TYPE:0xHEX, as pointers are shown} -body {
    list [said {n_say_val Thing 42}] [said {n_say_val Thing 0}] \
        [said {n_say_val Thing 18446744073709551615}] [said {n_say_val Thing ?}]
} -result {Thing:0x2a Thing:0x0 Thing:0xffffffffffffffff Thing:?}

test say_val-2 {with n_TYPE_say: the browser prints it} -setup {
    proc n_Thing_say {v} { n_say "Thing:0x[n_dectohex $v]" }
} -body {
    said {n_say_val Thing 42}
} -cleanup {
    rename n_Thing_say {}
} -result {Thing:0x2a}

test say_val-3 {a browser's n_TYPE_say is called with the value only} -setup {
    proc n_Thing_say {args} { n_say "<[llength $args]:[lindex $args 0]>" }
} -body {
    said {n_say_val Thing {a b}}
} -cleanup {
    rename n_Thing_say {}
} -result {<1:a b>}

test say_val-4 {the value is data: not substituted} -body {
    said {n_say_val Thing {[exit 3] $x}}
} -result {Thing:[exit 3] $x}

test say_val-5 {an n_TYPE_open alone does not change how it is said} -setup {
    proc n_Thing_open {text v} {}
} -body {
    said {n_say_val Thing 7}
} -cleanup {
    rename n_Thing_open {}
} -result {Thing:0x7}

# --- n_provided ---------------------------------------------------------

test provided-1 {aspects in n(aspects)} -body {
    list [n_provided tree] [n_provided dapto] [n_provided parser] [n_provided tre]
} -result {1 1 0 0}

# --- ::noosa::needs_stop ------------------------------------------------

test needs_stop-1 {printing alone does not stop the program} -body {
    ::noosa::needs_stop {n_say "token $name\n"; incr ::count($name)}
} -result 0

test needs_stop-2 {an operation or a stop does} -body {
    list [::noosa::needs_stop {n_say [n_send get_string $idn]}] \
        [::noosa::needs_stop {if {$n > 3} n_break}] \
        [::noosa::needs_stop {send get_string 1}] \
        [::noosa::needs_stop {::n_send x}]
} -result {1 1 1 1}

test needs_stop-3 {whole words only} -body {
    list [::noosa::needs_stop {n_sendx 1}] [::noosa::needs_stop {my_n_break}] \
        [::noosa::needs_stop {set n_breaks 1}]
} -result {0 0 0}

test needs_stop-4 {followed through the procedures the code calls} -setup {
    proc brief {v} { return [n_send get_value $v] }
    proc show {v} { n_say [brief $v] }
    proc quiet {v} { n_say $v }
} -body {
    list [::noosa::needs_stop {show $v}] [::noosa::needs_stop {quiet $v}]
} -cleanup {
    rename brief {}
    rename show {}
    rename quiet {}
} -result {1 0}

test needs_stop-5 {procedures calling each other do not loop} -setup {
    proc ping {n} { if {$n > 0} { pong [expr {$n - 1}] } }
    proc pong {n} { if {$n > 0} { ping [expr {$n - 1}] } }
} -body {
    ::noosa::needs_stop {ping 3}
} -cleanup {
    rename ping {}
    rename pong {}
} -result 0

test needs_stop-6 {n_say_val TYPE is followed to the browser's n_TYPE_say} -setup {
    proc n_Thing_say {v} { n_say "Thing:0x[n_dectohex $v]" }
    proc n_Other_say {v} { n_say "Other:[n_send describe $v]" }
} -body {
    list [::noosa::needs_stop {n_say_val Thing $v}] \
        [::noosa::needs_stop {n_say "x "; n_say_val Other $v}] \
        [::noosa::needs_stop {n_say_val Missing $v}]
} -cleanup {
    rename n_Thing_say {}
    rename n_Other_say {}
} -result {0 1 0}

# --- names ------------------------------------------------------------------

# help and the commands' global names are the C tables' (src/tcl/command.h):
# tests/noosa/commands.sh runs them in noosa.

test names-3 {info gains noosa's subcommands and keeps Tcl's} -body {
    set map [namespace ensemble configure ::info -map]
    list [dict get $map events] [dict get $map breakpoints] [dict get $map program] \
        [info exists ::n(aspects)] [llength [info procs n_hextodec]] \
        [dict get $map frame] [dict exists $map locals] \
        [string equal [info locals] ""] $::noosa::info_subcommands
} -result {{::noosa::cmd::info events} {::noosa::cmd::info breakpoints} {::noosa::cmd::info program} 1 1 ::tcl::info::frame 1 1 {events breakpoints program}}

set failed $::tcltest::numTests(Failed)
cleanupTests
exit [expr {$failed > 0}]
