# SPDX-License-Identifier: MIT
#
# Node.tcl - Noosa browser for calc's syntax tree nodes (examples/calc):
# opening a node shows its kind, its coordinates, its attributes, its
# source form and its children, each a node that can be opened in turn,
# so the whole tree can be walked from any node an event reported (or
# from the root: n_send get_tree_root).  Uses the operations of aspect
# tree, and calc_quote from Value.tcl.

set n(Node,desc) "calc syntax tree node (open it for its kind, coordinates, attributes, source and children)"

proc n_Node_say {node} {
    n_say "Node:0x[n_dectohex $node]"
}

# "binary at 2,13" for node NODE (decimal).
proc calc_node_brief {node} {
    lassign [n_send get_node_info $node] kind name line col
    return "$name at $line,$col"
}

proc n_Node_open {text node} {
    n_say "$text"
    if {$node == 0} {
        n_say "\n  NoNode\n"
        return
    }
    set node [n_hextodec $node]
    n_say " [calc_node_brief $node]\n"
    foreach {attr value} [n_send get_node_attrs $node] {
        if {$attr eq "text"} {
            set value [calc_quote $value]
        }
        n_say "  $attr: $value\n"
    }
    n_say "  source: [lindex [n_send unparse_node $node] 0]\n"
    foreach {role child} [n_send get_node_children $node] {
        n_say "  $role: "
        n_say_val Node $child
        n_say " [calc_node_brief $child]\n"
    }
}
