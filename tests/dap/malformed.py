# SPDX-License-Identifier: MIT
"""malformed.py - what noosa --dap does with input that is not what the
protocol says, and with requests at the wrong time: a failure response
with a message each time (request_seq 0 when no request could be read),
and the adapter goes on reading from the next header; never a crash, a
hang or a byte outside a frame (the client checks every frame):

 - a request before initialize; initialize twice;
 - a header without Content-Length, a length that is not a number, one
   too big, a header line without a colon, bytes that are no header, a
   header that never ends: each answered, and a good request after it
   still is;
 - a body that is not JSON, JSON that is not an object, an object that
   is not a request, a request without a command or a seq, arguments
   that are not an object, an unknown command;
 - requests that need a program before launch; a launch without a
   program, with bad arguments, with a program that does not exist; a
   second launch; configurationDone twice;
 - requests that need the program stopped while it runs (stackTrace,
   variables, continue, next, evaluate for hover), and pause then;
 - --dap-log writes every message both ways;
 - the client's end of input: the program noosa started dies with the
   adapter, which exits 0;
 - noosa --dap with a program on its command line is refused.
"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test  # noqa: E402

t = Test("malformed")
a = t.adapter("malformed")


def raw_fails(data, what, expect):
    """Write DATA, then a good request: a failure (request_seq 0) whose
    message has EXPECT, then the good request answered."""
    before = len(a.responses)
    a.write_raw(data)
    r = a.request("threads")
    t.check(r is not None, "%s: the next request is answered" % what)
    # the failure came before the good response, under request_seq 0
    bad = a.responses.pop(0, None)
    t.check(bad is not None and not bad["success"] and
            expect in bad.get("message", ""),
            "%s: %r (have %d responses before)" % (what, bad, before))


r = a.request("threads")
t.check(not r["success"] and "must be initialize" in r["message"],
        "before initialize: %r" % r)
r = a.request("initialize", {"clientID": "tests"})
t.check(r["success"], "initialize")
r = a.request("initialize", {"clientID": "tests"})
t.check(not r["success"] and "twice" in r["message"], "twice: %r" % r)

raw_fails(b"Content-Type: json\r\n\r\n{}", "no length", "without Content-Length")
raw_fails(b"Content-Length: twelve\r\n\r\n", "a bad length", "is not a length")
raw_fails(b"Content-Length: 99999999999\r\n\r\n", "too big", "is not a length")
raw_fails(b"Content-Length: 70000000\r\n\r\n", "too big",
          "more than the")
raw_fails(b"no colon here\r\n\r\n", "no colon", "bad header line")
raw_fails(b'Content-Length: 9\r\n\r\n{"seq": 1', "bad JSON", "bad JSON")
raw_fails(b"Content-Length: 6\r\n\r\n[1, 2]", "not an object",
          "must be a JSON object")
raw_fails(b"Content-Length: 2\r\n\r\n\xff\xfe", "not UTF-8", "bad JSON")
raw_fails(b"Content-Length: 17\r\n\r\n" + b'{"type": "event"}',
          "an event", "the adapter takes requests")
raw_fails(b"Content-Length: 19\r\n\r\n" + b'{"type": "request"}',
          "no command", 'needs "seq"')


def fails(command, args, expect, what):
    r = a.request(command, args)
    t.check(not r["success"] and expect in r.get("message", ""),
            "%s: %r" % (what, r))


seq = a.next_seq()
a.send_message({"seq": seq, "type": "request", "command": "threads",
                "arguments": [1]})
r = a.response(seq)
t.check(not r["success"] and "must be an object" in r["message"],
        "arguments not an object: %r" % r)
fails("frobnicate", {}, 'unknown request "frobnicate"', "unknown command")
fails("stackTrace", {"threadId": 1}, "launch or attach first",
      "stackTrace before launch")
fails("configurationDone", None, "launch or attach first",
      "configurationDone before launch")
fails("launch", {}, 'needs "program"', "launch without a program")
fails("launch", {"program": t.dp, "args": "run 4"}, '"args" must be a list',
      "args as a string")
fails("launch", {"program": t.dp, "env": {"A": 1}}, "string or null",
      "a number in env")
fails("launch", {"program": "/nonexistent/prog", "noInit": True},
      "/nonexistent/prog", "a program that is not there")
fails("launch", {"program": t.dp, "cwd": "/nonexistent"}, "cwd",
      "a cwd that is not there")

# a garbage run of bytes, then a header: read from that header on
a.write_raw(b"garbage garbage\r\n")
a.write_raw(b"more garbage Content-Length")
r = a.request("launch", t.launch_args("wait"))
t.check(r["success"], "the launch after garbage: %r" % r)
bad = a.responses.pop(0, None)
t.check(bad is not None and not bad["success"], "garbage answered: %r" % bad)
a.event("initialized")
fails("launch", t.launch_args("wait"), "already there", "a second launch")
t.check(a.request("configurationDone")["success"], "configurationDone")
fails("configurationDone", None, "twice", "configurationDone twice")
a.wait_output("ready", "stdout")
for command, args in (("stackTrace", {"threadId": 1}),
                      ("variables", {"variablesReference": 1}),
                      ("continue", {"threadId": 1}),
                      ("next", {"threadId": 1}),
                      ("scopes", {"frameId": 1})):
    fails(command, args, "the program is running: pause it first",
          "%s while it runs" % command)
fails("evaluate", {"expression": "n", "context": "hover"},
      "the program is running", "hover while it runs")
r = a.request("evaluate", {"expression": "set x 6; expr {$x * 7}",
                           "context": "repl"})
t.check(r["success"] and r["body"]["result"] == "6\n42",
        "the repl works while it runs: %r" % r)
t.check(a.request("pause")["success"], "pause")
e = a.event("stopped")["body"]
t.check(e["reason"] == "pause", "paused: %r" % e)
fails("variables", {"variablesReference": 12345}, "no reference 12345",
      "a reference that is not one")
fails("scopes", {"frameId": 999}, "no frame 999", "a frame that is not one")
fails("stackTrace", {"threadId": "x"}, "threadId", "a thread that is not one")
pid = e["threadId"]
t.check(os.path.exists("/proc/%d" % pid), "the program lives")
# a header that never ends, then the end of the input
a.write_raw(b"Content-Length: 5\r\n" + b"X-Padding: " + b"x" * 9000)
bad = a.response(0)
t.check("without its empty line" in bad["message"],
        "a header that never ends: %r" % bad)
a.proc.stdin.close()
t.check(a.wait_exit() == 0, "the adapter exits at the end of its input")
for _ in range(100):
    if not os.path.exists("/proc/%d" % pid):
        break
    time.sleep(0.1)
t.check(not os.path.exists("/proc/%d" % pid),
        "the program dies with the adapter")

with open(os.path.join(t.work, "malformed.log"), errors="replace") as f:
    log = f.read()
t.check("<- " in log and "-> " in log and "frobnicate" in log,
        "--dap-log has both ways")

r = subprocess.run([t.noosa, "--dap", t.dp], stdin=subprocess.DEVNULL,
                   capture_output=True, timeout=30)
t.check(r.returncode == 2 and b"launch or attach request" in r.stderr and
        r.stdout == b"", "a program on the command line: %r" % (r,))
r = subprocess.run([t.noosa, "--dap-log", "x"], stdin=subprocess.DEVNULL,
                   capture_output=True, timeout=30)
t.check(r.returncode == 2 and b"--dap-log goes with --dap" in r.stderr,
        "--dap-log alone: %r" % (r,))
t.finish()
