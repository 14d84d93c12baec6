#!/bin/sh
# SPDX-License-Identifier: MIT
# data.sh - values from the program are data, never code: string
# parameters holding Tcl code ([exec touch FILE], $x, unbalanced braces,
# a backslash, a quote) reach handlers, conditions, the ev array, the
# transcript and operations literally, and nothing they hold is ever run
# (FILE is never created).
. "$srcdir/tests/noosa/lib.sh"

cat >data.tcl <<'EOF2'
set x "the variable x"
handler add said show {n_say "handler: <$text> ([string length $text] chars)\n"}
break said if {[string first "\[" $text] >= 0 || $text eq "\}\}\{"}
run > data-prog.out
n_say "ev(text): <$ev(text)>\n"
n_say "back from the program: <[lindex [n_send pieces $ev(text)] 0]>\n"
send pieces $ev(text)
continue
n_say "ev(text): <$ev(text)>\n"
continue
EOF2
batch data -n -x data.tcl "$NT" say '[exec touch PWNED]' '$x' 'a { b' \
    '}}{' 'back\slash' 'a "quote' '[incr x]'
check data
if [ -e PWNED ]; then
    fail "a string from the program was run as code: PWNED exists"
else
    echo "ok: no string from the program was run"
fi

finish
