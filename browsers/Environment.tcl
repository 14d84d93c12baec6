# SPDX-License-Identifier: MIT
#
# Environment.tcl - Noosa browser for calc's scoped environments
# (examples/calc), after Eli's: opening one lists its parent and its
# bindings, each name with its value, which can be opened in turn.  Uses
# the operations get_scope_info (aspect environment), get_string (aspect
# string), and calc_value_brief from Value.tcl.

set n(Environment,desc) "calc environment: a scope of name bindings (open it to list its parent and its names with their values)"

proc n_Environment_say {env} {
    n_say "Environment:0x[n_dectohex $env]"
}

proc n_Environment_open {text env} {
    n_say "$text"
    if {$env == 0} {
        n_say "\n  NoEnv\n"
        return
    }
    set env [n_hextodec $env]
    set r [n_send get_scope_info $env]
    if {[lindex $r 0] != 0} {
        n_say " (parent: "
        n_Environment_say [lindex $r 0]
        n_say ")"
    }
    n_say "\n"
    set c 0
    foreach {idn v} [lrange $r 1 end] {
        n_say "  [n_send get_string $idn] = "
        n_say_val Value $v
        set brief [calc_value_brief $v]
        if {$brief ne ""} {
            n_say " $brief"
        }
        n_say "\n"
        incr c
    }
    if {$c == 0} {
        n_say "  No bindings\n"
    }
}
