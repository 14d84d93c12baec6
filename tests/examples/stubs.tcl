# SPDX-License-Identifier: MIT
#
# stubs.tcl - a stand-in for noosa's Tcl API, for testing calc's browsers
# and handlers before they can run under noosa.  calc_stub_interp makes a
# safe interpreter holding only the documented API (n_say, n_say_val,
# n_send, n_hextodec, n_dectohex, n_break, the array n) as stubs, a canned
# program that n_send answers from, and the browsers loaded as noosa
# autoloads them.  What the stubs saw is kept in the interpreter's
# variables transcript (everything n_say'd), sent (every n_send) and
# breaks (calls of n_break).

set calc_stub_api {
    set transcript ""
    set sent {}
    set breaks 0
    set boomed 0
    proc n_say {args} {
        append ::transcript {*}$args
    }
    proc n_say_val {type value} {
        if {[llength [info procs n_${type}_say]]} {
            n_${type}_say $value
        } else {
            n_say "$type:$value"
        }
    }
    proc n_dectohex {d} {
        if {![string is wideinteger -strict $d] && ![string is entier -strict $d]} {
            error "n_dectohex: not a decimal number: $d"
        }
        format %llx $d
    }
    proc n_hextodec {h} {
        if {![regexp -nocase {^(0x)?([0-9a-f]+)$} $h -> _ x]} {
            error "n_hextodec: not a hexadecimal number: $h"
        }
        expr {"0x$x" + 0}
    }
    proc n_break {} {
        incr ::breaks
    }
    proc n_send {op args} {
        set key [list $op {*}$args]
        lappend ::sent $key
        if {![dict exists $::program $key]} {
            error "operation $op failed: no such object $args"
        }
        dict get $::program $key
    }
    # Something that must never run: program data is never code.
    proc boom {args} {
        incr ::boomed
    }
    set x SUBSTITUTED

    # The canned program: pointers are decimal, as n_send gives them.
    #   environments 0x1000 and 0x1040 (inside 0x2000), 0x2000 (outermost);
    #   value 999 is one the program cannot describe
    #   values 0x3000 int 12, 0x3040 fn add, 0x3080 str, 0x30c0 hostile
    #   nodes 0x5000 fn add(x) = x + k, 0x5040 param x, 0x5080 x + k,
    #         0x50c0 name x, 0x5100 string
    set tab "\t"
    set program [dict create \
        {get_scope_info 4096} {8192 0 12288 1 12352} \
        {get_scope_info 8192} {0} \
        {get_scope_info 4160} {8192 0 12480 1 999} \
        {get_string 0} x \
        {get_string 1} add \
        {get_string 2} fact \
        {get_value 12288} {int 12} \
        {get_value 12352} {fn {<fn add/1>} 20480 8192} \
        {get_value 12416} [list str "a${tab}b\"c"] \
        {get_value 12480} {str {[boom] $x}} \
        {get_node_info 20480} {10 fn 2 4 2} \
        {get_node_attrs 20480} {idn 1 name add} \
        {get_node_children 20480} {param 20544 body 20608} \
        {unparse_node 20480} [list {fn add(x) = x + k}] \
        {get_node_info 20544} {11 param 2 8 0} \
        {get_node_info 20608} {6 binary 2 13 2} \
        {get_node_info 20672} {4 name 2 13 0} \
        {get_node_info 20736} {3 string 2 17 0} \
        {get_node_attrs 20736} [list idn 3 text "a${tab}b\"c"] \
        {get_node_children 20736} {} \
        {unparse_node 20736} [list {"a\tb\"c"}] \
    ]
}

# A safe interpreter with the stub API and every browser loaded.
proc calc_stub_interp {} {
    global env
    set i [interp create -safe]
    $i eval $::calc_stub_api
    foreach f [lsort [glob -directory [file join $env(abs_top_srcdir) browsers] *.tcl]] {
        set fd [open $f]
        set script [read $fd]
        close $fd
        $i eval $script
    }
    return $i
}

# Run SCRIPT in interpreter I with a fresh transcript; return the
# transcript.
proc calc_said {i script} {
    $i eval {set transcript ""; set sent {}}
    $i eval $script
    $i eval {set transcript}
}
