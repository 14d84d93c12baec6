# SPDX-License-Identifier: MIT
#
# screen.tcl - the screen's part of the Tcl library: key bindings (`bind`),
# the default keys, the key hints on the bottom line and the text of the
# help window, and what changes when the screen starts (::noosa::screen::init,
# called by the screen): `help` listing the keys,
# `puts` to standard output or error writing to the transcript (the
# terminal belongs to the screen).
#
# Bindings are kept here, not in the screen, so that start-up files can
# set them in batch mode too (where they do nothing).  Key names are made
# canonical by the screen (`screen keyname`) once it runs.

namespace eval ::noosa::screen {
    variable bindings
    variable keyhelp
    array set bindings {}
    array set keyhelp {}
}

# KEY's canonical name: through the screen's own parser when it runs,
# else as written (the screen command exists in batch mode too, and says
# there is no screen).
proc ::noosa::screen::keyname {key} {
    if {[info exists ::n(screen)]} {
        return [::noosa::cmd::screen keyname $key]
    }
    return $key
}

# bind                       list the bindings as KEY SCRIPT ...
# bind KEY                   the script bound to KEY ("" for none)
# bind KEY SCRIPT ?HELP?     bind KEY; an empty SCRIPT unbinds it
proc ::noosa::screen::bind {args} {
    variable bindings
    variable keyhelp
    switch -- [llength $args] {
        0 {
            set out {}
            foreach key [lsort -dictionary [array names bindings]] {
                lappend out $key $bindings($key)
            }
            return $out
        }
        1 {
            set key [keyname [lindex $args 0]]
            if {[info exists bindings($key)]} {
                return $bindings($key)
            }
            return ""
        }
        2 - 3 {
            lassign $args key script help
            set key [keyname $key]
            if {$script eq ""} {
                unset -nocomplain bindings($key) keyhelp($key)
                return
            }
            set bindings($key) $script
            if {[llength $args] == 3} {
                set keyhelp($key) $help
            } else {
                unset -nocomplain keyhelp($key)
            }
            return
        }
        default {
            return -code error "wrong # args: should be \"bind ?KEY? ?SCRIPT? ?HELP?\""
        }
    }
}
# Run the program, or let it go on when it is stopped (F5).
proc ::noosa::screen::go {} {
    switch -- $::n(status) {
        stopped {::noosa::cmd::continue}
        running {return -code error "the program is already running (C-c interrupts it)"}
        default {::noosa::cmd::run}
    }
}

# The default keys.
bind F1 {screen window help} {show the keys and commands (again: close)}
bind F2 {screen window handlers} {open or close the handlers window}
bind F3 {screen window breakpoints} {open or close the breakpoints window}
bind F4 {screen toggle-break} {set or delete a breakpoint on the chosen event (in the handlers window, else the one stopped at)}
bind F5 {::noosa::screen::go} {run the program, or continue it when stopped}
bind F6 {screen focus next} {move to the next pane (command line, output, transcript, window)}
bind S-F6 {screen focus prev} {move to the previous pane}
bind F7 {::noosa::cmd::step} {step to the next visible event}
bind S-F7 {::noosa::cmd::reverse-step} {a recording: back to the visible event before}
bind C-F7 {::noosa::cmd::step back} {a recording: back one event}
bind S-F5 {::noosa::cmd::reverse-continue} {a recording: back to the last stop before}
bind F9 {::noosa::cmd::kill} {kill the program (noosa stays)}
bind F10 {screen quit} {quit (asks while the program runs)}
bind F11 {screen window profile} {open or close the profile window}
bind F8 {screen window questions} {open or close the questions window}
bind C-c {screen interrupt} {interrupt the running program (it stops, it is not killed); else clear the command line}
bind C-l {screen redraw} {redraw the screen}

# The keys on the bottom line, from what is bound now.
proc ::noosa::screen::hints {} {
    variable bindings
    set out {}
    foreach {label script} {
        help {screen window help}
        run/cont ::noosa::screen::go
        step ::noosa::cmd::step
        stop {screen interrupt}
        handlers {screen window handlers}
        breaks {screen window breakpoints}
        pane {screen focus next}
        quit {screen quit}
    } {
        foreach key [lsort -dictionary [array names bindings]] {
            if {$bindings($key) eq $script} {
                lappend out "$key:$label"
                break
            }
        }
    }
    return [join $out " "]
}

