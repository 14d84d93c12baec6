# SPDX-License-Identifier: MIT
#
# noosa.tcl - the Tcl half of noosa's Tcl layer: Noosa's browser API
# procedures (n_say_val, n_hextodec, n_dectohex, n_provided), the global
# names of the commands (implemented in C in ::noosa), their help, and the
# helper the C side asks (needs_stop).
#
# Debugger commands whose names Tcl already uses (break, continue, open)
# keep Tcl's meaning inside scripts; typed at the prompt or as a top-level
# command of a script they mean noosa's (::noosa::cmd::break, ...).

namespace eval ::noosa {
    variable help [dict create]
}

# --- Noosa's API ---------------------------------------------------------

# Print VALUE of TYPE through n_TYPE_say when a browser defines it, else
# as TYPE:VALUE (browsable when n_TYPE_open exists).
proc n_say_val {type value} {
    if {[info commands ::n_${type}_say] ne ""} {
        n_${type}_say $value
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
    if {[regexp {\m(n_send|n_break|send|::noosa::cmd::send)\M} $body]} {
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

# --- help ------------------------------------------------------------------

# Help for command NAME: its SYNOPSIS, a SUMMARY of a few words, and TEXT.
proc ::noosa::defhelp {name synopsis summary text} {
    variable help
    dict set help $name [list $synopsis $text $summary]
}

::noosa::defhelp run {run ?ARG ...?} {start the program} {Start the program (killing a live one first), with new arguments if any
are given. Redirections: < FILE, > FILE, >> FILE, 2> FILE, 2>&1.
In batch mode the command returns when the program stops or ends.}
::noosa::defhelp continue {continue} {let a stopped program go on} {Let a stopped program go on (alias: c, cont). At a fault, the signal is
delivered to the program.}
::noosa::defhelp step {step} {go on to the next visible event} {Go on to the next visible event (marked * in its interface) and stop there
(alias: s). Without a running program, start it and stop at its first
visible event.}
::noosa::defhelp stop {stop} {interrupt the running program} {Interrupt the running program: every thread stops.}
::noosa::defhelp kill {kill} {kill the program} {Kill the program (alias: k).}
::noosa::defhelp break {break EVENT ?if CONDITION?} {stop at an event} {Stop at every EVENT (NAME or ASPECT.NAME) for which CONDITION, a Tcl
expression over the event's parameters (and n_ename, n_time, n_thread),
is true (alias: b).}
::noosa::defhelp delete {delete ?N ...?} {delete breakpoints} {Delete breakpoints N ... (all of them without arguments).}
::noosa::defhelp enable {enable ?N ...?} {enable breakpoints} {Enable breakpoints N ... (all without arguments).}
::noosa::defhelp disable {disable ?N ...?} {disable breakpoints} {Disable breakpoints N ... (all without arguments).}
::noosa::defhelp handler {handler add|remove|list|save|load|enable|disable|rename|body|get ...} {Tcl code run on events} {Handlers: Tcl code run on each event, with the event's parameters (and
n_ename, n_time, n_thread) as variables.
  handler add EVENT NAME BODY ?-stop|-nostop?   add (run first)
  handler remove EVENT NAME
  handler enable|disable EVENT NAME
  handler rename EVENT NAME NEWNAME
  handler body EVENT NAME ?BODY?                show or change the code
  handler list ?EVENT?                          print them
  handler get ?EVENT?                           as a list {EVENT NAME ENABLED BODY}
  handler save FILE ?EVENT?                     as n_install_handler lines
  handler load FILE
A handler stops the program at its event only when it needs to (it calls
n_send or n_break, or was added with -stop); others run while the program
goes on.}
::noosa::defhelp send {send OPERATION ?ARG ...?} {run an operation in the stopped program} {Run an operation in the program stopped at an event and print its results
(n_send returns them as a list).}
::noosa::defhelp info {info events|aspects|operations|breakpoints|handlers|program} {what noosa knows about the program} {What noosa knows about the program (info events -v: with parameter docs).}
::noosa::defhelp values {values ?FIRST?} {list the browsable values} {List the browsable values in the transcript, numbered.}
::noosa::defhelp open {open N} {browse a value} {Browse value N (see values) with its type's n_TYPE_open.}
::noosa::defhelp help {help ?COMMAND?} {list the commands, or describe one} {List the commands, or describe one.}
::noosa::defhelp quit {quit ?STATUS?} {leave noosa} {Leave noosa (alias: q); a live program is killed.}

proc ::noosa::help {args} {
    variable help
    if {[llength $args] > 1} {
        return -code error "wrong # args: should be \"help ?COMMAND?\""
    }
    if {[llength $args] == 0} {
        n_say "Commands (help COMMAND for more; any Tcl can be typed too):\n"
        foreach name [lsort [dict keys $help]] {
            lassign [dict get $help $name] synopsis text summary
            n_say [format "  %-34s %s\n" \
                [expr {[string length $synopsis] > 34 ? "$name ..." : $synopsis}] \
                $summary]
        }
        n_say "Noosa API: n_say, n_say_val, n_send, n_break, n_hextodec, n_dectohex,\n"
        n_say "n_provided, n_install_handler; state in n(status), n(pid), n(where),\n"
        n_say "n(events), n(aspects), n(operations).\n"
        return
    }
    set name [lindex $args 0]
    set aliases {c continue cont continue s step k kill b break q quit r run}
    if {[dict exists $aliases $name]} {
        set name [dict get $aliases $name]
    }
    if {![dict exists $help $name]} {
        return -code error "help: no command \"$name\" (help lists them)"
    }
    lassign [dict get $help $name] synopsis text
    n_say "$synopsis\n$text\n"
}

# --- global names ----------------------------------------------------------

foreach {name target} {
    run ::noosa::cmd::run  step ::noosa::cmd::step  stop ::noosa::cmd::stop
    kill ::noosa::cmd::kill  quit ::noosa::cmd::quit  delete ::noosa::cmd::delete
    enable ::noosa::cmd::enable  disable ::noosa::cmd::disable
    handler ::noosa::cmd::handler  send ::noosa::cmd::send  values ::noosa::cmd::values
    help ::noosa::help
    r ::noosa::cmd::run  s ::noosa::cmd::step  k ::noosa::cmd::kill  q ::noosa::cmd::quit
    c ::noosa::cmd::continue  cont ::noosa::cmd::continue  b ::noosa::cmd::break
} {
    interp alias {} ::$name {} $target
}
unset name target

set ::noosa::info_subcommands {events aspects operations breakpoints handlers program}

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

# info events|aspects|operations|breakpoints|handlers|program, added to
# Tcl's own info; an unknown subcommand lists noosa's first.
apply {{} {
    set map [namespace ensemble configure ::info -map]
    foreach sub $::noosa::info_subcommands {
        dict set map $sub [list ::noosa::cmd::info $sub]
    }
    namespace ensemble configure ::info -map $map \
        -unknown ::noosa::info_unknown
}}
