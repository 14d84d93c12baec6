#!/bin/sh
# SPDX-License-Identifier: MIT
# processes.sh - processes the program creates.  By default (follow-fork
# both) every child made by fork() is monitored too, from the moment
# fork() returns in it, with its own channel: every event of four workers
# is seen and each is told with its process (n_pid, the trace, the stops);
# a breakpoint or handler given -pid applies in that process only; kill
# kills every process; a process that executes a monitored program goes on
# monitored with its new interface and one that executes another is
# watched to its end; the run ends with its last process.  With
# follow-fork parent the children are not followed: the transcript says
# once that each was created, they are never stopped nor killed by noosa,
# and their events go nowhere (a daemon made by a double fork with events
# on outlives noosa and does its work).  With follow-fork child, noosa
# lets the parent go on unmonitored and monitors the child: every event of
# the child is seen, through a chain of forks too, and breakpoints stop
# it, while nothing the parent emits after its fork is told; a child
# made by vfork is never followed.  A program that executes
# another linked with libdapto is monitored on with the new interface;
# one that executes another program is let go at the exec: untraced
# (TracerPid 0), it outlives noosa and kill, finishes with its own output
# and exit status, and info processes says it was let go at the exec.
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
batch daemon -e 'follow-fork parent' -e 'trace on' -e run \
    "$LT" daemon 2 "$WORK/daemon.flag"
status daemon 0
count daemon 1 '^Process [0-9]+ created process [0-9]+, which is not followed\.$'
has daemon '^daemon: started$'
has daemon 'tick i=1 label="after the fork"'
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
batch daemon-break -e 'follow-fork parent' -e 'break tick' -e run \
    -e cont -e cont "$LT" daemon 1 "$WORK/daemon.flag"
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
has follow '^  Process +Parent'
has follow '^  [0-9]+ +- +let go, unmonitored \(its child followed\)$'
has follow '^  [0-9]+ +[0-9]+ +exited$'

# A chain: the child forks the daemon and exits at once; noosa follows
# the daemon, which ticks ten times and writes its file.
rm -f "$WORK/daemon.flag"
batch follow-chain -e 'follow-fork child' -e 'trace on' -e run \
    -e 'info processes' "$LT" daemon 1 "$WORK/daemon.flag"
status follow-chain 0
has follow-chain 'tick i=0 label="before the fork"'
count follow-chain 1 'label="in the child"'
count follow-chain 10 'label="in the daemon"'
count follow-chain 1 '^Process [0-9]+ created process [0-9]+ and exited: following the child\.$'
count follow-chain 3 '^init pid='
count follow-chain 2 '^  [0-9]+ +[0-9]+ +exited$'
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

# The parent let go emits nothing monitored after its fork: none of the
# 1000 ticks it emits at once after it reaches a handler or stops at a
# breakpoint (they did: fork() returned before noosa took the fork, and
# the parent's events until it was let go were told, its breakpoint
# stopping after "goes on unmonitored"); the child's are all told.
batch follow-after -e 'follow-fork child' -e 'set p 0; set c 0' \
    -e 'handler add tick h {if {$label eq "parent"} {incr ::p} else {incr ::c}}' \
    -e 'break tick if {$label eq "parent" && $i == 500}' -e run \
    -e 'puts "parent $p child $c"' -e 'info processes' "$LT" fork-loop 1000
status follow-after 0
count follow-after 0 '^Stopped at '
has follow-after '^parent 0 child 1000$'
has follow-after 'let go, unmonitored \(its child followed\)$'
later follow-after '^fork-loop: status 0$'

# A program without a runtime (env) that executes one linked with
# libdapto hands it the channel it was started with: the new image is
# monitored with its interface, and a breakpoint set before (pending,
# while no interface is known) stops there.  It was let go at the exec
# ("no monitoring interface"), its runtime then waited 10 s for an
# acknowledgement of each aspect, and break refused the event.
ENV=$(command -v env)
batch env-exec -e 'break tick if {$i == 1}' -e run -e 'info processes' \
    -e continue "$ENV" "$LT" loop 3 x
