# SPDX-License-Identifier: MIT
#
# Cell.tcl - a browser for nt's list cells (tests/noosa/nt.dapto), written
# as Eli's browsers are: n_Cell_say prints Cell:0xHEX, n_Cell_open prints
# the text it was opened on, converts the value with n_hextodec, asks the
# program with n_send, prints the next cell with n_say_val (browsable in
# turn) and the rest of the list through n_Cell_say, recursively.

set n(Cell,desc) "nt list cell (open it for its value, its text and the cells after it)"

proc n_Cell_say {c} {
    n_say "Cell:0x[n_dectohex $c]"
}

# The cells from C (decimal) to the end, each as "Cell:0x... = VALUE".
proc nt_cell_chain {c} {
    if {$c == 0} {
        n_say "end"
        return
    }
    set r [n_send cell_info $c]
    n_Cell_say $c
    n_say " = [lindex $r 0] -> "
    nt_cell_chain [lindex $r 2]
}

proc n_Cell_open {text c} {
    n_say "$text"
    if {$c == 0} {
        n_say "\n  NoCell\n"
        return
    }
    set c [n_hextodec $c]
    lassign [n_send cell_info $c] value celltext next
    n_say " value $value, text \"$celltext\"\n  next: "
    n_say_val Cell $next
    n_say "\n  chain: "
    nt_cell_chain $c
    n_say "\n"
}
