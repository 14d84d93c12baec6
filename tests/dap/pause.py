# SPDX-License-Identifier: MIT
"""pause.py - pause while the program keeps stopping at events the
client is not to see (a line breakpoint on the line of run() that emits
tick, with a hit condition never met: every tick stops the program, and
the adapter goes on by itself from each, the ticks of step() being at
another line): every pause, sent at a random moment (the seed is printed
and taken back from DAP_SEED), gives a stop of reason pause before the
program ends, ROUNDS times; terminate then ends it.  The pause was lost
when the program reached such a stop before the interrupt took effect,
or when it was read in the same turn of the adapter's loop as such a
stop (answered as one that crossed a stop), and the adapter went on.
"""

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test, line_of  # noqa: E402

STEPS = 20000
ROUNDS = 40

seed = int(os.environ.get("DAP_SEED", str(random.randrange(1 << 30))))
rng = random.Random(seed)
print("seed %d" % seed)
t = Test("pause")
a = t.adapter("pause")
L_MAIN = line_of(t.dp_c, "site: tick-main")
_, r = t.start(a, launch=t.launch_args("run", str(STEPS),
                                       console="internalConsole"))
t.check(r["success"], "launch: %r" % r)
a.event("initialized")
r = a.request("setBreakpoints", {"source": {"path": t.dp_c}, "breakpoints": [
    {"line": L_MAIN, "hitCondition": ">= 1000000000"}]})
t.check(r["success"] and r["body"]["breakpoints"][0]["verified"],
        "the line breakpoint: %r" % r)
t.check(a.request("configurationDone")["success"], "configurationDone")

for i in range(ROUNDS):
    # a pause while the breakpoint's stops come one after the other
    time.sleep(0.002 + rng.random() * 0.01)
    if not t.check(not a.events_now("exited"),
                   "round %d: the program ended before the pause" % i):
        break
    t.check(a.request("pause")["success"], "round %d: pause" % i)
    try:
        e = a.event("stopped", timeout=20,
                    pred=lambda e: True)["body"]
    except Exception as x:  # noqa: BLE001
        t.check(False, "round %d: no stop after the pause: %s (exited: %r)"
                % (i, str(x)[:200], a.events_now("exited")))
        break
    if not t.check(e["reason"] == "pause" and not a.events_now("exited"),
                   "round %d: stopped for the pause: %r" % (i, e)):
        break
    t.check(a.request("continue")["success"], "round %d: continue" % i)

# the program, running, is ended
r = a.request("terminate")
t.check(r["success"], "terminate: %r" % r)
t.ends(a, 137, "terminate kills the program")
t.finish()
