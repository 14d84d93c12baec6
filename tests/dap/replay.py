# SPDX-License-Identifier: MIT
"""replay.py - a recording played through noosa --dap (launch with
"replay": the directory noosa record wrote), of dp run 3:

 - step back is announced once the recording is launched (a
   capabilities event), not before;
 - a function breakpoint stops the play at each tick; the stack is the
   event's place in the recording, by noosa dump's number (the events
   alone, from 1); its parameters are variables;
 - stepBack goes to the event before (made, of the same step), and
   again (the visible tick before with noosa's reverse-step, else the
   event before: quiet), and a continue from there stops at the
   breakpoint again; reverseContinue goes back to the breakpoint's last
   stop (with noosa's reverse-continue; without it, a step back at a
   time, the steps not told), and with no breakpoint before, to the
   recording's first event, event 1 of noosa dump (reason entry);
   continue goes forward again;
 - a line breakpoint on an event emitted at several lines says that a
   recording stops at every one of them;
 - the play ends with the recorded program's exit code, then terminated.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test, line_of  # noqa: E402

t = Test("replay")
rec = os.path.join(t.work, "rec")
with open(os.path.join(t.work, "record.out"), "wb") as out:
    rc = subprocess.call([t.noosa, "record", "-o", rec, t.dp, "run", "3"],
                         stdout=out, stderr=subprocess.STDOUT)
t.check(rc == 3, "recorded dp run 3: %d" % rc)
# noosa dump's numbers <design#event-numbers>: the first event is 1 (the
# runtime's init: every event of the recording, visible or not, counts)
dump = subprocess.run([t.noosa, "dump", rec], stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT, text=True).stdout
numbered = [ln.split() for ln in dump.splitlines() if ln[:1].isdigit()]
t.check(numbered[0][0] == "1" and numbered[0][3] == "init",
        "event 1 of the recording: %r" % numbered[:1])
tick1 = [ln[0] for ln in numbered if ln[3:5] == ["tick", "n=1"]][0]

a = t.adapter("replay")
init, r = t.start(a, launch={"replay": rec, "noInit": True,
                             "browsers": [t.browsers]})
t.check(init["body"]["supportsStepBack"] is False, "not before the launch")
t.check(r["success"], "launch a recording: %r" % r)
a.event("initialized")
caps = a.event("capabilities")["body"]["capabilities"]
t.check(caps.get("supportsStepBack") is True, "step back now: %r" % caps)

r = a.request("setFunctionBreakpoints", {"breakpoints": [{"name": "tick"}]})
tick_id = r["body"]["breakpoints"][0]["id"]
r = a.request("setBreakpoints", {"source": {"path": t.dp_c}, "breakpoints": [
    {"line": line_of(t.dp_c, "site: tick-main")}]})
b = r["body"]["breakpoints"][0]
t.check(b["verified"] and "a recording has no stacks" in b["message"],
        "a line of several in a recording: %r" % b)
a.request("setBreakpoints", {"source": {"path": t.dp_c}, "breakpoints": []})
a.request("configurationDone")


def stop(what):
    e = a.event("stopped")["body"]
    t.check(e.get("text", "").startswith(what), "stopped at %s: %r" % (
        what, e))
    return e


e = stop("tick n=1 total=1")
t.check(e["reason"] == "function breakpoint" and
        e["hitBreakpointIds"] == [tick_id], "the breakpoint: %r" % e)
threads = a.request("threads")["body"]["threads"]
t.check([x["id"] for x in threads] == [e["threadId"]], "one thread: %r" %
        threads)
frames = a.request("stackTrace",
                   {"threadId": e["threadId"]})["body"]["stackFrames"]
t.check(len(frames) == 1 and
        frames[0]["name"] == "tick (event %s of the recording)" % tick1,
        "the stack (event %s): %r" % (tick1, frames))
scopes = a.request("scopes", {"frameId": frames[0]["id"]})["body"]["scopes"]
vs = a.request("variables", {"variablesReference": scopes[0][
    "variablesReference"]})["body"]["variables"]
t.check([(v["name"], v["value"]) for v in vs] == [("n", "1"),
                                                  ("total", "1")],
        "its parameters: %r" % vs)

a.request("continue")
stop("tick n=2 total=3")
t.check(a.request("stepBack")["success"], "stepBack")
e = stop("made item=Item:0x")
t.check(e["reason"] == "step", "reason step: %r" % e)
# noosa's reverse-step goes to the visible event before; without it,
# step back goes to the event before, visible or not
reverse = a.request("evaluate", {"expression": "help reverse-continue",
                                 "context": "repl"})["success"]
a.request("stepBack")
stop("tick n=1 total=1" if reverse else "quiet n=1")
a.request("continue")
stop("tick n=2 total=3")
r = a.request("reverseContinue")
t.check(r["success"], "reverseContinue: %r" % r)
e = stop("tick n=1 total=1")
t.check(e.get("hitBreakpointIds") == [tick_id],
        "back at the breakpoint before: %r" % e)
# no breakpoint before: the first event of the recording (noosa's
# reverse-continue goes to the first event, the runtime's init; a step
# back at a time stops at the first the adapter shows)
a.request("reverseContinue")
e = stop("init pid=" if reverse else "made item=Item:0x")
t.check(e["reason"] == "entry" and "first event" in e["description"],
        "back at the first event: %r" % e)
if reverse:
    frames = a.request("stackTrace",
                       {"threadId": e["threadId"]})["body"]["stackFrames"]
    t.check(frames[0]["name"] == "init (event 1 of the recording)",
            "the first event is 1: %r" % frames)
a.request("continue")
stop("tick n=1 total=1")
a.request("continue")
stop("tick n=2 total=3")
a.request("continue")
stop("tick n=-2 total=3")
a.request("continue")
stop("tick n=3 total=6")
a.request("continue")
t.ends(a, 3, "the recorded exit code")
t.finish()
