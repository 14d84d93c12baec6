# SPDX-License-Identifier: MIT
"""attach.py - attaching to a program that runs already through noosa
--dap, on dp lines (tests/dap/dp.c), which blocks reading its standard
input, a pipe this script writes:

 - attach by pid (a string, as launch.json files give it): the program
   goes on after configurationDone; a function breakpoint stops it at the
   line written, its parameter evaluated; pause while it waits in read(2)
   stops it (reason pause, its thread) with a stack; continue;
 - disconnect lets it go (detach): it goes on without noosa, to its end;
 - attaching again, and disconnect with terminateDebuggee kills it;
 - the client gone (its end of input) while the program is stopped at a
   breakpoint: the program is let go from there and goes on to its end;
 - attach to no such process: a failure saying so, and the adapter goes
   on (a launch after it works).
"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test  # noqa: E402

t = Test("attach")


def start_program():
    p = subprocess.Popen([t.dp, "lines"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    t.check(p.stdout.readline() == b"ready\n", "the program is ready")
    return p


def say(p, line):
    p.stdin.write(line.encode() + b"\n")
    p.stdin.flush()


p = start_program()
a = t.adapter("attach")
_, r = t.start(a, attach={"pid": str(p.pid), "browsers": [t.browsers]})
t.check(r["success"], "attach: %r" % r)
a.event("initialized")
a.request("setFunctionBreakpoints", {"breakpoints": [{"name": "said"}]})
t.check(a.request("configurationDone")["success"], "configurationDone")
say(p, "hello")
e = a.event("stopped")["body"]
t.check(e["reason"] == "function breakpoint" and
        e.get("text") == 'said text="hello"', "stopped at said: %r" % e)
r = a.request("evaluate", {"expression": "text", "context": "hover"})
t.check(r["success"] and r["body"]["result"] == '"hello"',
        "hover text: %r" % r)
frames = a.request("stackTrace",
                   {"threadId": e["threadId"]})["body"]["stackFrames"]
t.check(frames[0]["name"] == "lines", "the emitting frame: %r" % frames[0])
a.request("continue")
t.check(p.stdout.readline() == b"got hello\n", "the program went on")

# it waits in read(2) now
time.sleep(0.2)
t.check(a.request("pause")["success"], "pause")
e = a.event("stopped")["body"]
t.check(e["reason"] == "pause" and e["threadId"] == p.pid,
        "paused: %r" % e)
frames = a.request("stackTrace",
                   {"threadId": p.pid})["body"]["stackFrames"]
t.check(any(f["name"] == "lines" for f in frames),
        "the stack where it waits: %r" % frames)
r = a.request("variables", {"variablesReference": 1})
t.check(not r["success"], "no variables of an event at a pause: %r" % r)
a.request("continue")
r = a.request("disconnect", {})
t.check(r["success"], "disconnect: %r" % r)
t.check(a.wait_exit() == 0, "the adapter's exit status")
say(p, "more")
t.check(p.stdout.readline() == b"got more\n", "it goes on, let go")
p.stdin.close()
t.check(p.stdout.readline() == b"done\n" and p.wait(30) == 0,
        "and ends by itself")
t.check(not a.events_now("exited"), "no exit told of a program let go")

# attach again; this time it is ended with the session
p = start_program()
a = t.adapter("terminate")
_, r = t.start(a, attach={"pid": p.pid})
a.event("initialized")
a.request("configurationDone")
r = a.request("disconnect", {"terminateDebuggee": True})
t.check(r["success"], "disconnect: %r" % r)
t.check(p.wait(30) == -9, "killed with the session")
t.check(a.wait_exit() == 0, "the adapter's exit status")

# stopped at a breakpoint when the client goes away: let go, not left
# stopped
p = start_program()
a = t.adapter("gone")
_, r = t.start(a, attach={"pid": p.pid})
a.event("initialized")
a.request("setFunctionBreakpoints", {"breakpoints": [{"name": "said"}]})
a.request("configurationDone")
say(p, "stop here")
e = a.event("stopped")["body"]
t.check(e.get("text") == 'said text="stop here"', "stopped: %r" % e)
a.proc.stdin.close()
t.check(a.wait_exit() == 0, "the adapter exits at the end of its input")
t.check(p.stdout.readline() == b"got stop here\n",
        "the program goes on from the stop")
p.stdin.close()
t.check(p.stdout.readline() == b"done\n" and p.wait(30) == 0,
        "and ends by itself")

# no such process
a = t.adapter("nosuch")
_, r = t.start(a, attach={"pid": 99999999999})
t.check(not r["success"] and "pid" in r["message"],
        "a pid out of range: %r" % r)
r = a.request("attach", {"pid": 4194303})
t.check(not r["success"] and "4194303" in r["message"],
        "no such process: %r" % r)
r = a.request("launch", t.launch_args("run", "1"))
t.check(r["success"], "a launch after a failed attach: %r" % r)
a.request("configurationDone")
t.check(a.event("exited")["body"]["exitCode"] == 3, "and it runs")
a.request("disconnect")
t.finish()
