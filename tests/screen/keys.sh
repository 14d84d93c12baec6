#!/bin/sh
# SPDX-License-Identifier: MIT
#
# keys.sh - keys and the command line: bindings made by -e commands at
# start and by `bind` (with their help in the F1 window and in `help`), a
# bad key name refused, Alt keys, tab completion of commands, events,
# operations, handler names, info's subcommands (noosa's alone), other
# commands' subcommands, a condition's variables and file names, search
# in the transcript
# (/ n N ?, wrapping, not found), vi editing, C-c clearing the line,
# history kept between runs (~/.noosa_history,
# $XDG_STATE_HOME/noosa/history), colours and NO_COLOR.

. "$srcdir/tests/screen/lib.sh"

: > "$work/some-handlers.tcl"
start 100 30 -e 'bind F8 {screen message "F8 was pressed"} {a test key}' \
    -e 'bind M-z {screen message "alt z"}' "$calc" "$examples/demo.calc"
wait_for "(noosa)"
wait_for "(noosa) bind F8"
keys F8
wait_for "F8 was pressed"
keys M-z
wait_for "alt z"
cmd 'bind F11 {screen message "F11 too"}'
keys F11
wait_for "F11 too"
cmd 'bind F99 x'
wait_for 'error: bind: unknown key "F99"'
cmd 'bind C-c'
wait_for "screen interrupt"
# F1: the keys as bound now, and the commands
keys F1
wait_for "Keys (bind KEY SCRIPT ?HELP? rebinds them"
wait_for "F8       a test key"
wait_for "F11      screen message"
# page down to the commands
n=0
until has_text "Commands (help COMMAND for more):"; do
    [ $n -lt 20 ] || fail "no commands in the help window"
    keys PageDown
    sleep 0.2
    n=$((n + 1))
done
keys Escape
wait_gone "Keys (bind KEY SCRIPT"
cmd 'help'
# a long output shows its start; End shows the rest, typed at the
# command line as the hint says (it only moved the cursor there)
wait_for "more below (End, PageDown)"
keys End
wait_for "Keys (F1 shows them all; bind rebinds them):"
wait_for "  F8       a test key"
wait_gone "more below (End"
# End in the middle of a line typed moves the cursor, as ever
type_text 'abc'
keys Left Left End
type_text 'd'
wait_row 28 "(noosa) abcd"
keys C-c
wait_for "F1:help"

# completion: commands, events, operations, files; what a command's
# arguments complete to is its entry's (an alias's is its command's)
type_text 'brea'
keys Tab
wait_row 28 "(noosa) break"
type_text 'binding_m'
keys Tab
wait_row 28 "(noosa) break binding_made"
keys C-c
type_text 'b binding_m'
keys Tab
wait_row 28 "(noosa) b binding_made"
keys C-c
type_text 'hel'
keys Tab
wait_row 28 "(noosa) help"
type_text 'hand'
keys Tab
wait_row 28 "(noosa) help handler"
keys C-c
type_text 'screen foc'
keys Tab
wait_row 28 "(noosa) screen focus"
keys C-c
wait_row_re 28 '^\(noosa\) *$'
type_text 'send get_str'
keys Tab
wait_row 28 "(noosa) send get_string"
keys C-c
type_text 'handler load some-h'
keys Tab
wait_row 28 "(noosa) handler load some-handlers.tcl"
keys C-c
type_text 'handler a'
keys Tab
wait_row 28 "(noosa) handler add"
keys C-c
cmd 'handler add printed my_handler {}'
type_text 'handler disable printed my_h'
keys Tab
wait_row 28 "(noosa) handler disable printed my_handler"
keys C-c
# info: noosa's subcommands only (not Tcl's info exists, nor gdb's words
# that only say what to use instead), gdb's info frame and info locals
# among them, then a subcommand's own arguments
type_text 'info '
keys Tab Tab
wait_for "aspects"
screen_text | grep -A3 'aspects  ' >"$work/info-tab.txt"
grep -E -q '(^| )frame( |$)' "$work/info-tab.txt" &&
    grep -E -q '(^| )locals( |$)' "$work/info-tab.txt" ||
    fail "Tab after info lacks info frame or info locals"
if grep -E -q '(^| )(exists|commands|tclversion|registers|threads|stack)( |$)' "$work/info-tab.txt"; then
    fail "Tab after info lists Tcl's subcommands or gdb's words"
    cat "$work/info-tab.txt"
