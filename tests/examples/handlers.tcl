# SPDX-License-Identifier: MIT
#
# handlers.tcl - examples/calc/calc.handlers is a valid Noosa handler
# file: one n_install_handler {EVENT INDEX NAME ENABLED {BODY}} per line,
# for events calc has (from its .db files) or the built-in ones, with
# bodies that use only their event's parameters; and each handler, run
# as noosa would (parameters bound as variables) against the canned
# program of stubs.tcl, prints and breaks as it should.

package require tcltest 2
namespace import ::tcltest::*

source [file join $env(abs_top_srcdir) tests examples stubs.tcl]
set file [file join $env(abs_top_srcdir) examples calc calc.handlers]

# The events: name -> parameter names, from calc's .db files and the
# built-in aspect dapto.
set params [dict create init pid finit {} exit {} stopped {locale error} \
                enter name leave name]
foreach db [glob -directory [file join $env(abs_top_builddir) examples calc] *_dapto.db] {
    set d [interp create]
    $d eval [list source $db]
    if {[$d eval {info exists n(events)}]} {
        foreach e [$d eval {set n(events)}] {
            set ps {}
            foreach {p doc} [lindex $e 2] {
                lappend ps $p
            }
            dict set params [lindex $e 0] $ps
        }
    }
    interp delete $d
}

# The handlers, as the file installs them: name -> {event index enabled body}.
set handlers [dict create]
set lines 0
set fd [open $file]
set text [read $fd]
close $fd
set loader [interp create -safe]
$loader eval {
    set installed {}
    proc n_install_handler {h} {
        lappend ::installed $h
    }
}
foreach line [split [string trimright $text \n] \n] {
    incr lines
    if {![regexp {^n_install_handler \{} $line] || ![info complete $line]} {
        puts "line $lines is not one n_install_handler command: $line"
        continue
    }
    $loader eval $line
}
foreach h [$loader eval {set installed}] {
    lassign $h event index name enabled body
    dict set handlers $name [list $event $index $enabled $body [llength $h]]
}
interp delete $loader

test file-1 {one handler per line, each of five fields} -body {
    set r {}
    dict for {name h} $handlers {
        if {[lindex $h 4] != 5} {
            lappend r $name
        }
    }
    list [dict size $handlers] $lines $r
} -result {6 6 {}}

test file-2 {events exist; indexes are the handlers' places per event; flags are 0 or 1} -body {
    set r {}
    set next [dict create]
    dict for {name h} $handlers {
        lassign $h event index enabled body
        if {![dict exists $params $event]} {
            lappend r "$name: no event $event"
        }
        set want [expr {[dict exists $next $event] ? [dict get $next $event] : 0}]
        if {$index != $want} {
            lappend r "$name: index $index, expected $want"
        }
        dict set next $event [expr {$want + 1}]
        if {$enabled ni {0 1}} {
            lappend r "$name: enabled is $enabled"
        }
        if {![info complete $body]} {
            lappend r "$name: incomplete body"
        }
    }
    set r
} -result {}

test file-3 {bodies use only their event's parameters and their own variables} -body {
    set r {}
    dict for {name h} $handlers {
        lassign $h event index enabled body
        set known [concat [dict get $params $event] n_ename n_time]
        foreach {- v} [regexp -all -inline {(?:global|set|foreach|incr) ([A-Za-z_][A-Za-z0-9_]*)} $body] {
            lappend known $v
        }
        foreach {- v} [regexp -all -inline {\$\{?([A-Za-z_][A-Za-z0-9_]*)} $body] {
            if {$v ni $known} {
                lappend r "$name: \$$v"
            }
        }
    }
    set r
} -result {}

test file-4 {the handlers shown in the README are enabled, trace_calls is not} -body {
    set r {}
    foreach name {show_binding break_on_fact count_tokens report_tokens stop_on_error trace_calls} {
        lappend r $name [lindex [dict get $handlers $name] 2]
    }
    set r
} -result {show_binding 1 break_on_fact 1 count_tokens 1 report_tokens 1 stop_on_error 1 trace_calls 0}

# Run handler NAME in interpreter I with its event's parameters bound to
# VALUES, as noosa does; return {transcript breaks}.  Runs the body at
# the global level, as noosa does.
proc run_handler {i name args} {
    global handlers params
    lassign [dict get $handlers $name] event index enabled body
    $i eval {set transcript ""; set breaks 0}
    foreach p [dict get $params $event] v $args {
        $i eval [list set $p $v]
    }
    $i eval [list set n_ename $event]
    $i eval [list set n_time 1000]
    $i eval $body
    list [$i eval {set transcript}] [$i eval {set breaks}]
}

set i [calc_stub_interp]

test show-1 {show_binding: the name, its value and the environment, browsable} -body {
    run_handler $i show_binding 4096 0 12288
} -result {{x = Value:0x3000 int 12 in Environment:0x1000
} 0}

test show-2 {show_binding: a function value} -body {
    run_handler $i show_binding 8192 1 12352
} -result {{add = Value:0x3040 fn <fn add/1> in Environment:0x2000
} 0}

test break-1 {break_on_fact: no break for other names} -body {
    run_handler $i break_on_fact 4096 0 12288
} -result {{} 0}

test break-2 {break_on_fact: a break when fact is bound} -body {
    run_handler $i break_on_fact 4096 2 12352
} -result {{fact is bound: stopping
} 1}

test tokens-1 {count_tokens counts by kind; report_tokens prints the counts} -body {
    foreach {kind name text} {5 'let' let 4 name x 26 '=' = 4 name y 3 integer 12} {
        run_handler $i count_tokens $kind $name $text 1 1
    }
    run_handler $i report_tokens
} -result {{Tokens read:
       1 '='
       1 'let'
       1 integer
       2 name
} 0}

test tokens-2 {report_tokens says nothing when no token was counted} -body {
    set j [calc_stub_interp]
    set r [run_handler $j report_tokens]
    interp delete $j
    set r
} -result {{} 0}

test error-1 {stop_on_error: where and why, then a break; the message is data} -body {
    list {*}[run_handler $i stop_on_error 20736 {division [boom] by $x}] [$i eval {set boomed}]
} -result {{run-time error at Node:0x5100: division [boom] by $x
} 1 0}

test trace-1 {trace_calls: indented by depth} -body {
    run_handler $i trace_calls 20608 12352 3
} -result {{    call Value:0x3040 at Node:0x5080 (depth 3)
} 0}

test scope-1 {the handlers also work when run inside a procedure} -body {
    lassign [dict get $handlers count_tokens] event index enabled body
    $i eval [list apply [list {kind name text line col} $body] 4 name z 1 1]
    $i eval {set calc_token_count(name)}
} -result 3

interp delete $i
set failed $::tcltest::numTests(Failed)
cleanupTests
exit [expr {$failed > 0}]
