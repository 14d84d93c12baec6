# SPDX-License-Identifier: MIT
"""errors.py - run-time errors through noosa --dap, on dp crash (a SIGSEGV
inside a recovery point, tests/dap/dp.c):

 - the filter errors (the default): the program stops before the error
   takes effect, reason exception; exceptionInfo names the signal and
   gives the report with the choices; the stack's top is the faulting
   line, its scopes the frame's and the unit's, and the pointer it went
   through can be evaluated there; evaluate convert (a noosa command in the repl) resumes in the
   recovery point: continued, the program says "recovered" and ends well;
 - evaluate continue there instead: the signal kills the program (128+11);
 - no filter: no stop, the program dies of the signal as without noosa;
 - the filter convert: converted without a stop;
 - stepBack and reverseContinue outside a recording: refused, saying why.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test, line_of  # noqa: E402

t = Test("errors")
L_FAULT = line_of(t.dp_c, "site: fault")


def session(name, filters):
    a = t.adapter(name)
    t.start(a, launch=t.launch_args("crash"))
    a.event("initialized")
    r = a.request("setExceptionBreakpoints", {"filters": filters})
    t.check(r["success"] and len(r["body"]["breakpoints"]) == len(filters),
            "%s: setExceptionBreakpoints: %r" % (name, r))
    a.request("configurationDone")
    return a


# stop, look, convert
a = session("convert-at-stop", ["errors"])
e = a.event("stopped")["body"]
t.check(e["reason"] == "exception" and "SIGSEGV" in e["description"],
        "stopped at the error: %r" % e)
r = a.request("exceptionInfo", {"threadId": e["threadId"]})
info = r["body"]
t.check(r["success"] and info["exceptionId"] == "SIGSEGV" and
        info["breakMode"] == "always" and
        info["description"].startswith("Program received SIGSEGV"),
        "exceptionInfo: %r" % r)
t.check("convert" in info["details"]["stackTrace"] and
        "recovery point" in info["details"]["stackTrace"],
        "the report with the choices: %r" % info)
frames = a.request("stackTrace",
                   {"threadId": e["threadId"]})["body"]["stackFrames"]
t.check(frames[0]["name"] == "crash" and frames[0]["line"] == L_FAULT,
        "the faulting line on top: %r" % frames[0])
scopes = a.request("scopes", {"frameId": frames[0]["id"]})["body"]["scopes"]
t.check([x["name"] for x in scopes] == ["Locals", "Globals"],
        "the faulting frame's scopes: %r" % scopes)
r = a.request("evaluate", {"expression": "dp_bad", "context": "watch",
                           "frameId": frames[0]["id"]})
t.check(r["success"] and r["body"]["result"].endswith("0x10"),
        "the pointer it went through: %r" % r)
r = a.request("stepBack", {"threadId": e["threadId"]})
t.check(not r["success"] and "only a recording goes back" in r["message"],
        "stepBack refused: %r" % r)
r = a.request("reverseContinue", {"threadId": e["threadId"]})
t.check(not r["success"] and "only a recording goes back" in r["message"],
        "reverseContinue refused: %r" % r)
r = a.request("evaluate", {"expression": "convert", "context": "repl"})
t.check(r["success"], "convert: %r" % r)
a.event("continued")
t.ends(a, 0, "convert-at-stop")
t.check("recovered\n" in a.output("stdout"), "recovered: %r" %
        a.output("stdout"))

# stop, then let the signal through
a = session("continue-at-stop", ["errors"])
e = a.event("stopped")["body"]
t.check(e["reason"] == "exception", "stopped at the error: %r" % e)
r = a.request("continue")
t.check(r["success"], "continue: %r" % r)
t.ends(a, 128 + 11, "continue-at-stop")

# no filter: no stop
a = session("no-filter", [])
t.ends(a, 128 + 11, "no-filter")
t.check(not a.events_now("stopped"), "no stop without the filter")

# converted without a stop
a = session("convert-filter", ["convert"])
t.ends(a, 0, "convert-filter")
t.check(not a.events_now("stopped"), "no stop with convert")
t.check("recovered\n" in a.output("stdout"), "converted: %r" %
        a.output("stdout"))
t.finish()
