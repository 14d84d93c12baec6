# SPDX-License-Identifier: MIT
#
# db.tcl - the .db files dapto generated for calc source cleanly in tclsh,
# each in a fresh interpreter as noosa would load it, and give back the
# aspects, events (names, parameters, visibility, documentation) and
# operations of calc's interfaces; together they make one database with
# unique event and operation names.

set dir [file join $env(abs_top_builddir) examples calc]
set failures 0

proc fail {msg} {
    global failures
    puts "FAIL: $msg"
    incr failures
}

# file -> aspect, events {name visible params...}, operations {name
# result params...}
set expected {
    strtab_dapto.db {
        string
        {{string_stored 1 index string}}
        {{get_string str index} {string_count int} {find_string int string}}
    }
    lexer_dapto.db {
        lexical
        {{token 1 kind name text line col}}
        {{token_name str kind}}
    }
    tree_dapto.db {
        tree
        {{node_created 1 node kind line col}}
        {{node_kind_name str kind} {get_node_info str node}
         {get_node_children str node} {get_node_attrs str node}
         {unparse_node str node} {get_tree_root Node}}
    }
    env_dapto.db {
        environment
        {{env_created 1 env parent} {binding_made 1 env idn v}}
        {{get_scope_info str env} {get_global_env Environment}
         {lookup_name Value env name}}
    }
    value_dapto.db {
        value
        {}
        {{get_value str v}}
    }
    eval_dapto.db {
        evaluator
        {{value_computed 0 node v} {call_entered 1 call function depth}
         {call_returned 1 call result depth} {printed 1 text}
         {runtime_error 1 node message}}
        {{get_call_depth int} {get_current_env Environment}
         {get_call_stack str}}
    }
}

# Source FILE in a fresh interpreter; return its n(aspects), n(events)
# and n(operations).
proc load_db {file} {
    set i [interp create]
    set code [catch {
        $i eval [list source $file]
        $i eval {
            foreach k {aspects events operations} {
                if {![info exists n($k)]} {
                    set n($k) {}
                }
            }
        }
        list [$i eval {set n(aspects)}] [$i eval {set n(events)}] \
            [$i eval {set n(operations)}]
    } result]
    interp delete $i
    if {$code} {
        fail "$file: $result"
        return {{} {} {}}
    }
    return $result
}

set all_events {}
set all_ops {}
set all_aspects {}
foreach {name want} $expected {
    set file [file join $dir $name]
    if {![file readable $file]} {
        fail "$file is missing"
        continue
    }
    lassign $want aspect events ops
    lassign [load_db $file] got_aspects got_events got_ops
    if {$got_aspects ne [list $aspect]} {
        fail "$name: aspects are {$got_aspects}, expected {$aspect}"
    }
    lappend all_aspects {*}$got_aspects
    if {[llength $got_events] != [llength $events]} {
        fail "$name: [llength $got_events] events, expected [llength $events]"
    }
    foreach w $events g $got_events {
        set params [lrange $w 2 end]
        lassign $g ename edoc eparams evisible
        lappend all_events $ename
        if {$ename ne [lindex $w 0]} {
            fail "$name: event $ename, expected [lindex $w 0]"
            continue
        }
        if {$evisible != [lindex $w 1]} {
            fail "$name: $ename visible is $evisible"
        }
        if {[string trim $edoc] eq ""} {
            fail "$name: $ename has no documentation"
        }
        set names {}
        foreach {p d} $eparams {
            lappend names $p
            if {[string trim $d] eq ""} {
                fail "$name: parameter $p of $ename has no documentation"
            }
        }
        if {$names ne $params} {
            fail "$name: $ename has parameters {$names}, expected {$params}"
        }
    }
    if {[llength $got_ops] != [llength $ops]} {
        fail "$name: [llength $got_ops] operations, expected [llength $ops]"
    }
    foreach w $ops g $got_ops {
        lassign $g oname odoc oparams oresult
        lappend all_ops $oname
        if {$oname ne [lindex $w 0] || $oresult ne [lindex $w 1]} {
            fail "$name: operation {$oname $oresult}, expected {[lrange $w 0 1]}"
            continue
        }
        if {[string trim $odoc] eq ""} {
            fail "$name: $oname has no documentation"
        }
        set names {}
        foreach {p d} $oparams {
            lappend names $p
        }
        if {$names ne [lrange $w 2 end]} {
            fail "$name: $oname has parameters {$names}, expected {[lrange $w 2 end]}"
        }
    }
}

# The program's database is all of them: names must not collide, neither
# with each other nor with the built-in aspect dapto.
set builtin {init finit exit stopped enter leave}
foreach {what names} [list aspects [concat $all_aspects dapto] \
                          events [concat $all_events $builtin] \
                          operations $all_ops] {
    if {[llength [lsort -unique $names]] != [llength $names]} {
        fail "$what are not unique: $names"
    }
}
if {[llength $all_events] != 10 || [llength $all_ops] != 17} {
    fail "[llength $all_events] events and [llength $all_ops] operations in all, expected 10 and 17"
}

if {$failures} {
    puts "$failures failures"
    exit 1
}
puts "db.tcl: [llength $all_aspects] aspects, [llength $all_events] events, [llength $all_ops] operations"
exit 0
