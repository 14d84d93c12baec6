#!/bin/sh
# SPDX-License-Identifier: MIT
# attach.sh - attaching to a program whose threads emit flat out, and
# detaching, several times in a row (noosa -p): each time a handler counts
# events of every thread until it stops the program, and detach then lets
# it go with nothing left inside.  The program runs on through all of it
# and ends normally when told.  Then the same with threads that come and
# go all the while (lt churn), so that threads are created and end while
# noosa seizes them, stops them and lets them go.  That found two bugs:
# a thread seized as it exited made attach fail (EPERM), and detach made
# its call to the runtime in a thread kept stopped inside clone3 (an
# interrupt had turned its clone event into a stop), whose registers then
# made the clone look failed: pthread_create freed the new thread's stack
# under it.  Detach used to leave every event on (the
# states were not written once the channel was let go), so threads kept
# entering the runtime and the region could never be given back.
# A thread stopped at a breakpoint, the others spinning on its CPU: on
# two CPUs one detach in several hundred found it still waiting in its
# mailbox after 100 tries, resumed but never given its CPU in a quiet
# period (make check-stress); a thread of SCHED_IDLE among seven spinning
# on its CPU does it at once ("idle"): detach now lets every other try
# only the threads inside the runtime go on.
# noosa killed while attached, then another attaching, time after time.
# ATTACH_CYCLES (default 3) attaches; make check-stress runs more.
. "$srcdir/tests/load/lib.sh"
. "$abs_top_srcdir/tests/lib/started.sh"

CYCLES=${ATTACH_CYCLES:-3}

# launch NAME [VAR=VALUE ...] MODE ARG: lt MODE ARG $WORK/stop-NAME in
# the background (in the environment given), its output in
# NAME-prog.out, its pid in $prog, once it says it has started.
launch() {
    lname=$1
    shift
    rm -f "$WORK/stop-$lname"
    env "$@" "$WORK/stop-$lname" >"$WORK/$lname-prog.out" 2>&1 &
    prog=$!
    wait_started "$WORK/$lname-prog.out"
}

# ended NAME DONE: tell the program of launch NAME to end; it must end
# with status 0, saying DONE (an extended regular expression).
ended() {
    touch "$WORK/stop-$1"
    wait $prog
    rc=$?
    if [ "$rc" = 0 ] && grep -E -q "^$2" "$WORK/$1-prog.out"; then
        echo "ok: $1: the program went on and ended"
    else
        fail "$1: the program: status $rc"
        cat "$WORK/$1-prog.out"
    fi
}

# shape MODE ARG DONE: lt MODE ARG FILE in the background, CYCLES
# attaches, then FILE, and the program must end with status 0 saying
# DONE.
shape() {
    mode=$1
    launch "$mode" "$LT" "$mode" "$2"
    k=0
    while [ $k -lt "$CYCLES" ]; do
        k=$((k + 1))
        name=$mode-$k
        batch "$name" -p $prog -e 'set c 0; array set per {}' \
            -e 'handler add tock count {global c per; incr c; incr per($th); if {$c == 4000} {n_break}}' \
            -e continue -e 'puts "count $c threads [array size per] $n(status)"' \
            -e detach -e 'puts "after $n(status)"'
        status "$name" 0
        has "$name" '^count 4000 threads [0-9]+ stopped$'
        has "$name" '^Detached from process'
        has "$name" '^after dead$'
        if grep -q 'stays inside' "$WORK/$name.out"; then
            fail "$name: the region was left in the program"
            cat "$WORK/$name.out"
        fi
    done
    ended "$mode" "$3"
}

shape busy 8 'busy: 8 threads$'

# thread 0 of SCHED_IDLE, all eight on CPU 0: stopped there, it gets out
# of the runtime at detach
launch idle LT_IDLE=1 LT_CPU=0 "$LT" busy 8
for k in 1 2; do
    name=idle-$k
    batch "$name" -p $prog -e 'set c 0' \
        -e 'handler add tock count {global c; if {$th == 0} {incr c; if {$c == 200} {n_break}}}' \
        -e continue -e detach -e 'puts "after $n(status)"'
    status "$name" 0
    has "$name" '^Stopped at handler "count" for event "tock": th=0 '
    has "$name" '^Detached from process'
    has "$name" '^after dead$'
    if grep -q 'stays inside' "$WORK/$name.out"; then
        fail "$name: the region was left in the program"
        grep 'stays inside' "$WORK/$name.out"
    fi
done
ended idle 'busy: 8 threads$'

