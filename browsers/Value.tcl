# SPDX-License-Identifier: MIT
#
# Value.tcl - Noosa browser for calc's values (examples/calc): ints, strs
# and functions.  Values travel as pointers; the operation get_value
# (aspect value) says what one is.  Also defines calc_quote and
# calc_value_brief, which the Environment browser and the handlers in
# examples/calc/calc.handlers use.

set n(Value,desc) "calc value: an int, a str or a function (open it for its kind, its printed form and, for a function, its code and environment)"

proc n_Value_say {v} {
    n_say "Value:0x[n_dectohex $v]"
}

# S as a calc string literal: in double quotes, with \n, \t, \" and \\.
proc calc_quote {s} {
    return "\"[string map [list \\ \\\\ \" \\\" \n \\n \t \\t] $s]\""
}

# A short description of value V (decimal): "int 12", "str \"hi\"",
# "fn <fn add/1>"; empty when the program cannot tell (not stopped, or V
# is not a value).
proc calc_value_brief {v} {
    if {$v == 0 || [catch {n_send get_value $v} r]} {
        return ""
    }
    lassign $r kind text
    if {$kind eq "str"} {
        return "str [calc_quote $text]"
    }
    return "$kind $text"
}

proc n_Value_open {text v} {
    n_say "$text"
    if {$v == 0} {
        n_say "\n  NoValue\n"
        return
    }
    set v [n_hextodec $v]
    lassign [n_send get_value $v] kind printed fn env
    n_say " $kind\n"
    switch -- $kind {
        str {
            n_say "  [calc_quote $printed]\n"
        }
        fn {
            n_say "  $printed\n  code: "
            n_say_val Node $fn
            n_say "\n  environment: "
            n_say_val Environment $env
            n_say "\n"
        }
        default {
            n_say "  $printed\n"
        }
    }
}