status env-exec 0
has env-exec '^Breakpoint 1 on event tick if \$i == 1 \(pending: the program.s interface is not known yet\)$'
has env-exec "executed $LT: monitoring it with its interface\\.\$"
count env-exec 1 '^Stopped at breakpoint 1 for event "tick": i=1 label="x"$'
has env-exec '^loop: 3 ticks$'
has env-exec '^Program exited with status 0\.$'
count env-exec 0 'let go|did not acknowledge'
# one without a runtime either is let go at the exec, as before
batch env-plain -e run "$ENV" "$abs_top_builddir/tests/noosa/plain"
status env-plain 0
has env-plain 'which has no monitoring interface: let go, it goes on unmonitored\.$'

# vfork: never followed, said so; the program goes on monitored.
batch follow-vfork -e 'follow-fork child' -e 'trace on' -e run "$LT" vfork
status follow-vfork 0
count follow-vfork 1 'which is not followed: it was created by vfork and shares its parent.s memory until it executes a program\.$'
has follow-vfork 'label="after vfork"'

# Bad uses.
batch follow-bad -e 'follow-fork sideways' \
    -e 'follow-fork child extra' -e 'puts "mode [follow-fork]"' \
    -e 'info processes'
has follow-bad 'bad follow-fork mode "sideways": must be parent, child, or both'
has follow-bad 'wrong # args: should be "follow-fork \?parent\|child\|both\?"'
has follow-bad '^mode both$'
has follow-bad '^No process yet\.$'

# follow-fork both (the default): four workers of 20000 ticks, each
# monitored from its fork on; every tick of every worker counted, each
# worker's ticks all from one process, a child's (n_pid is one of the
# pids the parent's forked events gave), and each process's end said;
# the run ends with the parent, the last.
batch both -e 'puts "mode [follow-fork]"' -e 'array set w {}' \
    -e 'array set kid {}' -e 'array set by {}' \
    -e 'handler add forked f {global kid; set kid($pid) 1}' \
    -e 'handler add tick h {global w by; incr w($label); set by($label,$n_pid) 1}' \
    -e run \
    -e 'foreach k [lsort [array names w]] {puts "$k: $w($k)"}' \
    -e 'foreach k [lsort [array names by]] {
            lassign [split $k ,] l p
            puts "by $l [expr {[info exists kid($p)] ? "a child" : "another"}]"
        }' \
    -e 'info processes' "$LT" workers 4 20000
status both 0
has both '^mode both$'
count both 4 '^Process [0-9]+ created process [0-9]+: monitoring both\.$'
count both 4 '^worker [0-3]: 20000$'
count both 4 '^by worker [0-3] a child$'
count both 0 'another'
count both 5 '^Process [0-9]+ exited with status 0\.$'
has both '^workers: 4 ended$'
has both '^Program exited with status 0\.$'
count both 5 '^  [0-9]+ +[-0-9]+ +exited$'

# Questions answered in each process's program, merged: every worker's
# ticks counted, each in its own thread.
batch both-question -e 'question add q tick -by label' \
    -e 'question print off' -e run -e 'question show q' \
    "$LT" workers 3 1000
status both-question 0
has both-question '^  3000 events counted by the program in 3 threads'
count both-question 3 '^  worker [0-2] +1000$'

# The trace says which process each event is of, once there are two.
batch both-trace -e 'trace on' -e run "$LT" workers 2 3
status both-trace 0
count both-trace 6 '^\[[0-9]+\] tick i=[0-2] label="worker [01]"$'
count both-trace 2 '^\[[0-9]+\] forked pid='

# A breakpoint given -pid stops that process only: stopped in the first
# worker at its first tick, a breakpoint at tick 5 of that worker alone
# stops once, there; handlers and ev see the process (n_pid).
batch pid-break -e 'break tick if {$i == 0}' -e run -e 'set p $n(pid)' \
    -e 'puts "first stop in $ev(n_pid), n(pid) $p"' -e delete \
    -e 'break tick if {$i == 5} -pid $p' -e 'info breakpoints' -e continue \
    -e 'puts "second stop in [expr {$ev(n_pid) == $p ? "the same" : "another"}] process at $ev(i)"' \
    -e continue -e 'info processes' "$LT" workers 2 200
