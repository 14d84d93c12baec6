#!/bin/sh
# SPDX-License-Identifier: MIT
# cli.sh - noosa's command line and batch mode: --help, --version, bad
# options; commands from -x files and -e strings in order, else from
# standard input (a command may span lines); the exit status (the
# program's, 128+N for a signal, 1 when a command failed, quit N; not the
# program's when noosa killed it); and programs that cannot be monitored,
# each with its message: none given, missing, not executable, a
# directory, without the runtime, and with a runtime that speaks another
# protocol major (both versions named).
. "$srcdir/tests/noosa/lib.sh"

if [ -n "$PROTO" ]; then
    echo "ok: --version names the protocol ($PROTO)"
else
    fail "--version: $("$NOOSA" --version)"
fi

"$NOOSA" --help >help.out 2>help.err
rc=$?
if [ $rc -eq 0 ] && [ ! -s help.err ] && head -1 help.out | grep -q '^Usage: noosa ' &&
    grep -q -e '--batch' help.out && grep -q 'Batch exit status' help.out; then
    echo "ok: --help"
else
    fail "--help: status $rc"
    cat help.out help.err
fi

# first NAME STATUS LINE: run NAME exited with STATUS and the first line
# of its standard error is LINE.
first() {
    got=$(head -1 "$WORK/$1.err")
    if [ "$(cat "$WORK/$1.rc")" = "$2" ] && [ "$got" = "$3" ]; then
        echo "ok: $1"
    else
        fail "$1: status $(cat "$WORK/$1.rc"), first line of stderr \"$got\";" \
            "expected $2 and \"$3\""
    fi
}

batch bad-option --frobnicate "$NT"
first bad-option 2 "$NOOSA: unrecognized option '--frobnicate'"
batch no-arg -x
first no-arg 2 "$NOOSA: option requires an argument -- 'x'"
batch bad-lines --lines=lots "$NT"
first bad-lines 2 'noosa: --lines wants a number up to 100000000, got "lots"'
"$NOOSA" -n </dev/null >no-program.out 2>no-program.err
echo $? >no-program.rc
first no-program 2 "noosa: no program given"

# Programs that cannot be run or monitored.
touch not-exec
chmod a-x not-exec
mkdir -p a-dir
batch missing -n "$WORK/no-such-program"
check missing
batch not-exec -n "$WORK/not-exec"
check not-exec
batch a-dir -n "$WORK/a-dir"
check a-dir
batch no-program-run -n -e run -e 'info program'
check no-program-run
batch no-runtime -n -e 'info events' -e 'run > no-runtime-prog.out' \
    "$abs_top_builddir/tests/noosa/plain"
check no-runtime
# A runtime that speaks protocol major 99: noosa says so, naming both
# versions, when it learns the interface and when the program runs; the
# program then runs unmonitored.
batch version -n -e 'break tick' -e 'run > version-prog.out' \
    -e 'info program' "$NT99" ticks 2
check version
same version-prog version-prog.out "step 1
step 2"

# Exit statuses.
batch exit-7 -n -e 'run > /dev/null' "$NT" exit 7
check exit-7
batch exit-signal -n -e 'run > /dev/null' "$NT" signal
check exit-signal
batch exit-failed -n -e 'run > /dev/null' -e 'frobnicate' "$NT" exit 0
check exit-failed
batch exit-quit -n -e 'run > /dev/null' -e 'quit 5' -e 'n_say "not run\n"' "$NT" exit 3
check exit-quit
batch exit-killed -n -e 'break tick' -e 'run > /dev/null' -e kill "$NT" exit 3
check exit-killed
batch exit-live -n -e 'break tick' -e 'run > /dev/null' "$NT" exit 3
check exit-live

# NOOSA_LIBRARY: the Tcl library and browsers come from there; without
# noosa.tcl noosa says so and stops.
mkdir -p lib/browsers
cp -r "$abs_top_srcdir/tcl" lib/
cp "$TESTS_SRC/browsers/Cell.tcl" lib/browsers/
(
    export NOOSA_LIBRARY="$WORK/lib"
    batch library -n -e 'n_say "$n(library): [lsort [info commands n_*_open]]\n"'
    NOOSA_LIBRARY=$WORK/no-such-library
    batch no-library -n -e 'n_say hi'
)
check library
check no-library

# run: new arguments replace the old ones and stay; redirections are for
# one run.
batch run-args -n -e 'run ticks 2 > run-args-1.out 2> run-args-1.err' \
    -e 'info program' -e 'run > run-args-2.out' -e 'info program' \
    -e 'run < /no/such/file' "$NT" exit 9
check run-args
same run-args-1 run-args-1.out "step 1
step 2"
same run-args-2 run-args-2.out "step 1
step 2"

# -x and -e in the order given, standard input unread; then commands from
# standard input, one spanning three lines, errors with their lines.
printf '%s\n' 'n_say "from file 1\n"' >one.tcl
printf '%s\n' 'n_say "from file 2\n"' >two.tcl
echo 'n_say "from standard input\n"' >stdin.tcl
stdin=stdin.tcl
batch script-order -n -x one.tcl -e 'n_say "from -e 1\n"' -x two.tcl \
    -e 'n_say "from -e 2\n"' "$NT"
check script-order
cat >stdin.tcl <<'EOF2'
n_say "one\n"
proc two {} {
    return two
}
n_say "[two]\n"
frobnicate
run > /dev/null
EOF2
batch stdin -n "$NT" exit 4
check stdin
stdin=/dev/null

finish