# Quick clauses <protocol#quick> belong to their attach: a never-true
# condition decided by the threads' encoders for a while, a detach, and
# then a condition that always holds from another attach stops at the
# next event (a clause kept from before, its addresses in a region gone,
# would keep dropping them: then the rare event's handler stops instead).
launch quick "$LT" busy 8
batch quick-1 -p $prog -e 'set c 0' -e 'break tock if {$i < 0}' \
    -e 'handler add rare r {global c; if {[incr c] == 50} n_break}' \
    -e continue -e 'info breakpoints' -e detach
status quick-1 0
has quick-1 '^Stopped at handler "r" for event "rare"'
has quick-1 '^ +condition runs in the program: [0-9]+ checked, 0 passed$'
has quick-1 '^Detached from process'
batch quick-2 -p $prog -e 'break tock if {$i > -1}' -e 'handler add rare r {n_break}' \
    -e continue -e detach
status quick-2 0
has quick-2 '^Stopped at breakpoint 1 for event "tock"'
has quick-2 '^Detached from process'
ended quick 'busy: 8 threads$'

# A thread stopped in the middle of code that keeps values in its vector
# registers, called in at attach and detach: it goes on with them as they
# were.  The calls used to give back only the general registers; the
# runtime's code (memset, strstr) left its own values in the vector ones.
# That is how a stop-mode handler was once given a recorded event (lt
# churn): its attach stopped the main thread inside pthread_create's
# memset of a new thread's TLS, which went on storing what the call left
# in the register, and the new thread started with rt_in_op set, so it
# recorded every event it should have stopped at.
if [ "$(uname -m)" = x86_64 ]; then
    launch vec "$LT" vec
    for k in 1 2 3; do
        batch "vec-$k" -p $prog -e detach
        status "vec-$k" 0
        has "vec-$k" '^Detached from process'
    done
    ended vec 'vec: kept$'
fi

# The program turns an event on by itself (a wild write into its state
# byte) while noosa is attached: detach finds it, says so and turns it
# off; it used to trust what it had written there, leave the event on,
# and its threads kept entering the runtime: the region could not be
# given back.
rm -f "$WORK/on-self" "$WORK/on-self.done"
launch self LT_TOCK_ON="$WORK/on-self" "$LT" busy 8
batch self -p $prog -e "exec touch $WORK/on-self" \
    -e "handler add rare r {if {[file exists $WORK/on-self.done]} n_break}" \
    -e continue -e detach -e 'puts "after $n(status)"'
status self 0
has self '^Stopped at handler "r" for event "rare"'
has self 'events on in process [0-9]+ that noosa had not turned on \(the program wrote their state bytes\): tock; turned off$'
has self '^Detached from process'
has self '^after dead$'
if grep -q 'stays inside' "$WORK/self.out"; then
    fail "self: the region was left in the program"
fi
ended self 'busy: 8 threads$'
# noosa killed (SIGKILL) at a random moment while attached and counting
# the events of eight threads flat out, then another attached: the
# runtime has let go of the channel of the one killed (its waits found it
# gone, or the next attach tells it), and gives it back once no thread is
# inside it, so the next attach works (it was refused for ever,
# "monitored already"); the program runs on through all of it and ends
# normally.
launch killed "$LT" busy 8
seed=${ATTACH_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "killed: seed $seed (ATTACH_SEED=$seed repeats this run)"
k=0
while [ $k -lt "$CYCLES" ]; do
    k=$((k + 1))
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    delay=$(printf '0.%02d' $((5 + (seed / 65536) % 45)))
    "$NOOSA" --batch -n -p $prog -e 'set c 0' \
        -e 'handler add tock count {global c; incr c; if {$c % 5000 == 0} {n_break}}' \
        -e 'while 1 continue' </dev/null >"$WORK/killed-$k.first" 2>&1 &
    first=$!
    sleep "$delay"
    kill -9 $first
    wait $first 2>/dev/null
    name=killed-$k
    batch "$name" -p $prog -e 'set c 0' \
        -e 'handler add tock count {global c; incr c; if {$c == 4000} {n_break}}' \
        -e continue -e 'puts "count $c $n(status)"' -e detach
    status "$name" 0
    has "$name" '^count 4000 stopped$'
    has "$name" '^Detached from process'
    if grep -q 'stays inside\|monitored already' "$WORK/$name.out" "$WORK/$name.err"; then
        fail "$name (killed after $delay s): $(grep 'stays inside\|monitored already' "$WORK/$name.out" "$WORK/$name.err")"
    fi
done
if grep -q dapto-channel "/proc/$prog/maps"; then
    fail "killed: a channel is left in the program"
fi
ended killed 'busy: 8 threads$'

# (three times as many: the race it found, a thread stopped inside
# clone3 at the moment of the interrupt, was seen once in some 10 cycles)
CYCLES=$((CYCLES * 3))
shape churn 8 'churn: [0-9]+ threads$'
finish