status pid-break 0
count pid-break 1 '^Stopped at breakpoint 1 for event "tick" in process [0-9]+: i=0 label="worker [01]"$'
count pid-break 1 '^Stopped at breakpoint 2 for event "tick" in process [0-9]+: i=5 label="worker [01]"$'
has pid-break '^Breakpoint 2 on event tick if \$i == 5 in process [0-9]+$'
has pid-break '^2 +y +0  tick if \$i == 5 -pid [0-9]+$'
has pid-break '^second stop in the same process at 5$'
p1=$(sed -n 's/^first stop in \([0-9]*\), n(pid) \([0-9]*\)$/\1 \2/p' "$WORK/pid-break.out")
if [ -n "$p1" ] && [ "${p1% *}" = "${p1#* }" ] &&
    grep -q "^Stopped at breakpoint 2 .* in process ${p1% *}:" "$WORK/pid-break.out"; then
    echo "ok: the stops are in process ${p1% *}, as n_pid and n(pid) say"
else
    fail "pid-break: the stops, n_pid and n(pid) do not name one process"
    show pid-break
fi
has pid-break '^workers: 2 ended$'

# A handler given -pid runs in that process only: the worker stopped at
# its first tick has its 199 other ticks counted, the other worker none,
# while a handler of every process counts all 400.
batch pid-handler -e 'array set c {}' \
    -e 'handler add tick all {global c; incr c(all,$n_pid)}' \
    -e 'break tick if {$i == 0}' -e run -e 'set p $n(pid)' -e delete \
    -e 'handler add tick mine {global c; incr c(mine,$n_pid)} -pid $p' \
    -e 'handler list tick' -e continue \
    -e 'foreach k [lsort [array names c]] {
            lassign [split $k ,] h q
            puts "$h in [expr {$q == $p ? "it" : "the other"}]: $c($k)"
        }' "$LT" workers 2 200
status pid-handler 0
has pid-handler '^    only in process [0-9]+$'
count pid-handler 2 '^all in (it|the other): 200$'
has pid-handler '^mine in it: 199$'
count pid-handler 0 '^mine in the other'

# Bad -pid.
batch pid-bad -e 'break tick -pid 1' -e 'break tick -pid x' \
    -e 'handler add tick h {} -pid 1' -e 'handler add tick h {} -pid' \
    "$LT" workers 1 1
has pid-bad 'break: process 1 is not monitored now \("info processes" lists the processes of the run\)'
has pid-bad 'break: -pid wants a process id, got "x"'
has pid-bad 'handler add: process 1 is not monitored now'
has pid-bad 'handler add: -pid needs a process id'

# kill kills every process of the run: none is left.
batch kill-all -e 'break tick if {$i == 100}' -e run -e kill \
    -e 'info processes' "$LT" workers 3 200000
count kill-all 4 '^Process [0-9]+ was killed by SIGKILL\.$'
has kill-all '^Program killed by SIGKILL\.$'
count kill-all 4 '^  [0-9]+ +[-0-9]+ +killed$'
# (a zombie left to an init that does not reap is dead all the same)
left=0
for q in $(sed -n 's/^  \([0-9][0-9]*\) .*killed$/\1/p' "$WORK/kill-all.out"); do
    st=$(sed 's/.*) \(.\).*/\1/' "/proc/$q/stat" 2>/dev/null)
    [ -n "$st" ] && [ "$st" != Z ] && left=$((left + 1))
done
if [ "$left" = 0 ]; then
    echo "ok: kill left no process of the run"
else
    fail "kill-all: $left processes of the run are left"
fi

# The end of the batch with processes live kills them all.
batch end-live -e 'break tick if {$i == 100}' -e run "$LT" workers 2 200000
has end-live '^The program is still live at the end: killing it\.$'
count end-live 3 '^Process [0-9]+ was killed by SIGKILL\.$'

# The daemon followed with its parents: the run ends with it, the last
# process, once it has done its work.
rm -f "$WORK/daemon.flag"
batch both-daemon -e 'trace on' -e run "$LT" daemon 1 "$WORK/daemon.flag"
status both-daemon 0
count both-daemon 10 '^\[[0-9]+\] tick i=[0-9]+ label="in the daemon"$'
count both-daemon 1 'label="in the child"$'
count both-daemon 3 '^Process [0-9]+ exited with status 0\.$'
if [ "$(cat "$WORK/daemon.flag" 2>/dev/null)" = alive ] &&
    [ "$(tail -n 1 "$WORK/both-daemon.out")" = "Program exited with status 0." ]; then
    echo "ok: the run ended with the daemon, its work done"
else
    fail "both-daemon: the run did not end with the daemon"
    show both-daemon
fi

