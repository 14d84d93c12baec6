#!/bin/sh
# SPDX-License-Identifier: MIT
# names.sh - an aspect and an event of one name, through `noosa --batch`
# on tree (interface tests/dapto/spec/tree.dapto: aspect tree with events
# tree and attribute and an operation size; aspect eval with an operation
# eval): info and n(...) list each name where it belongs; n_provided
# finds the aspects; break tree and break tree.tree both stop at the
# event tree; a handler on tree.attribute; the operations eval and
# eval.eval run; an aspect or an operation is no event to break at.
. "$srcdir/tests/noosa/lib.sh"

cat >names-info.tcl <<'EOF2'
info aspects
info events
info operations
n_say "aspects: $n(aspects)\n"
n_say "events: [lmap e $n(events) {lindex $e 0}]\n"
n_say "tree: [lsearch -inline -index 0 $n(events) tree]\n"
n_say "operations: [lmap o $n(operations) {lindex $o 0}]\n"
n_say "provided: tree [n_provided tree], eval [n_provided eval], attribute [n_provided attribute]\n"
break eval
break eval.eval
break tree.size
break eval.tree
break tree.eval
info breakpoints
EOF2
batch names-info -n -x names-info.tcl "$TREE_PROG"
check names-info

# break tree: the event, not the aspect; the operations run at the stop.
cat >names-break.tcl <<'EOF2'
break tree
run > names-break-prog.out
n_say "at $ev(n_ename): nodes $ev(nodes), source $ev(source)\n"
send size
send eval 0x[n_dectohex $ev(root)]
n_say "eval.eval: [n_send eval.eval $ev(root)]\n"
send eval 12345
info breakpoints
continue
EOF2
batch names-break -n -x names-break.tcl "$TREE_PROG" input.txt
check names-break
same names-break-prog "$WORK/names-break-prog.out" "sum 6"

# break tree.tree, and the other event of the aspect by both its names.
cat >names-qualified.tcl <<'EOF2'
break tree.tree
handler add tree.attribute sums {n_say "handler: sum $value\n"}
break attribute if {$value == 3}
break tree.attribute if {$value == 6}
run > names-qualified-prog.out
n_say "at $ev(n_ename): nodes $ev(nodes), source $ev(source)\n"
continue
continue
continue
info breakpoints
EOF2
batch names-qualified -n -x names-qualified.tcl "$TREE_PROG"
check names-qualified
same names-qualified-prog "$WORK/names-qualified-prog.out" "sum 6"

finish
