#!/bin/sh
# SPDX-License-Identifier: MIT
# commands.sh - noosa's commands as the tables of src/tcl/command.h make
# them, through `noosa --batch`: help lists every registered command with
# its summary (a long synopsis shortened to NAME ...); help NAME and help
# ALIAS show the synopsis and the long help; an unknown command; argument
# counts checked from a command's entry; ::noosa::defhelp adding the help
# of a command defined in Tcl (listed, shown, replaced, refused for
# noosa's own); the global names and aliases; Tcl's break and continue
# kept inside procedures; the screen command in batch mode; errors that
# name the command typed.
. "$srcdir/tests/noosa/lib.sh"

# Every command ::noosa::commands lists, but the hidden ones and the
# subcommands (help info lists info's), has a line
# "  SYNOPSIS-OR-NAME ...  SUMMARY" in help's list; so have two commands
# given help by defhelp.
cat >help-all.tcl <<'EOF2'
::noosa::defhelp frob {frob ?HOW?} {frobnicate the program} {Frobnicate it.}
::noosa::defhelp long {long AAAAAAAAAA BBBBBBBBBB CCCCCCCCCC DDDDDDDDDD} {it is long} {.}
foreach c [::noosa::commands] {
    if {![dict get $c hidden] && [dict get $c kind] ne "subcommand"} {
        puts "[dict get $c name]\t[dict get $c summary]"
    }
}
help
EOF2
batch help-all -n -x help-all.tcl
n=0
while IFS='	' read -r name summary; do
    case $name in
    Commands*) break ;;
    esac
    n=$((n + 1))
    if ! awk -v name="$name" -v summary="$summary" '
        index($0, "  " name) == 1 &&
        substr($0, length($0) - length(summary) + 1) == summary &&
        substr($0, length(name) + 3, 1) ~ /^( |)$/ { found = 1 }
        END { exit !found }' help-all.out; then
        fail "help does not list $name with \"$summary\""
    fi
done <help-all.out
if [ "$n" -ge 30 ] && [ "$(cat help-all.rc)" = 0 ]; then
    echo "ok: help lists the $n commands with their summaries"
else
    fail "help-all: $n commands, status $(cat help-all.rc)"
fi
for line in '  frob ?HOW?  *frobnicate the program$' '  long \.\.\.  *it is long$' \
    '  screen SUBCOMMAND ?ARG \.\.\.?  *what the keys'; do
    if grep -q -e "^$line" help-all.out; then
        echo "ok: help lists /$line/"
    else
        fail "help does not list /$line/"
    fi
done

cat >commands.tcl <<'EOF2'
help stop
help k
help cont
help frobnicate
stop now
kill 1 2
n_break 1
n_say x y
n_say
::noosa::defhelp frob {frob ?HOW?} {frobnicate the program} {Frobnicate it.}
help frob
::noosa::defhelp frob {frob HOW} {frobnicate it} {Frobnicate it, HOW.}
help frob
::noosa::defhelp run {run} {run it} {Run.}
::noosa::defhelp c {c} {go on} {Go on.}
::noosa::defhelp frob
n_say "\n"
foreach name {run step stop kill quit delete enable disable handler send
              values help bind screen r s k q c cont b} {
    n_say "$name -> [interp alias {} ::$name]\n"
}
n_say "Tcl's: [list [interp alias {} ::break] [interp alias {} ::continue] [interp alias {} ::open] [info commands ::break]]\n"
proc loop {} {
    set out {}
    foreach i {1 2 3 4} {
        if {$i == 2} continue
        if {$i == 4} break
        lappend out $i
    }
    return $out
}
n_say "in a procedure: [loop]\n"
foreach name {break help handler send delete n_send frob} {
    set c [lsearch -inline -index 1 [::noosa::commands] $name]
    n_say "$name: [dict get $c kind], completes [dict get $c complete]\n"
}
screen focus next
EOF2
batch commands -n -x commands.tcl
check commands

# An error names the command typed (by its name, for an alias), once,
# however deep inside it the error came from; kill, continue and the
# like said "the program is not running" alone.
batch named -n -e kill -e k -e cont -e c -e stop -e detach -e 'goto 3' \
    -e 'profile show freq -sort up' -e 'info events -x' "$NT"
for line in 'kill: the program is not running' \
    'continue: the program is not running' 'stop: the program is not running' \
    'detach: the program is not running' 'goto: not a recording' \
    'profile: bad sort key "up"' \
    'info events: expected -v, got "-x"'; do
    if grep -q -F -e "error: $line" named.out named.err; then
        echo "ok: named: $line"
    else
        fail "named: no \"error: $line\""
    fi
done
if [ "$(grep -c '^error: kill: the program is not running$' named.out)" = 2 ] &&
    [ "$(grep -c '^error: continue: the program is not running$' named.out)" = 2 ]; then
    echo "ok: aliases name their command"
else
    fail "aliases: $(cat named.out)"
fi

# gdb's words that came to work keep gdb's messages, as gdb words them
# (print's not named; its own "not stopped" as tests/debug/errors.sh has it)
batch gdbwords -n -e 'print 1 + 2' -e 'whatis x' "$NT"
if [ "$(grep -c '^error: the program is not stopped' gdbwords.out)" = 2 ] &&
    ! grep -q -e '^error: print:' -e '^error: whatis:' gdbwords.out; then
    echo "ok: print and whatis say gdb's messages alone"
else
    fail "gdb's messages: $(cat gdbwords.out gdbwords.err)"
fi

finish
