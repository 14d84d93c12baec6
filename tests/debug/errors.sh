#!/bin/sh
# SPDX-License-Identifier: MIT
# errors.sh - what cannot be read is said plainly and the session goes on
# (the program then runs to its end as it would): null, bad and
# unreadable pointers, a syntax error, a name that is nowhere, a format
# print does not know, what print will not do (change the program, call
# its functions), print where there is no stop, a program without debug
# information, and a recording played (its events' values are there, the
# program's memory is not).
. "${srcdir:-.}/tests/debug/lib.sh"

cat >"$WORK/cmds" <<'CMDS'
p counter
break visit
run
p *nullp
p *badp
p badstr
p *badstr
p nodes[0].label
p *nodes[0].label
p head->next->next->label
p *(struct node *)0
p ((struct node *)16)->count
p *(int *)-1
p {long} 12
p (long)*(char **)8
p big[1000000000]
p nodes[
p counter +* 2
p 'ab
p "abc
p 0x
p nosuch
p nosuch->field
p counter.field
p node->nosuch
p sizeof(struct nosuch)
p (struct nosuch *)0
p/q counter
p/xx counter
p counter = 3
p counter++
p square(2)
p &counter + &counter
p $9999
p $$9999
whatis
ptype struct nosuch
frame x
up x
bt nonsense
p counter
delete 1
continue
CMDS
noosa_with bad "$DV" "$WORK/cmds"
for want in \
    '^error: the program is not stopped \(a stop at an event, an error or an interrupt is where its data can be read\)$' \
    '^error: Cannot access memory at address 0x0$' \
    '^error: Cannot access memory at address 0x8$' \
    '^\$1 = 0x8 <error: Cannot access memory at address 0x8>$' \
    '^\$2 = 0x0$' \
    '^\$3 = 0x0$' \
    '^error: Cannot access memory at address 0x20$' \
    '^error: Cannot access memory at address 0xffffffffffffffff$' \
    '^error: Cannot access memory at address 0xc$' \
    '^error: Cannot access memory at address 0x2$' \
    '^error: A syntax error in expression, near `.\.$' \
    '^error: Unmatched single quote\.$' \
    '^error: Unterminated string in expression\.$' \
    '^error: Invalid number "0x"\.$' \
    '^error: No symbol "nosuch" in current context\.$' \
    '^error: Attempt to extract a component of a value that is not a structure\.$' \
    '^error: There is no member named nosuch\.$' \
    '^error: No struct type named nosuch\.$' \
    '^error: Undefined output format "q" \(print takes /x /d /u /o /t /c /a /z or /s\)$' \
    '^error: Undefined output format "xx" \(print takes /x /d /u /o /t /c /a /z or /s\)$' \
    '^error: print does not change the program \(=\): noosa reads the program.s data, it does not write it$' \
    '^error: print does not change the program \(\+\+\)$' \
    '^error: print does not call the program.s functions \(it reads the program and never runs it\)$' \
    '^error: Argument to arithmetic operation not a number or boolean\.$' \
    '^error: History has not yet reached \$9999\.$' \
    '^error: History has not yet reached \$\$9999\.$' \
    '^error: wrong # args: should be "whatis EXPRESSION"$' \
    '^error: wrong # args: should be "frame \?N\?" \(N a number of frames\)$' \
    '^error: bt: expected full, a count of frames, a thread id or "all" \(bt \?full\? \?N\? \?THREAD\|all\?\), got "nonsense"$' \
    '^\$[0-9]+ = 42$' \
    '^total 102$' \
    '^Program exited with status 0\.$'; do
    has bad "$want"
done
# every failure a failed command: the exit status says so
status bad 1

# print where no stop is: before the run, after it
printf '%s\n' 'p counter' 'bt' 'info locals' 'frame' 'display counter' \
    run 'p counter' 'info display' >"$WORK/cmds"
noosa_with nostop "$DV" "$WORK/cmds"
count nostop 2 '^error: the program is not stopped \(a stop at an event, an error or an interrupt is where its data can be read\)$'
has nostop '^error: info locals: No stack \(the program is not stopped'
has nostop '^error: bt: the program is not running$'
has nostop '^error: frame: No stack \(the program is not stopped'
has nostop '^1:   y  counter$'

# no debug information: names are not there, registers and the event's
# parameters are; where a symbol has no type, gdb's words
nodebug
printf '%s\n' 'break visit' run 'p depth' 'p name' 'p counter' \
    'p (int)counter' 'p &counter' 'p walk' 'p n' 'p $pc' 'info locals' \
    'p sizeof(int)' kill >"$WORK/cmds"
noosa_with nodebug "$WORK/dv-nodebug" "$WORK/cmds"
has nodebug '^\$1 = 0$'
has nodebug '^\$2 = "node0"$'
has nodebug "^error: 'counter' has unknown type; cast it to its declared type"
has nodebug '^\$3 = 42$'
has nodebug "^error: 'walk' has unknown return type; cast the call to its declared return type"
has nodebug '^error: No symbol "n" in current context \(the program has no debug information: build it with -g\)\.$'
has nodebug '^\$4 = \(void \(\*\)\(\)\) 0x[0-9a-f]+ <walk\+[0-9]+>$'
has nodebug '^No symbol table info available\.$'
has nodebug '^\$5 = 4$'

# a recording: the events' values are in it, the program's memory is not
"$NOOSA" record -o "$WORK/rec" "$DV" >"$WORK/record.out" 2>&1 ||
    { fail "noosa record failed"; cat "$WORK/record.out"; }
timeout -k 5 "$LIMIT" "$NOOSA" --batch -n -e 'break visit' -e run \
    -e 'p depth + 1' -e 'p name' -e 'p node' -e 'p *node' -e 'p counter' \
    -e 'bt' -e 'info locals' -e kill --replay "$WORK/rec" </dev/null \
    >"$WORK/replay.out" 2>"$WORK/replay.err"
echo $? >"$WORK/replay.rc"
has replay '^\$1 = 1$'
has replay '^\$2 = "node0"$'
has replay '^\$3 = \(void \*\) 0x[0-9a-f]+$'
has replay "^error: Cannot read what a pointer points to: the program's memory is not in a recording: a recording holds its events and their values\.$"
has replay "^error: bt: a recording has no stack: the program's memory and registers are not in it, only its events and their values$"
has replay "^error: No symbol \"counter\" in current context \(the program's memory is not in a recording: a recording holds its events and their values\)\.$"
has replay "^error: info locals: the program's memory is not in a recording: a recording holds its events and their values, and nothing else of the program$"

finish
