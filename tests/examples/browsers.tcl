# SPDX-License-Identifier: MIT
#
# browsers.tcl - calc's browsers (browsers/*.tcl) follow Noosa's
# convention and, driven by canned n_send results (stubs.tcl), print what
# they should: n_T_say prints T:0xHEX, n_T_open walks the value through
# the program's operations and prints its parts with n_say_val so that
# they can be opened in turn.  They load in a safe interpreter that holds
# only the documented API, so they use nothing else.

package require tcltest 2
namespace import ::tcltest::*

source [file join $env(abs_top_srcdir) tests examples stubs.tcl]
set i [calc_stub_interp]

test desc-1 {every browser has a description} -body {
    set r {}
    foreach t {Environment Node Value} {
        if {[string length [$i eval [list set n($t,desc)]]] < 10} {
            lappend r $t
        }
    }
    set r
} -result {}

test say-1 {n_T_say prints TYPE:0xHEX} -body {
    calc_said $i {
        n_Environment_say 4096; n_say " "
        n_Node_say 20480; n_say " "
        n_Value_say 12352; n_say " "
        n_say_val Value 0; n_say " "
        n_say_val Other 7
    }
} -result {Environment:0x1000 Node:0x5000 Value:0x3040 Value:0x0 Other:7}

test say-2 {pointers wider than 32 bits keep their digits} -body {
    calc_said $i {n_Node_say 140737488355328}
} -result {Node:0x800000000000}

test env-1 {an environment: its parent and its bindings with values} -body {
    calc_said $i {n_Environment_open Environment:0x1000 0x1000}
} -result {Environment:0x1000 (parent: Environment:0x2000)
  x = Value:0x3000 int 12
  add = Value:0x3040 fn <fn add/1>
}

test env-2 {the outermost environment without bindings} -body {
    calc_said $i {n_Environment_open Environment:0x2000 0x2000}
} -result {Environment:0x2000
  No bindings
}

test env-3 {no environment: nothing is asked of the program} -body {
    list [calc_said $i {n_Environment_open Environment:0x0 0x0}] [$i eval {set sent}]
} -result {{Environment:0x0
  NoEnv
} {}}

test env-4 {it asks get_scope_info with the decimal pointer} -body {
    calc_said $i {n_Environment_open Environment:0x2000 0x2000}
    $i eval {set sent}
} -result {{get_scope_info 8192}}

test env-5 {a refusal from the program is an error, not a wrong display} -body {
    $i eval {n_Environment_open Environment:0x1234 0x1234}
} -returnCodes error -result {operation get_scope_info failed: no such object 4660}

test env-6 {values are described; one the program cannot describe is still listed} -body {
    list [calc_said $i {n_Environment_open Environment:0x1040 0x1040}] [$i eval {set boomed}]
} -result {{Environment:0x1040 (parent: Environment:0x2000)
  x = Value:0x30c0 str "[boom] $x"
  add = Value:0x3e7
} 0}

test value-1 {a function: its printed form, code and environment} -body {
    calc_said $i {n_Value_open Value:0x3040 0x3040}
} -result {Value:0x3040 fn
  <fn add/1>
  code: Node:0x5000
  environment: Environment:0x2000
}

test value-2 {an int} -body {
    calc_said $i {n_Value_open Value:0x3000 0x3000}
} -result {Value:0x3000 int
  12
}

test value-3 {a str is shown as a literal} -body {
    calc_said $i {n_Value_open Value:0x3080 0x3080}
} -result {Value:0x3080 str
  "a\tb\"c"
}

test value-4 {no value} -body {
    calc_said $i {n_Value_open Value:0x0 0x0}
} -result {Value:0x0
  NoValue
}

test value-5 {program data is shown, never run or substituted} -body {
    list [calc_said $i {n_Value_open Value:0x30c0 0x30c0}] [$i eval {set boomed}]
} -result {{Value:0x30c0 str
  "[boom] $x"
} 0}

test value-6 {calc_value_brief is empty when the program cannot answer} -body {
    list [$i eval {calc_value_brief 12288}] [$i eval {calc_value_brief 999}] \
        [$i eval {calc_value_brief 0}]
} -result {{int 12} {} {}}

test node-1 {a node: kind, coordinates, attributes, source, children} -body {
    calc_said $i {n_Node_open Node:0x5000 0x5000}
} -result {Node:0x5000 fn at 2,4
  idn: 1
  name: add
  source: fn add(x) = x + k
  param: Node:0x5040 param at 2,8
  body: Node:0x5080 binary at 2,13
}

test node-2 {a leaf with a string attribute} -body {
    calc_said $i {n_Node_open Node:0x5100 0x5100}
} -result {Node:0x5100 string at 2,17
  idn: 3
  text: "a\tb\"c"
  source: "a\tb\"c"
}

test node-3 {no node} -body {
    calc_said $i {n_Node_open Node:0x0 0x0}
} -result {Node:0x0
  NoNode
}

test node-4 {the hex value may come without 0x} -body {
    calc_said $i {n_Node_open Node:5100 5100}
} -result {Node:5100 string at 2,17
  idn: 3
  text: "a\tb\"c"
  source: "a\tb\"c"
}

interp delete $i
set failed $::tcltest::numTests(Failed)
cleanupTests
exit [expr {$failed > 0}]