# A program attached to: the children it creates from then on are
# followed too, attached to as it is; detach lets every process go, and
# so does the end of noosa; the program finishes on its own, every child
# with it.
DAPTO_PTRACER=any "$LT" forker 8 2000 250 >"$WORK/forker.prog" 2>&1 &
prog=$!
sleep 0.3
batch attach-fork -p $prog -e 'break tick if {$i == 1}' -e continue \
    -e 'puts "stopped in [expr {$n(pid) == [lindex $n(processes) 0] ? "the parent" : "a child"}]"' \
    -e 'info processes' -e detach -e 'puts "after detach: $n(status)"'
status attach-fork 0
has attach-fork '^Attached to process [0-9]+ \(lt\)'
has attach-fork '^Process [0-9]+ created process [0-9]+: monitoring both\.$'
has attach-fork '^Stopped at breakpoint 1 for event "tick" in process [0-9]+: i=1 label="child [0-7]"$'
has attach-fork '^stopped in a child$'
count attach-fork 2 '^Detached from process [0-9]+: it goes on unmonitored\.$'
has attach-fork '^after detach: dead$'
batch attach-fork-end -p $prog -e 'break tick if {$i == 1}' -e continue
status attach-fork-end 0
has attach-fork-end '^Stopped at breakpoint 1 for event "tick" in process [0-9]+: i=1'
has attach-fork-end '^The program is still live at the end: detaching from it\.$'
count attach-fork-end 2 '^Detached from process [0-9]+: it goes on unmonitored\.$'
wait $prog
rc=$?
if [ "$rc" = 0 ] && grep -q '^forker: 8 ended$' "$WORK/forker.prog"; then
    echo "ok: the program attached to finished on its own, every child too"
else
    fail "attach-fork: the program ended with $rc: $(cat "$WORK/forker.prog")"
fi

# A child that executes a monitored program goes on monitored with its
# new interface while its parent is; one that executes another program
# is watched to its end.
batch both-exec -e 'trace on' -e run "$LT" fork-exec "$LT" loop 3 after
status both-exec 0
count both-exec 1 '^Process [0-9]+ executed .*/lt: monitoring it with its interface\.$'
count both-exec 3 '^\[[0-9]+\] tick i=[0-2] label="after"$'
has both-exec '^\[[0-9]+\] tick i=0 label="after the child"$'
has both-exec '^fork-exec: status 0$'
has both-exec '^loop: 3 ticks$'

