#!/bin/sh
# SPDX-License-Identifier: MIT
# startup.sh - start-up files, with HOME and XDG_CONFIG_HOME in the test's
# own directories and the test's directory as the current one:
# $XDG_CONFIG_HOME/noosa/init.tcl (~/.config/noosa/init.tcl without
# XDG_CONFIG_HOME), ~/.noosarc, then ./.noosarc, each read once; what they
# define is there for the script; an error in one is reported with its
# file and line and noosa goes on (and does not fail); -n reads none.
# They are read once the program's interface is known, so that
# n_provided, n(events) and event names work in them.
# Like -x files, start-up files are run command by command: a command that
# fails is reported and the next one runs.
. "$srcdir/tests/noosa/lib.sh"

mkdir -p "$XDG_CONFIG_HOME/noosa" "$HOME/.config/noosa" here
cat >"$XDG_CONFIG_HOME/noosa/init.tcl" <<'EOF2'
n_say "XDG init.tcl\n"
proc from_xdg {} { return "defined in init.tcl" }
EOF2
cat >"$HOME/.config/noosa/init.tcl" <<'EOF2'
n_say "~/.config/noosa/init.tcl\n"
EOF2
cat >"$HOME/.noosarc" <<'EOF2'
n_say "~/.noosarc\n"
n_say "provides nt [n_provided nt], tree [n_provided tree]; [llength $n(events)] events\n"
handler load ~/handlers.tcl
EOF2
cat >here/.noosarc <<'EOF2'
n_say "./.noosarc\n"
break tick if {$n == 2}
EOF2
cat >"$HOME/handlers.tcl" <<'EOF2'
n_install_handler {tick 0 from_rc 1 {n_say "tick $n\n"}}
EOF2

cd here
batch startup-order -e 'n_say "script: [from_xdg]\n"' -e 'run > order-prog.out' \
    "$NT" ticks 3
check startup-order
batch startup-none -n -e 'n_say "script\n"' -e 'info breakpoints' \
    -e 'handler list' "$NT" ticks 3
check startup-none
# Without a program, before the first command.
batch startup-no-program -e 'n_say "script\n"' -e 'handler list'
check startup-no-program

# Without XDG_CONFIG_HOME, ~/.config/noosa/init.tcl.  Run in the home
# directory, ~/.noosarc is ./.noosarc: it is read once.
cd "$HOME"
env -u XDG_CONFIG_HOME "$NOOSA" -b -e 'n_say "script\n"' "$NT" ticks 1 \
    >"$WORK/startup-home.out" 2>"$WORK/startup-home.err" </dev/null
echo $? >"$WORK/startup-home.rc"
cd "$WORK"
check startup-home

# Errors: a missing brace, a bad expression, an unknown command, each
# reported with file and line; the commands after them and the other
# files are read, and the script runs and succeeds.
printf '%s\n' 'n_say "XDG init.tcl\n"' 'set a {' >"$XDG_CONFIG_HOME/noosa/init.tcl"
printf '%s\n' 'n_say "~/.noosarc\n"' '' 'n_say [expr {1 +}]' 'n_say "after the error\n"' \
    >"$HOME/.noosarc"
printf '%s\n' 'n_say "./.noosarc\n"' 'proc p {} {' '  return 1' '}' 'frobnicate' \
    'n_install_handler {nosuch 0 h 1 {n_say hi}}' >here/.noosarc
cd here
batch startup-errors -e 'n_say "script runs\n"' -e 'run > errors-prog.out' "$NT" ticks 1
check startup-errors

finish
