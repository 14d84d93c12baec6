#!/bin/sh
# SPDX-License-Identifier: MIT
# tcl.sh - n_cvalue and n_ctype: C data as Tcl values for scripts and
# handlers (a struct a dict, an array a list, a char array a string, an
# enum by name, a pointer its address); a handler that reads C data makes
# the program wait at its event without -stop, and one that may not wait
# (-nostop) is told why it cannot read.
. "${srcdir:-.}/tests/debug/lib.sh"

cat >"$WORK/cmds" <<'CMDS'
break visit
run
continue
dict get [n_cvalue {*node}] count
dict get [n_cvalue {*node}] name
dict get [n_cvalue {*node}] vals
dict get [n_cvalue {*node}] u
dict get [n_cvalue {*node}] pos
dict get [n_cvalue {*node}] l
dict get [n_cvalue {*node}] c
expr {[dict get [n_cvalue {*node}] next] == [n_cvalue {&nodes[2]}]}
expr {[dict get [n_cvalue {*node}] fn] == [n_cvalue square]}
lsort [dict keys [n_cvalue {*node}]]
n_cvalue greeting
n_cvalue matrix
n_cvalue col
n_cvalue fl
n_cvalue ok
n_cvalue uc
n_cvalue sc
n_cvalue ull
n_cvalue dval
n_cvalue nullp
n_cvalue {n->count * 2 + depth}
n_cvalue depth
n_cvalue name
n_cvalue -frame 1 limit
n_ctype node
n_ctype {nodes[1].pos}
n_ctype origin
catch {n_cvalue nosuch} msg; set msg
catch {n_cvalue {*badp}} msg; set msg
catch {n_cvalue -frame 9 limit} msg; set msg
kill
CMDS
noosa_with values "$DV" "$WORK/cmds"
for want in '^10$' '^node1$' '^1 2 3 4$' '^i 1 f 1\.401298464324817e-45$' \
    '^x 1 y -1$' '^72623859790382856$' '^GREEN$' '^1$' \
    '^[{]|^bytes c count fl' '^hello, world$' '^\{1 2 3 4\} \{5 6 7 8\} \{0 0 0 0\}$' \
    '^BLUE$' '^5$' '^200$' '^-5$' '^18446744073709551615$' '^0\.1$' \
    '^21$' '^node1$' '^4$' '^struct node \*$' '^struct \{\.\.\.\}$' \
    '^point_t$' \
    '^n_cvalue: No symbol "nosuch" in current context\.$' \
    '^n_cvalue: Cannot access memory at address 0x8$' \
    '^n_cvalue: No frame at level 9\.$'; do
    has values "$want"
done
# fields of a struct: every member by name, an anonymous one's members
# among them
has values '^bytes c count flag_a flag_b fn l label name next pos self small u vals weight$'
count values 1 '^0$'
status values 0

# a handler that reads C data: the program waits at its event without
# -stop (as for n_send); each visit seen, in order
cat >"$WORK/cmds" <<'CMDS'
set seen {}
handler add visit look {lappend ::seen [dict get [n_cvalue {*node}] count]/$depth}
run
set seen
handler add done last {set ::last [n_cvalue {last->name}]; set ::fr [n_cvalue -frame 0 {total}]} -nostop
run
set last
CMDS
noosa_with handler "$DV" "$WORK/cmds"
has handler '^0/0 10/1 20/2 30/3$'
has handler '^error: in handler "last" for event "done": n_cvalue: the program does not wait at this event \(a handler that reads the program.s data must let it wait: no -nostop\)$'
count handler 2 '^Program exited with status 0\.$'

finish
