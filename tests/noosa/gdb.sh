#!/bin/sh
# SPDX-License-Identifier: MIT
# gdb.sh - gdb's words at the prompt: each one noosa has no command for
# (every entry ::noosa::commands calls "instead", and its aliases) answers
# with exactly one line, "error: NAME: ...", and does nothing else (list
# printed nothing and info locals nothing, info frame printed 1: Tcl
# answered); info at the prompt is noosa's alone (info frame and info
# locals the selected frame's, gdb's), with its subcommands' own messages
# (info events a b c named ::noosa::cmd::info), while Tcl's info and list
# still work inside procedures and handlers and as ::info.
. "$srcdir/tests/noosa/lib.sh"
. "$abs_top_srcdir/tests/lib/batch-run.sh"

# The words, one run each: one line of output, an error.
"$NOOSA" -b -n -e 'foreach c [::noosa::commands] {
    if {[dict get $c kind] eq "instead"} {
        puts [dict get $c name]
        foreach a [dict get $c aliases] { puts $a }
    }
}' >words.txt
n=$(wc -l <words.txt)
[ "$n" -ge 40 ] || fail "only $n words say what to use instead"
while IFS= read -r w; do
    batch word -e "$w 1" "$NT" ticks 2
    lines=$(cat word.out word.err | wc -l)
    if [ "$lines" -eq 1 ] && [ "$(cat word.rc)" = 1 ] &&
        grep -E -q '^error: [a-z -]+: [^ ].{10,}$' word.out word.err; then
        :
    else
        fail "$w: $lines lines, status $(cat word.rc):"
        cat word.out word.err
    fi
done <words.txt
echo "ok: $n words answer with one line each"

batch top -e 'list a b' -e 'info locals' -e 'info frame' -e 'i fr' \
    -e 'info events a b c' -e 'info events -x' -e 'info tclversion' \
    -e 'info nothing' -e 'info pro' -e 'puts "::info [::info tclversion]"' \
    -e 'help info' -e 'help info events' -e 'help next' "$NT" ticks 2
status top 1
has top '^error: list: noosa shows events, not source lines'
has top '^error: info locals: No stack \(the program is not stopped'
has top '^error: info frame: No stack \(the program is not stopped'
count top 2 '^error: info frame: '
has top '^error: wrong # args: should be "info events \?-v\?"$'
has top '^error: info events: expected -v, got "-x"$'
# The list is exactly noosa's subcommands in name order: those of its
# command table (areas add theirs), which hold at least the ones below,
# and none of Tcl's that noosa lacks (Tcl's read in an interpreter of
# its own, whose info noosa has not touched).
"$NOOSA" -b -n -e 'apply {{} {
    set n {}
    foreach c [::noosa::commands] {
        if {[dict get $c kind] eq "subcommand" && ![dict get $c hidden] &&
            [string match "info *" [dict get $c name]]} {
            lappend n [lindex [dict get $c name] 1]
        }
    }
    set t [interp create]
    set tcl [dict keys [$t eval {namespace ensemble configure ::info -map}]]
    interp delete $t
    puts [join [lsort $n] {, }]
    puts [lsort [lmap s $tcl { if {$s in $n} continue; set s }]]
    puts [join [lsort [lsearch -all -inline -glob $n pro*]] {, }]
}}' >info-subs.txt
subs=$(sed -n 1p info-subs.txt)
for s in args aspects breakpoints display events frame handlers locals \
    operations processes program; do
    case ", $subs, " in
    *", $s, "*) ;;
    *) fail "info's table lacks $s: $subs" ;;
    esac
done
tcl_only=$(sed -n 2p info-subs.txt)
for s in exists tclversion commands body level; do
    case " $tcl_only " in
    *" $s "*) ;;
    *) fail "$s is not among Tcl's info subcommands noosa lacks: $tcl_only" ;;
    esac
done
has top "^error: info: unknown subcommand \"tclversion\": noosa's are $subs; Tcl's own info is ::info\$"
for s in $tcl_only; do
    count top 0 "^error: info: (unknown|ambiguous) subcommand .*[ ,]$s[,;]"
done
has top "^error: info: ambiguous subcommand \"pro\": it begins $(sed -n 3p info-subs.txt)\$"
has top '^::info 8\.[0-9]+$'
has top '^Subcommands \(help info SUBCOMMAND for more\):$'
has top '^  info events \?-v\?  +the program.s events$'
has top '^The events of the program.s interface by aspect'
has top '^next: noosa goes from event to event'
count top 0 'noosa::cmd'
has top '^  info locals  +the selected frame.s local variables$'
count top 0 '^  info (registers|threads|stack) '

# Tcl's own inside procedures, handlers and brackets; noosa's info
# subcommands in scripts too (Tcl's info lacks them)
cat >inside.tcl <<'EOF2'
proc f {a} { return "[info level] [info args f] [list x $a] [llength [info locals]]" }
n_say "f: [f 5]\n"
handler add tick h {n_say "in a handler: [info exists n] [list $n [info level]]\n"}
proc g {} { info events }
g
run > inside-prog.out
EOF2
batch inside -x inside.tcl "$NT" ticks 1
status inside 0
has inside '^f: 1 a x 5 1$'
has inside '^in a handler: 1 1 1$'
has inside '^aspect nt:$'

finish