# The text of the help window: the keys as bound now, what the panes do
# with keys, and the commands.
proc ::noosa::screen::help_text {} {
    variable bindings
    variable keyhelp
    set t {}
    lappend t "Keys (bind KEY SCRIPT ?HELP? rebinds them; help bind):"
    foreach key [lsort -dictionary [array names bindings]] {
        set what [expr {[info exists keyhelp($key)] ? $keyhelp($key) : $bindings($key)}]
        lappend t [format "  %-8s %s" $key $what]
    }
    lappend t "" "Command line (readline: Emacs or vi editing, ~/.inputrc; screen editing-mode):"
    lappend t "  Enter    run the command (any Tcl); Up, Down: history (kept between runs)"
    lappend t "  Tab      complete commands, events, operations, handlers, file names;"
    lappend t "           on an empty line: go to the values in the transcript"
    lappend t "  PageUp, PageDown   scroll the transcript; End at the line's end: its end"
    lappend t "  C-d on an empty line: quit"
    lappend t "" "Transcript (F6, or Tab on an empty command line):"
    lappend t "  Tab, S-Tab   next, previous value (its description shows below)"
    lappend t "  Enter        open the value (open N); a mouse click does too"
    lappend t "  / ?  or C-s C-r   search forward, backward;  n N   again, the other way"
    lappend t "  Up Down j k, PageUp PageDown Space b, Home End g G   scroll"
    lappend t "  Esc          back to the command line"
    lappend t "" "Output (F6): the program's terminal. Every key goes to the program but"
    lappend t "  C-] (back to the command line), C-c and the bound function keys;"
    lappend t "  S-PageUp, S-PageDown scroll its scrollback.  tty PATH: another terminal."
    lappend t "" "Handlers window (F2): Up Down choose, Left Right or Tab: events or handlers;"
    lappend t "  n new, r rename, d delete, Space enable/disable, e or Enter edit"
    lappend t "  (\$VISUAL, \$EDITOR, else inline), i inline editor, s save, l load,"
    lappend t "  b breakpoint on the event.  Inline editor: C-s saves, Esc cancels."
    lappend t "" "Breakpoints window (F3): a add, d delete, Space enable/disable."
    lappend t "" "Profile window (F11): f time or frequency, t tree or flat, s sort,"
    lappend t "  o on/off (profile ... on|off), r reset; updated as the program runs."
    lappend t "" "Questions window (F8): the answers of question add ..., read from the"
    lappend t "  program as it runs; s sort, r reset all (question reset)."
    lappend t "" "Commands (help COMMAND for more):"
    foreach c [::noosa::commands] {
        if {[dict get $c hidden]} continue
        set name [dict get $c name]
        set synopsis [dict get $c usage]
        lappend t [format "  %-30s %s" \
            [expr {[string length $synopsis] > 30 ? "$name ..." : $synopsis}] \
            [dict get $c summary]]
    }
    return [join $t \n]
}

# Called by the screen when it starts.
proc ::noosa::screen::init {} {
    variable bindings
    variable keyhelp
    set ::n(screen) 1

    # bindings set before the screen ran get their canonical names
    foreach key [array names bindings] {
        if {[catch {keyname $key} canon]} {
            n_say "error: bind: $canon\n"
            unset -nocomplain bindings($key) keyhelp($key)
        } elseif {$canon ne $key} {
            set bindings($canon) $bindings($key)
            if {[info exists keyhelp($key)]} {
                set keyhelp($canon) $keyhelp($key)
            }
            unset -nocomplain bindings($key) keyhelp($key)
        }
    }

    # the terminal is the screen's: standard output and error of Tcl code
    # go to the transcript
    if {[info commands ::noosa::screen::tcl_puts] eq ""} {
        rename ::puts ::noosa::screen::tcl_puts
        proc ::puts {args} {
            set nonewline 0
            if {[lindex $args 0] eq "-nonewline"} {
                set nonewline 1
                set args [lrange $args 1 end]
            }
            switch -- [llength $args] {
                1 {set chan stdout; set text [lindex $args 0]}
                2 {lassign $args chan text}
                default {
                    return -code error "wrong # args: should be \"puts ?-nonewline? ?channelId? string\""
                }
            }
            if {$chan in {stdout stderr}} {
                n_say [expr {$nonewline ? $text : "$text\n"}]
                return
            }
            if {$nonewline} {
                tailcall ::noosa::screen::tcl_puts -nonewline $chan $text
            }
            tailcall ::noosa::screen::tcl_puts $chan $text
        }
    }

    # help lists the keys too (the body runs in ::noosa::cmd, where info
    # is noosa's: Tcl's is ::info)
    if {[info commands ::noosa::help_commands] eq ""} {
        rename ::noosa::cmd::help ::noosa::help_commands
        proc ::noosa::cmd::help {args} {
            ::noosa::help_commands {*}$args
            if {[llength $args] == 0} {
                n_say "Keys (F1 shows them all; bind rebinds them):\n"
                foreach key [lsort -dictionary [array names ::noosa::screen::bindings]] {
                    set what [expr {[::info exists ::noosa::screen::keyhelp($key)] ? $::noosa::screen::keyhelp($key) : $::noosa::screen::bindings($key)}]
                    n_say [format "  %-8s %s\n" $key $what]
                }
            }
        }
    }
}
