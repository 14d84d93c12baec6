#!/bin/sh
# SPDX-License-Identifier: MIT
# processes.sh - processes the program creates are not followed (yet):
# the transcript says once that each was created, they are never stopped
# nor killed by noosa, and their events go nowhere: a daemon made by a
# double fork with events on outlives noosa and does its work.  A program
# that executes another is still watched to its end, and the transcript
# says that monitoring ended at the exec.
. "$srcdir/tests/load/lib.sh"

rm -f "$WORK/daemon.flag"
batch daemon -e 'trace on' -e run "$LT" daemon 2 "$WORK/daemon.flag"
status daemon 0
count daemon 1 '^Process [0-9]+ created process [0-9]+, which is not followed\.$'
has daemon '^daemon: started$'
has daemon 'tick i="1" label="after the fork"'
count daemon 0 'in the (child|daemon)'
has daemon '^Program exited with status 0\.$'
# the daemon writes its file two seconds after it started
i=0
while [ ! -s "$WORK/daemon.flag" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ "$(cat "$WORK/daemon.flag" 2>/dev/null)" = alive ]; then
    echo "ok: the daemon lived on"
else
    fail "the daemon did not write its file"
fi

# The same with the event a stop: noosa's breakpoint concerns the
# program, not its children.
rm -f "$WORK/daemon.flag"
batch daemon-break -e 'break tick' -e run -e cont -e cont \
    "$LT" daemon 1 "$WORK/daemon.flag"
status daemon-break 0
count daemon-break 2 '^Stopped at breakpoint 1'
count daemon-break 1 'created process [0-9]+, which is not followed'
i=0
while [ ! -s "$WORK/daemon.flag" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ "$(cat "$WORK/daemon.flag" 2>/dev/null)" = alive ]; then
    echo "ok: the daemon lived on"
else
    fail "the daemon (break) did not write its file"
fi

batch exec -e 'trace on' -e run -e 'puts "status $n(status)"' \
    "$LT" exec /bin/echo hello from echo
status exec 0
has exec 'tick i="0" label="before the exec"'
count exec 1 '^Process [0-9]+ executed /(usr/)?bin/echo: monitoring ended at the exec\.$'
has exec '^hello from echo$'
has exec '^Program exited with status 0\.$'

# An exec that fails is no exec: lt goes on monitored to its end (and
# ends with status 127, which is batch mode's too).
batch exec-missing -e 'trace on' -e run "$LT" exec /nonexistent/program
status exec-missing 127
has exec-missing 'exit$'
count exec-missing 0 'executed'
has exec-missing '^Program exited with status 127\.$'
finish