fi
keys C-c
type_text 'info han'
keys Tab
wait_row 28 "(noosa) info handlers"
type_text 'binding_m'
keys Tab
wait_row 28 "(noosa) info handlers binding_made"
keys C-c
# the subcommands of profile, question, record, trace, errors (they
# completed to nothing), a subcommand's words, and a condition's
# variables: the event's parameters
type_text 'profile '
keys Tab Tab
wait_for "export    freq      get       print     show      threads   time      timeline"
keys C-c
type_text 'profile fr'
keys Tab
wait_row 28 "(noosa) profile freq"
type_text 'of'
keys Tab
wait_row 28 "(noosa) profile freq off"
keys C-c
type_text 'question sh'
keys Tab
wait_row 28 "(noosa) question show"
keys C-c
type_text 'record sto'
keys Tab
wait_row 28 "(noosa) record stop"
keys C-c
type_text 'trace of'
keys Tab
wait_row 28 "(noosa) trace off"
keys C-c
type_text 'errors te'
keys Tab
wait_row 28 "(noosa) errors terminate"
keys C-c
type_text 'break binding_made if {$i'
keys Tab
wait_row 28 '(noosa) break binding_made if {$idn'
keys C-c
type_text 'handler add binding_made h {} -if {$'
keys Tab Tab
wait_for '$env       $idn       $n_ename   $n_pid     $n_thread  $n_time    $v'
keys C-c

# search: 100 numbered lines, then / forward (from the top of the screen,
# wrapping round), n again, N back, ? backward, and a pattern not there
cmd 'for {set i 0} {$i < 100} {incr i} {n_say "number $i\n"}'
wait_for "more below (End, PageDown)"
keys F6 F6 End
wait_for "number 99"
wait_for "Esc back"
keys /
wait_row 28 "/"
type_text "number 7"
keys Enter
wait_for "Search wrapped round."
wait_line "number 7"
keys n
wait_gone "Search wrapped round."
wait_line "number 70"
keys N
wait_line "number 7"
keys N
wait_for "Search wrapped round."
wait_line "number 79"
# backward from the bottom of the screen: the nearest above
keys ?
type_text "number 1"
keys Enter
wait_line "number 19"
keys /
type_text "no such thing"
keys Enter
wait_for "Not found: no such thing"
keys Escape
wait_for "F1:help"

# vi editing
cmd 'screen editing-mode vi'
type_text 'set y abc'
keys Escape
keys 0 x Enter
wait_for 'invalid command name "et"'
cmd 'screen editing-mode emacs'
cmd 'set remembered [expr {40 + 2}]'
wait_for "42"

# colours: a value is cyan and underlined
cmd 'n_say "a Value:0x10 b\n"'
wait_for "a Value:0x10 b"
T capture-pane -e -p -t =t: | grep -q "$(printf '\033')\[36mValue:0x10" ||
    fail "the value is not in colour"
keys F10
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
grep -qxF 'set remembered [expr {40 + 2}]' "$work/home/.noosa_history" ||
    fail "no history in ~/.noosa_history"

# the next run remembers; NO_COLOR: attributes, no colours
NOOSA_ENV="NO_COLOR=1"
start 100 30 "$calc" "$examples/demo.calc"
wait_for "(noosa)"
keys Up
wait_row 28 '(noosa) n_say "a Value:0x10 b\n"'
keys Up
wait_row 28 "(noosa) set remembered [expr {40 + 2}]"
keys C-c
cmd 'n_say "a Value:0x10 b\n"'
wait_for "a Value:0x10 b"
T capture-pane -e -p -t =t: > "$work/colours"
grep -q "$(printf '\033')\[4mValue:0x10" "$work/colours" ||
    fail "the value is not underlined"
grep -q "$(printf '\033')\[3[0-7]m" "$work/colours" &&
    fail "colours with NO_COLOR set"
keys F10
wait_exit

# $XDG_STATE_HOME/noosa/history
NOOSA_ENV="XDG_STATE_HOME='$work/state'"
start 100 30 "$calc" "$examples/demo.calc"
wait_for "(noosa)"
cmd 'set in_xdg 1'
# help screen names every window screen window takes (it left out
# questions)
cmd 'catch {screen window a b} m; n_say "[expr {[string first [string range $m [string first ? $m] end-1] [dict get [lsearch -inline -index 1 [::noosa::commands] screen] help]] >= 0 ? "help names every window" : "help misses a window"}]\n"'
wait_for "help names every window"
keys F10
wait_exit
grep -qxF 'set in_xdg 1' "$work/state/noosa/history" ||
    fail "no history in \$XDG_STATE_HOME/noosa/history"
check_asan
echo "ok"
