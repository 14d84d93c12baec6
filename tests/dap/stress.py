# SPDX-License-Identifier: MIT
"""stress.py - one run of the debug adapter's shape of make check-stress
(tests/load/stress.sh runs it many times on one CPU and on two): dp run
DAP_STEPS (default 4000) under noosa --dap with a breakpoint on tick if
{$n % DAP_EVERY == 0} (default 100: the condition runs in the program,
which goes on between the stops), continued from every stop, while
pauses are sent at random moments (racing with the stops the breakpoint
makes) and threads and stackTrace asked at each stop.

Every tick the condition holds for stops exactly once (from step() and,
every second step, from run(): DAP_STEPS / DAP_EVERY of each, DAP_EVERY
even), each with the breakpoint's id; every pause that finds the program
running gives one stop of reason pause (the others are answered all the
same); no request waits for ever, the program ends with
its own status 3 and all its output, and every frame the adapter sends is
whole (the client checks each).  The seed is printed and taken back from
DAP_SEED.  Exit status 0 when all holds.
"""

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Adapter  # noqa: E402

build = os.environ.get("abs_top_builddir", os.getcwd())
work = os.environ.get("WORK", "/tmp")
steps = int(os.environ.get("DAP_STEPS", "4000"))
every = int(os.environ.get("DAP_EVERY", "100"))
seed = int(os.environ.get("DAP_SEED", str(random.randrange(1 << 30))))
rng = random.Random(seed)
print("seed %d" % seed)

a = Adapter(os.path.join(build, "src", "noosa"),
            log=os.path.join(work, "stress-%d.log" % os.getpid()), cwd=work)
a.request("initialize", {"clientID": "stress"})
r = a.request("launch", {"program": os.path.join(build, "tests", "dap",
                                                 "dp-O0"),
                         "args": ["run", str(steps)], "noInit": True,
                         "console": "internalConsole"})
assert r["success"], r
a.event("initialized")
bp = a.request("setFunctionBreakpoints",
               {"breakpoints": [{"name": "tick", "condition":
                                 "$n %% %d == 0" % every}]})["body"][
                                     "breakpoints"][0]
a.request("configurationDone")
ticks = pauses = 0
failed = []
while True:
    # a pause now and then, at a random moment after the continue
    if rng.random() < 0.5:
        time.sleep(rng.random() * 0.004)
        r = a.request("pause")
        if not r["success"] and "not running" not in r.get("message", ""):
            failed.append("pause: %r" % r)
    try:
        e = a.event("stopped", timeout=30,
                    pred=lambda e: True) if not a.events_now("exited") \
            else None
    except Exception as x:  # noqa: BLE001
        if a.events_now("exited"):
            break
        failed.append("no stop: %r" % (x,))
        break
    if e is None:
        break
    body = e["body"]
    if body["reason"] == "pause":
        pauses += 1
    elif body.get("hitBreakpointIds") == [bp["id"]]:
        ticks += 1
    else:
        failed.append("a stop for what? %r" % body)
    if not a.request("threads")["success"]:
        failed.append("threads at a stop")
    st = a.request("stackTrace", {"threadId": body["threadId"]})
    if not st["success"]:
        failed.append("stackTrace at a stop: %r" % st)
    r = a.request("continue")
    if not r["success"]:
        failed.append("continue: %r" % r)
        break
ex = a.event("exited")["body"]
a.event("terminated")
a.request("disconnect")
rc = a.wait_exit()
out = a.output("stdout")
want = 2 * (steps // every)
if ticks != want:
    failed.append("%d tick stops, not %d" % (ticks, want))
if ex["exitCode"] != 3 or rc != 0:
    failed.append("exit %r, the adapter's %d" % (ex, rc))
if out.count("out ") != steps or "done\n" not in out:
    failed.append("the program's output: %d lines" % out.count("out "))
failed += a.errors
a.close()
print("%d tick stops, %d pauses" % (ticks, pauses))
for f in failed:
    print("FAIL: %s" % f)
sys.exit(1 if failed else 0)
