# SPDX-License-Identifier: MIT
#
# Item.tcl - a browser for dp's items (tests/dap/dp.dapto), as Eli's
# browsers are written: n_Item_say prints Item:0xHEX; n_Item_open prints
# the text it was opened on, then a line a field, the next item browsable
# in turn, and the ids of the items after it on one line, each browsable.

set n(Item,desc) "dp list item (open it for its id, its name and the items after it)"

proc n_Item_say {it} {
    n_say "Item:0x[n_dectohex $it]"
}

proc n_Item_open {text it} {
    n_say "$text\n"
    if {$it == 0} {
        n_say "  NoItem\n"
        return
    }
    set it [n_hextodec $it]
    lassign [n_send item_info $it] id name next
    n_say "  id: $id\n"
    n_say "  name: \"$name\"\n"
    n_say "  next: "
    n_say_val Item $next
    n_say "\n  after: "
    while {$next != 0} {
        n_say_val Item $next
        n_say " "
        set next [lindex [n_send item_info $next] 2]
    }
    n_say "\n"
}
