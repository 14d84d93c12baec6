# SPDX-License-Identifier: MIT
#
# noosa.tcl - the Tcl half of noosa's Tcl layer: Noosa's browser API
# procedures (n_say_val, n_hextodec, n_dectohex, n_provided), noosa's
# subcommands added to Tcl's info, and the helper the C side asks
# (needs_stop).  The commands, their global names and their help are the
# C tables' (src/tcl/command.h).

namespace eval ::noosa {}

# --- Noosa's API ---------------------------------------------------------

# Print VALUE of TYPE through n_TYPE_say when a browser defines it, else
# as TYPE:0xHEX, as pointers are shown (browsable when n_TYPE_open
# exists); VALUE is the pointer in decimal, as Tcl code gets it.
proc n_say_val {type value} {
    if {[info commands ::n_${type}_say] ne ""} {
        n_${type}_say $value
    } elseif {[regexp {^[0-9]+$} $value]} {
        n_say "$type:0x[n_dectohex $value]"
    } else {
        n_say "$type:$value"
    }
}

# "0x1f" or "1f" -> 31.  Pointers are unsigned: any size works.
proc n_hextodec {hex} {
    set h $hex
    if {[string match -nocase 0x* $h]} {
        set h [string range $h 2 end]
    }
    if {$h eq "" || ![string is xdigit $h]} {
        return -code error "n_hextodec: expected a hexadecimal number, got \"$hex\""
    }
    return [scan $h %llx]
}

# 31 -> "1f" (no 0x, as Noosa's browsers expect: "T:0x[n_dectohex $v]").
proc n_dectohex {dec} {
    # decimal digits only: Tcl would read 010 as octal and 0x10 as hex
    if {![regexp {^[0-9]+$} $dec]} {
        return -code error "n_dectohex: expected a non-negative decimal integer, got \"$dec\""
    }
    return [format %llx [scan $dec %lld]]
}

# Whether the program provides ASPECT.
proc n_provided {aspect} {
    return [expr {$aspect in $::n(aspects)}]
}

# --- helpers the C side calls ---------------------------------------------

# Whether handler code BODY needs the program stopped at its event: it
# runs an operation or asks to stop, directly or through a procedure it
# calls (followed through procedures defined now, and from n_say_val TYPE
# to the browser's n_TYPE_say).
proc ::noosa::needs_stop {body {seen {}}} {
    if {[regexp {\m(n_send|n_break|send|::noosa::cmd::send|n_cvalue|n_ctype|print|::noosa::cmd::print)\M} $body]} {
        return 1
    }
    set words [regexp -all -inline {[A-Za-z_:][A-Za-z0-9_:]*} $body]
    foreach {- type} [regexp -all -inline {\mn_say_val\s+([A-Za-z0-9_]+)} $body] {
        lappend words n_${type}_say
    }
    foreach word $words {
        if {$word in $seen} continue
        lappend seen $word
        if {[llength [info procs ::$word]] == 1 || [llength [info procs $word]] == 1} {
            if {[catch {info body $word} pbody]} continue
            if {[needs_stop $pbody $seen]} {
                return 1
            }
        }
    }
    return 0
}

# noosa's info subcommands (entries "info SUB" of the command tables)
# that Tcl's own info lacks, added to Tcl's info for scripts: inside
# procedures and handlers, info is Tcl's (info exists, info locals, ...),
# and noosa's whole info is ::noosa::cmd::info; at the prompt, info is
# noosa's (interp_script).
set ::noosa::info_subcommands {}
foreach c [::noosa::commands] {
    if {[dict get $c kind] eq "subcommand" && [string match "info *" [dict get $c name]]} {
        lappend ::noosa::info_subcommands [lindex [dict get $c name] 1]
    }
}
unset c

