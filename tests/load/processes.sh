#!/bin/sh
# SPDX-License-Identifier: MIT
# processes.sh - processes the program creates.  By default (follow-fork
# parent) they are not followed: the transcript says once that each was
# created, they are never stopped nor killed by noosa, and their events go
# nowhere: a daemon made by a double fork with events on outlives noosa
# and does its work.  With follow-fork child, noosa lets the parent go on
# unmonitored and monitors the child from the moment fork() returns in
# it: every event of the child is seen, through a chain of forks too, and
# breakpoints stop it; a child made by vfork is never followed.  A
# program that executes another linked with libdapto is monitored on with
# the new interface; one that executes another program is still watched
# to its end, and the transcript says that monitoring ended at the exec.
. "$srcdir/tests/load/lib.sh"

# later NAME REGEX: the parent let go by noosa may write REGEX's line
# after noosa has ended: wait for it a while, then check.
later() {
    k=0
    while ! grep -E -q "$2" "$WORK/$1.out" && [ $k -lt 100 ]; do
        sleep 0.05
        k=$((k + 1))
    done
    has "$1" "$2"
}

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

# follow-fork child: the first of four workers is followed, each of its
# 20000 ticks counted, none of another process; the parent (unmonitored)
# waits for all four and says so.
batch follow -e 'follow-fork child' -e 'puts "mode [follow-fork]"' \
    -e 'array set w {}' \
    -e 'handler add tick h {global w; incr w($label)}' -e run \
    -e 'foreach k [lsort [array names w]] {puts "$k: $w($k)"}' \
    -e 'info processes' "$LT" workers 4 20000
status follow 0
has follow '^mode child$'
count follow 1 '^Process [0-9]+ created process [0-9]+: following it; process [0-9]+ goes on unmonitored\.$'
has follow '^worker 0: 20000$'
count follow 1 '^worker [0-9]: '
has follow '^Program exited with status 0\.$'
later follow '^workers: 4 ended$'
has follow '^Process +Parent'
has follow '^[0-9]+ +- +let go, unmonitored \(its child followed\)$'
has follow '^[0-9]+ +[0-9]+ +exited$'

# A chain: the child forks the daemon and exits at once; noosa follows
# the daemon, which ticks ten times and writes its file.
rm -f "$WORK/daemon.flag"
batch follow-chain -e 'follow-fork child' -e 'trace on' -e run \
    -e 'info processes' "$LT" daemon 1 "$WORK/daemon.flag"
status follow-chain 0
has follow-chain 'tick i="0" label="before the fork"'
count follow-chain 1 'label="in the child"'
count follow-chain 10 'label="in the daemon"'
count follow-chain 1 '^Process [0-9]+ created process [0-9]+ and exited: following the child\.$'
count follow-chain 3 '^init pid='
count follow-chain 2 '^[0-9]+ +[0-9]+ +exited$'
if [ "$(cat "$WORK/daemon.flag" 2>/dev/null)" = alive ]; then
    echo "ok: the daemon followed did its work"
else
    fail "follow-chain: the daemon did not write its file"
fi

# A breakpoint stops the child followed; the program is the child.
batch follow-break -e 'follow-fork child' -e 'break tick' -e run \
    -e 'info program' -e continue -e continue "$LT" workers 2 2
status follow-break 0
count follow-break 2 '^Stopped at breakpoint 1 for event "tick": i=[01] label="worker 0"$'
child=$(sed -n 's/^Process [0-9]* created process \([0-9]*\): following it.*/\1/p' \
    "$WORK/follow-break.out")
has follow-break "State: stopped at breakpoint 1 for event \"tick\", pid ${child:-none}\$"
later follow-break '^workers: 2 ended$'

# vfork: never followed, said so; the program goes on monitored.
batch follow-vfork -e 'follow-fork child' -e 'trace on' -e run "$LT" vfork
status follow-vfork 0
count follow-vfork 1 'which is not followed: it was created by vfork and shares its parent.s memory until it executes a program\.$'
has follow-vfork 'label="after vfork"'

# Bad uses.
batch follow-bad -e 'follow-fork both' -e 'follow-fork sideways' \
    -e 'follow-fork child extra' -e 'puts "mode [follow-fork]"' \
    -e 'info processes'
has follow-bad 'follow-fork both: noosa monitors one process at a time; follow the parent or the child'
has follow-bad 'bad follow-fork mode "sideways": must be parent, child, or both'
has follow-bad 'wrong # args: should be "follow-fork \?parent\|child\?"'
has follow-bad '^mode parent$'
has follow-bad '^No process yet\.$'

batch exec -e 'trace on' -e run -e 'puts "status $n(status)"' \
    "$LT" exec /bin/echo hello from echo
status exec 0
has exec 'tick i="0" label="before the exec"'
count exec 1 '^Process [0-9]+ executed /(usr/)?bin/echo: monitoring ended at the exec\.$'
has exec '^hello from echo$'
has exec '^Program exited with status 0\.$'

# An exec of a program linked with libdapto: monitored on with its own
# interface from its main (lt again, three ticks), and its end is the
# program's.
batch exec-monitored -e 'trace on' -e run -e 'info processes' \
    "$LT" exec "$LT" loop 3 after
status exec-monitored 0
has exec-monitored 'tick i="0" label="before the exec"'
count exec-monitored 1 '^Process [0-9]+ executed .*/lt: monitoring it with its interface\.$'
count exec-monitored 2 '^init pid='
count exec-monitored 3 'tick i="[012]" label="after"'
has exec-monitored '^loop: 3 ticks$'
has exec-monitored '^Program exited with status 0\.$'

# An exec that fails is no exec: lt goes on monitored to its end (and
# ends with status 127, which is batch mode's too).
batch exec-missing -e 'trace on' -e run "$LT" exec /nonexistent/program
status exec-missing 127
has exec-missing 'exit$'
count exec-missing 0 'executed'
has exec-missing '^Program exited with status 127\.$'
finish