# LETGO: the program executed, which says its pid in FILE.pid, waits for
# FILE.go (at most 20 s), writes "let go: done" to FILE.done and exits
# with status 3.
LETGO='echo $$ >"$1.pid"; i=0
while [ ! -e "$1.go" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
echo "let go: done" >"$1.done"; exit 3'

# untraced NAME FILE: the process of FILE.pid runs, not traced; then it
# is let finish.
untraced() {
    k=0
    while [ ! -s "$2.pid" ] && [ $k -lt 200 ]; do
        sleep 0.05
        k=$((k + 1))
    done
    pid=$(cat "$2.pid" 2>/dev/null)
    tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/${pid:-0}/status" \
        2>/dev/null)
    if [ "$tracer" = 0 ]; then
        echo "ok: $1: process $pid runs untraced"
    else
        fail "$1: process ${pid:-none} has tracer '${tracer:-none}'"
    fi
    touch "$2.go"
    k=0
    while [ ! -s "$2.done" ] && [ $k -lt 200 ]; do
        sleep 0.05
        k=$((k + 1))
    done
    if grep -q '^let go: done$' "$2.done" 2>/dev/null; then
        echo "ok: $1: process $pid finished on its own"
    else
        fail "$1: process ${pid:-none} did not finish"
    fi
}

# A child among monitored processes: untraced while noosa still runs,
# its exit status is its parent's to see.
rm -f "$WORK"/lf.*
batch both-exec-other -e 'trace on' -e run -e 'info processes' \
    "$LT" fork-exec /bin/sh -c "$LETGO" letgo "$WORK/lf" &
untraced both-exec-other "$WORK/lf"
wait $!
status both-exec-other 0
count both-exec-other 1 '^Process [0-9]+ executed /.*, which has no monitoring interface: let go, it goes on unmonitored\.$'
has both-exec-other '^fork-exec: status 3$'
has both-exec-other '^\[[0-9]+\] tick i=0 label="after the child"$'
has both-exec-other '^Program exited with status 0\.$'
has both-exec-other '^  [0-9]+ +[0-9]+ +let go at the exec, unmonitored$'
has both-exec-other '^  [0-9]+ +- +exited$'

# noosa killed: the child let go lives on.
rm -f "$WORK"/lk.*
batch both-exec-killed -e run "$LT" fork-exec /bin/sh -c "$LETGO" letgo \
    "$WORK/lk" &
noosa_job=$!
k=0
while [ ! -s "$WORK/lk.pid" ] && [ $k -lt 200 ]; do
    sleep 0.05
    k=$((k + 1))
done
# (noosa is the parent of lt, the parent of the process let go)
ppid() { awk '{print $4}' "/proc/$1/stat" 2>/dev/null; }
lt_pid=$(ppid "$(cat "$WORK/lk.pid")")
noosa_pid=$(ppid "${lt_pid:-0}")
if [ "$(cat "/proc/${noosa_pid:-0}/comm" 2>/dev/null)" = noosa ]; then
    kill -KILL "$noosa_pid"
else
    fail "both-exec-killed: no noosa found above process $(cat "$WORK/lk.pid")"
fi
wait $noosa_job
untraced both-exec-killed "$WORK/lk"
count both-exec-killed 1 'which has no monitoring interface: let go'

# The only process: the run ends as after detach (batch mode goes on at
# once, exit status 0); kill and noosa's end leave it running.
rm -f "$WORK"/le.*
batch exec -e 'trace on' -e run -e 'info processes' \
    -e 'puts "kill: [catch kill msg] $msg"' \
    "$LT" exec /bin/sh -c "$LETGO" letgo "$WORK/le"
status exec 0
has exec 'tick i=0 label="before the exec"'
count exec 1 '^Process [0-9]+ executed /.*, which has no monitoring interface: let go, it goes on unmonitored\.$'
has exec '^  [0-9]+ +- +let go at the exec, unmonitored$'
has exec '^kill: 1 kill: the program is not running$'
count exec 0 '^Program (exited|killed)'
untraced exec "$WORK/le"

# The program let go is noosa's child still: its end is reaped and told,
# here while the next run is watched.  (The next run's program outlives
# noosa: whether an end that races noosa's own is told before it exits
# is the scheduler's choice.)
batch exec-again -e run -e 'after 500' \
    -e 'run exec /bin/sh -c "sleep 1; exit 4"' \
    "$LT" exec /bin/sh -c 'exit 3'
status exec-again 0
count exec-again 2 'which has no monitoring interface: let go'
count exec-again 1 '^Process [0-9]+, let go, exited with status 3\.$'
count exec-again 0 'exited with status 4'

# kill while a child let go at its exec still runs: the monitored parent
# is killed, the child let go runs on untraced to its own end.  The
# parent stops at "forked" only once the child's shell has written its
# pid (LT_FORK_WAIT), that is once noosa has let the child go.
rm -f "$WORK"/lg.*
LT_FORK_WAIT="$WORK/lg.pid"
export LT_FORK_WAIT
batch kill-letgo -e 'break forked' -e run -e 'info processes' \
    -e 'puts "kill: [catch kill msg] $msg"' -e 'info processes' \
    "$LT" fork-exec /bin/sh -c "$LETGO" letgo "$WORK/lg"
unset LT_FORK_WAIT
status kill-letgo 0
has kill-letgo '^Stopped at breakpoint 1 for event "forked" in process [0-9]+'
has kill-letgo '^kill: 0 $'
count kill-letgo 1 '^Program killed by SIGKILL\.$'
has kill-letgo '^  [0-9]+ +- +killed$'
count kill-letgo 2 '^  [0-9]+ +[0-9]+ +let go at the exec, unmonitored$'
untraced kill-letgo "$WORK/lg"

# An exec of a program linked with libdapto: monitored on with its own
# interface from its main (lt again, three ticks), and its end is the
# program's.
batch exec-monitored -e 'trace on' -e run -e 'info processes' \
    "$LT" exec "$LT" loop 3 after
status exec-monitored 0
has exec-monitored 'tick i=0 label="before the exec"'
count exec-monitored 1 '^Process [0-9]+ executed .*/lt: monitoring it with its interface\.$'
count exec-monitored 2 '^init pid='
count exec-monitored 3 'tick i=[012] label="after"'
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
