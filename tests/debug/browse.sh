#!/bin/sh
# SPDX-License-Identifier: MIT
# browse.sh - C values open in the transcript with no Tcl written: the
# event's parameters that have C types (ptr<struct node>, a user type
# that names a typedef) and what print shows are values; opening one
# shows a struct's members (each part a value of its own), what a
# pointer points to, read when it is opened and not before, an array a
# page at a time, and says so when a pointer leads back to an object open
# on the way (the list's last node points to its first).  A browser of
# the type in Tcl (n_Entry_open) still comes first.
. "${srcdir:-.}/tests/debug/lib.sh"

# value ID NAME: the number of the value whose listing line ends " NAME"
# in run NAME's "values" output (the last listing).
value_of() {
    awk -v t="$2" '/^\[[0-9]+\] / { n = substr($1, 2, length($1) - 2); if (index($0, t)) v = n } END { print v }' \
        "$WORK/$1.out"
}

# 1. the stop line's node, opened; its next, opened, and so on round the
# list: the fifth is the first again
printf '%s\n' 'break visit' run values 'open 1' >"$WORK/cmds"
noosa_with open "$DV" "$WORK/cmds"
has open '^Stopped at breakpoint 1 for event "visit": depth=0 node=0x[0-9a-f]+ <nodes> name="node0"$'
has open '^\[1\] struct node \*:0x[0-9a-f]+$'
has open '^\*node = \(struct node\) \{$'
has open '^  name = "node0(\\000)+"$'
has open '^  next = 0x[0-9a-f]+ <nodes\+104>$'
has open '^  fn = 0x0$'
has open '^  self = 0x[0-9a-f]+ <nodes>$'
has open '^\}$'

# round the list: open next, then that one's next ...: each run opens
# one more, its number the greatest of a "struct node *" so far (a
# node's listing has one, next; self is a node_t *)
printf '%s\n' 'break visit' run 'open 1' >"$WORK/cmds"
for k in 1 2 3 4; do
    cp "$WORK/cmds" "$WORK/cmds-list"
    echo values >>"$WORK/cmds-list"
    noosa_with list "$DV" "$WORK/cmds-list"
    next=$(awk '/^\[[0-9]+\] struct node \*:/ { v = substr($1, 2, length($1) - 2) } END { print v }' "$WORK/list.out")
    if [ -z "$next" ] || [ "$next" = 1 ]; then
        fail "round $k: no value for next in the listing"
        show list
        break
    fi
    echo "open $next" >>"$WORK/cmds"
done
has list '^\[[0-9]+\] int \[4\]:0x[0-9a-f]+$'
has list '^\[[0-9]+\] union \{\.\.\.\}:0x[0-9a-f]+$'
has list '^\[[0-9]+\] node_t \*:0x[0-9a-f]+$'
noosa_with cycle "$DV" "$WORK/cmds"
has cycle '^\*node->next = \(struct node\) \{$'
has cycle '^\*node->next->next = \(struct node\) \{$'
has cycle '^\*node->next->next->next = \(struct node\) \{$'
has cycle '^  name = "node3(\\000)+"$'
has cycle '^\*node->next->next->next->next: the same struct node as value 1 \(\*node\): a cycle$'

# 2. read when opened: node0's weight as it is at the second stop (the
# program added 100 after the first)
printf '%s\n' 'break visit' run 'p node' continue 'open 2' kill >"$WORK/cmds"
noosa_with lazy "$DV" "$WORK/cmds"
has lazy '^\$1 = \(struct node \*\) 0x[0-9a-f]+ <nodes>$'
has lazy '^  weight = 100$'

# 3. arrays a page at a time; runs of equal elements folded
printf '%s\n' 'break visit' run 'p big' 'open 2' 'open 3' 'p nodes[0].vals' \
    'open 5' 'p origin' 'open 6' kill >"$WORK/cmds"
noosa_with pages "$DV" "$WORK/cmds"
has pages '^\$1: elements 0 to 99 of 1000$'
has pages '^  \[0\] = 0$'
has pages '^  \[8\] = 8$'
has pages '^  more: \[100\.\.199\]$'
has pages '^\$1: elements 100 to 199 of 1000$'
has pages '^  \[105\] = 0$'
has pages '^  more: \[200\.\.299\]$'
has pages '^\$2: elements 0 to 3 of 4$'
has pages '^  \[0\.\.3\] = 0 <repeats 4 times>$'
has pages '^\$3 = \(point_t\) \{$'
has pages '^  x = 1$'

# 4. a user type that names a typedef opens as it, with no Tcl; with a
# browser of its own (n_Entry_open), that browser opens it
printf '%s\n' 'break done' run values 'open 1' kill >"$WORK/cmds"
noosa_with entry "$DV" "$WORK/cmds"
has entry '^Stopped at breakpoint 1 for event "done": total=60 last=Entry:0x[0-9a-f]+ <nodes> value=0x[0-9a-f]+$'
has entry '^\[1\] Entry:0x[0-9a-f]+$'
has entry '^\*last = \(struct node\) \{$'
mkdir -p "$WORK/browsers"
cat >"$WORK/browsers/Entry.tcl" <<'TCL'
proc n_Entry_open {text v} {
    n_say "Entry browser: $text, count [n_cvalue {last->count}]\n"
}
TCL
(
    cd "$WORK" &&
        timeout -k 5 "$LIMIT" "$NOOSA" --batch -n -B "$WORK/browsers" \
            -e 'break done' -e run -e 'p last' -e 'open 2' -e 'open 1' -e kill \
            "$DV" </dev/null >"$WORK/tcl-browser.out" 2>"$WORK/tcl-browser.err"
    echo $? >"$WORK/tcl-browser.rc"
)
# (a value of a type with a browser but no n_Entry_say: Entry:0xHEX, as
# n_say_val says a pointer of the program's own type)
has tcl-browser '^Stopped at breakpoint 1 for event "done": total=60 last=Entry:0x[0-9a-f]+ value=0x[0-9a-f]+$'
has tcl-browser '^Entry browser: Entry:0x[0-9a-f]+, count 0$'
has tcl-browser '^Entry browser: \(Entry\) 0x[0-9a-f]+ <nodes>, count 0$'
count tcl-browser 0 '^\*last = '

finish
