#!/bin/sh
# SPDX-License-Identifier: MIT
#
# handlers.sh - the handlers window: the events with their marks, a
# handler's code edited in $EDITOR (a script here that rewrites the file)
# and in the inline editor, a new handler, enable and disable, rename,
# save to a file, delete (asked), load the file back; a handler with a
# condition, which the window shows; each action echoed as the `handler`
# command it runs, and the edited handler running.

. "$srcdir/tests/screen/lib.sh"

# the "editor": rewrites the code it is given, keeping a copy of what it
# was given in the test's home (nothing beside noosa's file, which noosa
# removes)
cat > "$work/editor.sh" <<'EOS'
#!/bin/sh
cat "$1" > "$HOME/edited-before"
printf '%s\n' 'n_say "edited handler saw: $text\n"' > "$1"
EOS
chmod +x "$work/editor.sh"
NOOSA_ENV="EDITOR='$work/editor.sh'"

start 100 40 "$calc" "$examples/demo.calc"
wait_for "(noosa)"
cmd 'handler add printed guarded {n_say "guarded saw $text\n"} -if {$text eq "50"}'
cmd 'handler add printed show {n_say "original: $text\n"}'
keys F2
wait_for "Handlers: events"
wait_for "*  printed"
# the last events are printed and runtime_error: End, then up one
keys End Up
wait_for "Handlers of printed"
wait_for "[x] show"
wait_for 'printed(str text) - The program has printed a line'
wait_for '  text: The line, without its newline'
wait_for 'n_say "original: $text\n"'

# a handler with a condition: marked, with its condition and where it runs
wait_for "[x] guarded (if)"
keys Right Down
wait_for 'Runs only if $text eq "50"'
wait_for '  condition runs in the program'
wait_for 'n_say "guarded saw $text\n"'
keys Up Left
wait_for 'Code of show:'

# edit in $EDITOR
keys Right e
wait_for 'The code of show for printed is changed.'
wait_for '(noosa) handler body printed show {n_say "edited handler saw: $text\n"}'
grep -qF 'n_say "original: $text\n"' "$work/home/edited-before" ||
    fail "the editor was not given the handler's code"
wait_for 'Code of show:'

# the inline editor: add a line, save
keys i
wait_for "Editing show of printed"
keys End Enter
type_text 'n_say "inline line\n"'
wait_for "(changed)"
keys C-s
wait_for 'The code of show for printed is changed.'
wait_for 'n_say "inline line\n"}'
# cancelled: nothing changes
keys i
wait_for "Editing show of printed"
type_text 'garbage'
keys Escape
wait_for "Editing cancelled"

# a new handler (it opens in the editor), then disable it
keys n
wait_for "Name of the new handler:"
type_text "second"
keys Enter
wait_for "(noosa) handler add printed second {}"
wait_for '(noosa) handler body printed second {n_say "edited handler saw: $text\n"}'
wait_for "[x] second"
keys Home
wait_for "[x] second"
keys Space
wait_for "(noosa) handler disable printed second"
wait_for "[ ] second"
keys Space
wait_for "(noosa) handler enable printed second"
keys r
wait_for "Rename to: second"
keys BSpace BSpace BSpace BSpace BSpace BSpace
type_text "third"
keys Enter
wait_for "(noosa) handler rename printed second third"
wait_for "[x] third"

# save (the prompt offers noosa.handlers), then delete and load back
keys s
wait_for "Save the handlers to: noosa.handlers"
keys Enter
wait_for "Handlers saved to noosa.handlers."
[ -f "$work/noosa.handlers" ] || fail "no handler file written"
grep -qF 'n_install_handler {printed 0 third 1 {n_say "edited handler saw: $text\n"}}' \
    "$work/noosa.handlers" || fail "the handler file lacks the new handler"
grep -qF 'inline line' "$work/noosa.handlers" ||
    fail "the handler file lacks the inline edit"
keys d
wait_for "Remove handler third of printed? (y or n)"
keys y
wait_for "(noosa) handler remove printed third"
wait_gone "[x] third"
keys l
wait_for "Load handlers from:"
type_text "noosa.handlers"
keys Enter
wait_for "(noosa) handler load noosa.handlers"
wait_for "[x] third"

# b sets a breakpoint on the chosen event; the handlers run
keys b
wait_for "(noosa) break printed"
wait_for "*B printed"
keys Escape
wait_gone "Handlers: events"
keys F5
wait_row 0 'stopped at breakpoint 1 for event "printed"'
wait_for "edited handler saw: 50"
wait_for "guarded saw 50"
wait_for "inline line"
cmd 'quit'
wait_for "kill it and quit?"
keys y
wait_exit
[ "$status" = 0 ] || fail "noosa exited with status $status"
check_asan
echo "ok"
