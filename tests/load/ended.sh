#!/bin/sh
# SPDX-License-Identifier: MIT
# ended.sh - a handler that acts on the program (kill, stop, run, detach)
# while the events the program wrote before it ended are told after its
# end: each is refused with the reason (or finds the program not
# running), and noosa goes on to the end.  `kill` used to wait for ever,
# at 100% CPU, for a process already reaped; `stop` ran a loop inside
# the event's delivery that waited for a stop that could not come.  A
# live program: stop from a handler stops it once the handler is done,
# kill kills it, run and detach are refused there (they would start or
# let go the program under the event being delivered).  With several
# processes, a handler that kills while one of them has ended.
. "$srcdir/tests/load/lib.sh"
LIMIT=30
ended_re='^error: in handler "h" for event "tick": process [0-9]+ has ended: these are its last events, told after its end$'
inside_re='^error: in handler "h" for event "tick": (run|detach): not while an event is being delivered \(in a handler or a monitor\): '

for c in kill stop run detach; do
    batch "$c" -e "handler add tick h {$c}" -e run "$LT" loop 10 x
    status "$c" 0
    has "$c" '^Program (exited with status 0|killed by SIGKILL)\.$'
done
n=$(grep -E -c "$ended_re" "$WORK/kill.out")
[ "$n" -ge 9 ] && echo "ok: kill refused after the end ($n)" ||
    fail "kill: $n refusals after the end"
count run 10 "$inside_re"
count detach 10 "$inside_re"

# live: a tick every 20 ms
batch live-stop -e 'handler add tick h {if {$i == 3} stop}' -e run \
    -e 'puts "then $n(status)"' -e continue "$LT" loop 10 x 20000000
status live-stop 0
has live-stop '^Program interrupted\.$'
has live-stop '^then stopped$'
has live-stop '^Program exited with status 0\.$'
batch live-kill -e 'handler add tick h {if {$i == 3} kill}' -e run \
    "$LT" loop 10 x 20000000
status live-kill 0
has live-kill '^Program killed by SIGKILL\.$'
count live-kill 0 '^loop: 10 ticks$'
batch live-run -e 'handler add tick h {if {$i == 3} {run; puts ran}}' -e run \
    "$LT" loop 10 x 20000000
status live-run 0
count live-run 1 "$inside_re"
count live-run 0 '^ran$'
has live-run '^Program exited with status 0\.$'

# several processes: the workers' ticks, told as each ends
batch workers -e 'handler add tick h {kill}' -e run "$LT" workers 2 5
status workers 0
has workers 'has ended: these are its last events, told after its end$'
finish
