#!/bin/sh
# SPDX-License-Identifier: MIT
# browse.sh - values in the transcript and the browsers that open them,
# through `noosa --batch`: `values` lists the browsable values with their
# types' descriptions, `open N` runs n_TYPE_open on the Nth; browsers in
# Eli's style that ask the program (n_send) and print nested values with
# n_say_val, which can be opened in turn; browsers loaded from -B
# directories, ~/.noosa/browsers and $XDG_CONFIG_HOME/noosa/browsers;
# n_say_val with and without n_TYPE_say; calc's browsers on calc.
. "$srcdir/tests/noosa/lib.sh"

# nt's list cells, with the browser of tests/noosa/browsers (-B).
cat >cells.tcl <<'EOF2'
break tick
run > cells-prog.out
n_say "the list: "
n_say_val Cell [n_send list_head]
n_say ", no browser: "
n_say_val Plain 12
n_say ", null: "
n_say_val Cell 0
values
open 1
open 3
values 4
open 6
open 2
open 99
open x
continue
open 1
EOF2
batch cells -n -B "$TESTS_SRC/browsers" -x cells.tcl "$NT" list 3
check cells

# Browsers from the user's directories (start-up files are read, and
# there are none).  The one in ~/.noosa/browsers is Eli's style too; the
# one in $XDG_CONFIG_HOME/noosa/browsers makes a type of its own.
mkdir -p "$HOME/.noosa/browsers" "$XDG_CONFIG_HOME/noosa/browsers"
cp "$TESTS_SRC/browsers/Cell.tcl" "$HOME/.noosa/browsers/"
cat >"$XDG_CONFIG_HOME/noosa/browsers/Step.tcl" <<'EOF2'
set n(Step,desc) "a step number"
proc n_Step_open {text v} {
    n_say "$text: step $v, plus 100 is [n_send add $v 100]\n"
}
EOF2
cat >user.tcl <<'EOF2'
break tick
run > user-prog.out
n_say_val Cell [n_send list_head]
n_say " Step:$ev(n)\n"
values
open 2
open 1
EOF2
batch user -x user.tcl "$NT" list 1
check user

# calc's browsers: a call, the function called, its environment, the
# nodes below the call.
cat >calc.tcl <<'EOF2'
break call_entered
run > calc-prog.out
values
open 1
open 2
values 3
open 8
open 4
EOF2
batch calc-browse -n -x calc.tcl "$CALC" "$TESTS_SRC/small.calc"
check calc-browse

finish