proc ::noosa::info_unknown {ensemble sub args} {
    set tcl {}
    foreach name [dict keys [namespace ensemble configure ::info -map]] {
        if {$name ni $::noosa::info_subcommands} {
            lappend tcl $name
        }
    }
    # a unique prefix of a subcommand still works, as in Tcl
    set all [concat $::noosa::info_subcommands $tcl]
    set match [lsearch -all -inline -glob $all [string map {* \\* ? \\? [ \\[ \\ \\\\} $sub]*]
    if {[llength $match] == 1} {
        return [list ::info [lindex $match 0]]
    }
    if {[llength $match] > 1} {
        return -code error "info: ambiguous subcommand \"$sub\": it\
            begins [join $match {, }]"
    }
    return -code error "info: unknown subcommand \"$sub\": noosa's are\
        [join $::noosa::info_subcommands {, }]; Tcl's are\
        [join [lsort $tcl] {, }]"
}

apply {{} {
    set map [namespace ensemble configure ::info -map]
    set added {}
    foreach sub $::noosa::info_subcommands {
        if {![dict exists $map $sub]} {
            dict set map $sub [list ::noosa::cmd::info $sub]
            lappend added $sub
        }
    }
    set ::noosa::info_subcommands $added
    namespace ensemble configure ::info -map $map \
        -unknown ::noosa::info_unknown
}}

# <design#checkpoints> The variables of handlers and monitors, kept by a
# replay's checkpoints: the global variables and those of every namespace
# but Tcl's own and noosa's (a Tcl monitor's, ::noosa::monitor::NAME,
# are kept), as name, whether an array, value.  What the user wrote at
# the prompt while a replay stood stopped is the user's (user), and a
# move leaves it as it is; the rest follows the events.
namespace eval ::noosa::vars {
    variable skip {n ev env errorInfo errorCode argv argv0 argc auto_path
        auto_index auto_oldpath}
    variable user
    array set user {}
    variable snap {}
}

proc ::noosa::vars::names {} {
    variable skip
    set out {}
    foreach v [info vars ::*] {
        set s [string range $v 2 end]
        if {$s in $skip || [string match tcl_* $s] || [string match tk_* $s]} {
            continue
        }
        lappend out $v
    }
    set todo [namespace children ::]
    while {[llength $todo] > 0} {
        set todo [lassign $todo ns]
        if {$ns in {::tcl ::oo ::noosa}} {
            if {$ns eq "::noosa" && [namespace exists ::noosa::monitor]} {
                lappend todo {*}[namespace children ::noosa::monitor]
            }
            continue
        }
        lappend out {*}[info vars ${ns}::*]
        lappend todo {*}[namespace children $ns]
    }
    return $out
}

proc ::noosa::vars::save {} {
    set out {}
    foreach v [names] {
        if {[array exists $v]} {
            lappend out $v 1 [array get $v]
        } elseif {[info exists $v]} {
            lappend out $v 0 [set $v]
        }
    }
    return $out
}

# Put the variables back as SAVED has them, but the user's, which are
# kept as they are now (the events a move hands over may change them: the
# play's stop puts them back).
proc ::noosa::vars::restore {saved} {
    variable user
    variable pinned
    if {![info exists pinned]} {
        set pinned {}
        foreach v [array names user] {
            if {[array exists $v]} {
                lappend pinned $v 1 [array get $v]
            } elseif {[info exists $v]} {
                lappend pinned $v 0 [set $v]
            } else {
                lappend pinned $v -1 {}
            }
        }
    }
    foreach {v a val} $saved {
        set in($v) {}
    }
    foreach v [names] {
        if {![info exists in($v)] && ![info exists user($v)]} {
            unset -nocomplain $v
        }
    }
    foreach {v a val} $saved {
        if {[info exists user($v)]} {
            continue
        }
        catch {
            if {$a} {
                if {![array exists $v] || [array get $v] ne $val} {
                    unset -nocomplain $v
                    array set $v $val
                }
            } else {
                if {[array exists $v]} {
                    unset $v
                }
                set $v $val
            }
        }
    }
}

# The play stopped (or ended): the user's variables as they were before a
# move; what the variables are now.
proc ::noosa::vars::stopped {} {
    variable pinned
    if {[info exists pinned]} {
        foreach {v a val} $pinned {
            catch {
                unset -nocomplain $v
                if {$a == 1} {
                    array set $v $val
                } elseif {$a == 0} {
                    set $v $val
                }
            }
        }
        unset pinned
    }
    variable snap [save]
}

# The play goes on: what was written since it stopped is the user's.
proc ::noosa::vars::going {} {
    variable snap
    variable user
    if {[llength $snap] == 0} {
        return
    }
    foreach {v a val} $snap {
        set old($v) [list $a $val]
    }
    foreach {v a val} [save] {
        if {![info exists old($v)] || [lindex $old($v) 0] != $a ||
                [lindex $old($v) 1] ne $val} {
            set user($v) 1
        }
        unset -nocomplain old($v)
    }
    foreach v [array names old] {
        set user($v) 1
    }
    set snap {}
}
