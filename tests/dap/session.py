# SPDX-License-Identifier: MIT
"""session.py - a whole debug session through noosa --dap, as an editor
drives it, on dp run 4 (tests/dap/dp.c):

 - initialize: the capabilities that work are announced, step back not
   (a program launched is no recording);
 - launch with arguments, a working directory, an environment variable,
   a folder of browsers and a start-up command, which the program and the
   console show;
 - function breakpoints: an event with hit counting (every 2), named
   alone and with its aspect (dp.made), an event that does not exist (in
   an aspect that does not either), a bad condition and a bad hit
   condition (each unverified with its message);
 - line breakpoints: on a line that emits tick among two that do, with a
   condition true at both and a hit condition (>= 2) that must count the
   hits at that line alone; on a line that emits nothing (the message
   names the lines that do); log points at a line of several (a stop
   that only logs) and at a line of one (a handler); the lines that can
   have breakpoints (breakpointLocations), also in another file;
 - the stops: reason and breakpoint ids; threads (the worker by name);
   the stack with file, line and function, the runtime's frames hidden,
   and a page of it; the other thread's stack; the event's scope, its
   variables of the program's own type browsed through the Tcl browser
   two levels deep and a line of several values; the frame's arguments
   and locals and the unit's globals as C values, members and a page of
   an array's elements; evaluate for hover and watch (a parameter, a C
   expression at a frame, a global; not at another thread's frame) and
   the repl (a noosa command, a bad one, UTF-8 both ways; what Tcl and
   a child write on standard output goes to standard error); next to
   the next event;
 - continue to the end: the exit code, the program's standard output and
   error as output events (never in the protocol's stream: every frame
   is checked), the log points' lines, terminated; disconnect;
 - without a Tcl browser, a parameter of the program's type is its C
   value; restart at a stop; quit typed in the console ends the program;
 - dp built with -O2 (the stubs inlined): the same lines emit events,
   and a line breakpoint on an event emitted at two lines stops at its
   own, in the inlined frame; terminate.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test, line_of  # noqa: E402

t = Test("session")
DPC = t.dp_c
L_MADE = line_of(DPC, "site: made")
L_STEP = line_of(DPC, "site: tick-step")
L_QUIET = line_of(DPC, "site: quiet")
L_MAIN = line_of(DPC, "site: tick-main")
sub = os.path.join(t.work, "sub")
os.makedirs(sub)

a = t.adapter("session")
init, launch = t.start(a, launch=t.launch_args(
    "run", "4", cwd=sub, env={"DP_GREETING": "hello there", "DP_NONE": None},
    commands=['n_say "startup ok: [llength $n(events)] events\\n"']))
caps = init["body"]
for cap in ("supportsConfigurationDoneRequest", "supportsFunctionBreakpoints",
            "supportsConditionalBreakpoints",
            "supportsHitConditionalBreakpoints", "supportsEvaluateForHovers",
            "supportsLogPoints", "supportsTerminateRequest",
            "supportsRestartRequest", "supportsExceptionInfoRequest",
            "supportsBreakpointLocationsRequest"):
    t.check(caps.get(cap) is True, "capability %s: %r" % (cap, caps))
t.check(caps.get("supportsStepBack") is False,
        "no step back before a recording: %r" % caps)
t.check([f["filter"] for f in caps["exceptionBreakpointFilters"]] ==
        ["errors", "convert"], "filters: %r" % caps)
t.check(launch["success"], "launch: %r" % launch)
a.event("initialized")
t.check(re.search(r"startup ok: ([4-9]|1[0-9]) events", a.output("console")),
        "the start-up command ran: %r" % a.output("console"))

# --- breakpoints ------------------------------------------------------------
r = a.request("setFunctionBreakpoints", {"breakpoints": [
    {"name": "made", "hitCondition": "every 2"},
    {"name": "nosuch"},
    {"name": "tick", "condition": "$n <"},
    {"name": "tick", "hitCondition": "sometimes"}]})
fb = r["body"]["breakpoints"]
t.check(r["success"] and len(fb) == 4, "setFunctionBreakpoints: %r" % r)
t.check(fb[0]["verified"], "made every 2 verified: %r" % fb[0])
t.check(not fb[1]["verified"] and 'no event "nosuch"' in fb[1]["message"],
        "an unknown event: %r" % fb[1])
t.check(not fb[2]["verified"] and "condition" in fb[2]["message"],
        "a bad condition: %r" % fb[2])
t.check(not fb[3]["verified"] and "hit condition" in fb[3]["message"],
        "a bad hit condition: %r" % fb[3])
made_id = fb[0]["id"]
# only the good one stays, the event named with its aspect (ASPECT.NAME)
r = a.request("setFunctionBreakpoints", {"breakpoints": [
    {"name": "dp.made", "hitCondition": "every 2"},
    {"name": "nosuch.made"}]})
fb = r["body"]["breakpoints"]
t.check(fb[0]["verified"], "dp.made every 2 verified: %r" % fb[0])
t.check(not fb[1]["verified"] and 'no event "nosuch.made"' in fb[1]["message"],
        "an event of an aspect the program does not have: %r" % fb[1])
made_id = fb[0]["id"]

r = a.request("setBreakpoints", {"source": {"path": DPC}, "breakpoints": [
    {"line": L_MAIN, "condition": "$total >= 3", "hitCondition": ">= 2"},
    {"line": 3},
    {"line": L_STEP, "logMessage": "log tick {n} total {total}"},
    {"line": L_QUIET, "logMessage": "log quiet {n} twice {2 * $n}"}]})
lb = r["body"]["breakpoints"]
t.check(r["success"] and len(lb) == 4, "setBreakpoints: %r" % r)
t.check(lb[0]["verified"] and lb[0]["line"] == L_MAIN,
        "the line that emits tick: %r" % lb[0])
t.check(not lb[1]["verified"] and
        "tick (line %d)" % L_STEP in lb[1].get("message", "") and
        "made (line %d)" % L_MADE in lb[1].get("message", ""),
        "a line without an event names those that have one: %r" % lb[1])
t.check(lb[2]["verified"] and lb[3]["verified"], "log points: %r" % lb)
main_id = lb[0]["id"]
r = a.request("setBreakpoints", {
    "source": {"path": os.path.join(t.srcdir, "tests", "dap", "dp.h")},
    "breakpoints": [{"line": 10}]})
b = r["body"]["breakpoints"][0]
t.check(not b["verified"] and "dp.h emits no event" in b["message"],
        "a file without events: %r" % b)
r = a.request("breakpointLocations", {"source": {"path": DPC}, "line": 1,
                                      "endLine": 200})
lines = [x["line"] for x in r["body"]["breakpoints"]]
t.check(all(n in lines for n in (L_MADE, L_STEP, L_QUIET, L_MAIN)) and
        3 not in lines, "breakpointLocations: %r" % lines)
r = a.request("setExceptionBreakpoints", {"filters": ["errors"]})
t.check(r["success"], "setExceptionBreakpoints: %r" % r)

# --- the first stop -----------------------------------------------------------
t.check(a.request("configurationDone")["success"], "configurationDone")
e = a.event("stopped")["body"]
t.check(e["reason"] == "function breakpoint" and
        e.get("hitBreakpointIds") == [made_id] and
        e.get("text", "").startswith("made item=Item:0x"),
        "stopped at the second made: %r" % e)
tid = e["threadId"]

threads = a.request("threads")["body"]["threads"]
t.check(len(threads) == 2 and tid in [x["id"] for x in threads] and
        any("dp-worker" in x["name"] for x in threads),
        "threads: %r" % threads)

st = a.request("stackTrace", {"threadId": tid})["body"]
frames = st["stackFrames"]
t.check(frames[0]["name"] == "step" and
        frames[0]["source"]["path"] == DPC and frames[0]["line"] == L_MADE,
        "the emitting frame on top: %r" % frames[0])
t.check(frames[1]["name"] == "run" and frames[2]["name"] == "main",
        "its callers: %r" % frames[:3])
t.check(not any("dapto" in f["name"] for f in frames),
        "the runtime's frames hidden: %r" % frames)
t.check(st["totalFrames"] == len(frames), "totalFrames: %r" % st)
page = a.request("stackTrace", {"threadId": tid, "startFrame": 1,
                                "levels": 1})["body"]["stackFrames"]
t.check([f["name"] for f in page] == ["run"], "a page of frames: %r" % page)

scopes = a.request("scopes", {"frameId": frames[0]["id"]})["body"]["scopes"]
t.check([(x["name"], x["expensive"]) for x in scopes] ==
        [("Event made", False), ("Locals", False), ("Globals", True)],
        "the event's scope, the frame's, the unit's: %r" % scopes)


def variables(ref):
    r = a.request("variables", {"variablesReference": ref})
    t.check(r["success"], "variables %d: %r" % (ref, r))
    return {v["name"]: v for v in r["body"]["variables"]}


ev = variables(scopes[0]["variablesReference"])
t.check(set(ev) == {"item", "first"}, "the event's parameters: %r" % ev)
item, first = ev["item"], ev["first"]
t.check(item["value"].startswith("Item:0x") and item["type"] == "Item" and
        item["variablesReference"] > 0, "item: %r" % item)
kids = variables(first["variablesReference"])
t.check(kids["id"]["value"] == "1" and kids["name"]["value"] == '"item 1"',
        "the first item's fields: %r" % kids)
t.check(kids["next"]["value"] == item["value"] and
        kids["next"]["variablesReference"] > 0,
        "its next is the new item: %r" % kids)
grand = variables(kids["next"]["variablesReference"])
t.check(grand["id"]["value"] == "2" and grand["next"]["value"] == "Item:0x0",
        "two levels down: %r" % grand)
after = variables(kids["after"]["variablesReference"])
t.check(after["id"]["value"] == "2",
        "a line of one value browses it: %r" % after)

locs = variables(scopes[1]["variablesReference"])
t.check(locs["i"]["value"] == "2" and locs["i"]["type"] == "int" and
        locs["before"]["value"] == "1" and
        locs["it"]["type"] == "struct item *",
        "the frame's arguments and locals: %r" % locs)
star = variables(locs["it"]["variablesReference"])["*"]
fields = variables(star["variablesReference"])
t.check(fields["id"]["value"] == "2" and fields["next"]["value"] == "0x0" and
        fields["name"]["value"].startswith('"item 2'),
        "a C value's members: %r" % fields)
glob = variables(scopes[2]["variablesReference"])
t.check(glob["dp_total"]["value"] == "1" and
        glob["worker_pipe"].get("indexedVariables") == 2,
        "the unit's globals: %r" % glob)
page = a.request("variables", {
    "variablesReference": glob["worker_pipe"]["variablesReference"],
    "start": 1, "count": 1})["body"]["variables"]
t.check([v["name"] for v in page] == ["[1]"], "a page of elements: %r" %
        page)
r = a.request("evaluate", {"expression": "it->id + before",
                           "context": "watch", "frameId": frames[0]["id"]})
t.check(r["success"] and r["body"]["result"] == "3" and
        r["body"]["type"] == "long", "a C expression: %r" % r)
r = a.request("evaluate", {"expression": "i", "context": "hover",
                           "frameId": frames[1]["id"]})
t.check(r["success"] and r["body"]["result"] == "2",
        "at the caller's frame: %r" % r)
r = a.request("evaluate", {"expression": "dp_items", "context": "watch"})
t.check(r["success"] and
        r["body"]["result"].startswith("(struct item *) 0x") and
        r["body"]["variablesReference"] > 0, "a global: %r" % r)
other = [x["id"] for x in threads if x["id"] != tid][0]
ofr = a.request("stackTrace", {"threadId": other})["body"]["stackFrames"]
t.check(any(f["name"] == "worker" for f in ofr),
        "the other thread's stack: %r" % ofr)
r = a.request("evaluate", {"expression": "1", "context": "watch",
                           "frameId": ofr[0]["id"]})
t.check(not r["success"] and "the thread stopped" in r["message"],
        "another thread's frame: %r" % r)

r = a.request("evaluate", {"expression": "item", "context": "hover",
                           "frameId": frames[0]["id"]})
t.check(r["success"] and r["body"]["result"] == item["value"] and
        r["body"]["variablesReference"] > 0, "hover item: %r" % r)
r = a.request("evaluate", {"expression": "$first", "context": "watch"})
t.check(r["success"] and r["body"]["result"] == first["value"],
        "watch $first: %r" % r)
r = a.request("evaluate", {"expression": "nosuch", "context": "hover"})
t.check(not r["success"] and
        'No symbol "nosuch" in current context.' in r["message"],
        "hover on nothing: %r" % r)
r = a.request("evaluate", {"expression": "info breakpoints",
                           "context": "repl"})
t.check(r["success"] and "made every 2" in r["body"]["result"] and
        "tick if $total >= 3" in r["body"]["result"],
        "repl info breakpoints: %r" % r)
r = a.request("evaluate", {"expression": "frobnicate 1", "context": "repl"})
t.check(not r["success"] and "frobnicate" in r["message"],
        "repl with a bad command: %r" % r)
r = a.request("evaluate", {"expression": 'n_say "h\u00e9llo \u2713\\n"',
                           "context": "repl"})
t.check(r["success"] and r["body"]["result"] == "h\u00e9llo \u2713",
        "UTF-8 both ways: %r" % r)

r = a.request("evaluate", {"expression": 'puts stdout "stray words"; '
                           'flush stdout; '
                           'exec sh -c "echo from a child" >@stdout',
                           "context": "repl"})
with open(a.stderr_path, "rb") as f:
    stray = f.read()
t.check(r["success"] and not a.errors and b"stray words\n" in stray and
        b"from a child\n" in stray,
        "Tcl's stdout and a child's go to standard error, not into the "
        "protocol: %r %r %r" % (r, a.errors, stray))

# --- on -------------------------------------------------------------------------
t.check(a.request("next")["success"], "next")
e = a.event("stopped")["body"]
t.check(e["reason"] == "step" and e.get("text") == "tick n=2 total=3",
        "next goes to the next event: %r" % e)
top = a.request("stackTrace", {"threadId": tid})["body"]["stackFrames"][0]
t.check(top["line"] == L_STEP, "at the line that emits it: %r" % top)

t.check(a.request("continue")["body"]["allThreadsContinued"], "continue")
e = a.event("stopped")["body"]
t.check(e["reason"] == "function breakpoint" and
        e.get("hitBreakpointIds") == [made_id], "the fourth made: %r" % e)
top = a.request("stackTrace", {"threadId": tid})["body"]["stackFrames"][0]
scopes = a.request("scopes", {"frameId": top["id"]})["body"]["scopes"]
first = variables(scopes[0]["variablesReference"])["first"]
after = variables(variables(first["variablesReference"])["after"][
    "variablesReference"])
t.check(list(after) == ["[0]", "[1]", "[2]"] and
        all(v["value"].startswith("Item:0x") and v["variablesReference"] > 0
            for v in after.values()),
        "a line of several values, each browsable: %r" % after)
t.check(variables(after["[2]"]["variablesReference"])["id"]["value"] == "4",
        "the last of them: item 4")

a.request("continue")
e = a.event("stopped")["body"]
t.check(e["reason"] == "breakpoint" and
        e.get("hitBreakpointIds") == [main_id] and
        e.get("text") == "tick n=-4 total=10",
        "the line breakpoint's second hit at its line: %r" % e)
top = a.request("stackTrace", {"threadId": tid})["body"]["stackFrames"][0]
t.check(top["name"] == "run" and top["line"] == L_MAIN,
        "stopped at that line: %r" % top)

a.request("continue")
ex = a.event("exited")["body"]
t.check(ex["exitCode"] == 3, "the exit code: %r" % ex)
a.event("terminated")
out, err, con = a.output("stdout"), a.output("stderr"), a.output("console")
t.check("cwd %s\n" % sub in out and "greeting hello there\n" in out and
        "out 1\nout 2\nout 3\nout 4\ndone\n" in out,
        "the program's standard output: %r" % out)
t.check("err 1\n" in err and "err 4\n" in err, "its standard error: %r" % err)
t.check("log tick 1 total 1\n" in con and "log tick 4 total 10\n" in con and
        "log quiet 3 twice 6\n" in con, "log points: %r" % con)
t.check("n=3 total=6" not in con.replace("log tick 3 total 6", ""),
        "stops the client did not see are not said: %r" % con)
t.check("Program exited with status 3." in con, "the transcript: %r" % con)
t.check(a.request("disconnect")["success"], "disconnect")
t.check(a.wait_exit() == 0, "the adapter's exit status")

# --- restart and terminate ---------------------------------------------------------
a = t.adapter("restart")
t.start(a, launch=t.launch_args("run", "2", browsers=[]))
a.event("initialized")
a.request("setFunctionBreakpoints", {"breakpoints": [{"name": "made"}]})
a.request("configurationDone")
e = a.event("stopped")["body"]
t.check(e.get("text", "").startswith("made"), "first stop: %r" % e)
top = a.request("stackTrace", {"threadId": e["threadId"]})["body"][
    "stackFrames"][0]
sc = a.request("scopes", {"frameId": top["id"]})["body"]["scopes"]
ev = variables(sc[0]["variablesReference"])
t.check(ev["item"]["value"].startswith("Item:0x") and
        ev["item"]["variablesReference"] > 0,
        "without a Tcl browser, the C value: %r" % ev)
star = variables(ev["item"]["variablesReference"])["*"]
t.check(star["type"] == "struct item" and
        variables(star["variablesReference"])["id"]["value"] == "1",
        "its members: %r" % star)
t.check(a.request("continue")["success"], "continue")
e = a.event("stopped")["body"]
r = a.request("restart")
t.check(r["success"], "restart: %r" % r)
e = a.event("stopped")["body"]
ev = a.request("evaluate", {"expression": "item", "context": "hover"})
fi = a.request("evaluate", {"expression": "first", "context": "hover"})
t.check(e["reason"] == "function breakpoint" and
        ev["body"]["result"] == fi["body"]["result"],
        "after restart, at the first made again: %r %r %r" % (e, ev, fi))
t.check(a.output("stdout").count("cwd ") == 2, "the program ran twice")
r = a.request("evaluate", {"expression": "quit", "context": "repl"})
t.check(r["success"], "quit in the console: %r" % r)
t.ends(a, 137, "quit kills the program")

# --- inlined ------------------------------------------------------------------------
a = t.adapter("O2")
t.start(a, launch=t.launch_args("run", "4", program=t.dp_o2))
a.event("initialized")
r = a.request("breakpointLocations", {"source": {"path": DPC}, "line": 1,
                                      "endLine": 200})
t.check(sorted(x["line"] for x in r["body"]["breakpoints"]) == sorted(lines),
        "the same lines at -O2: %r" % r)
r = a.request("setBreakpoints", {"source": {"path": DPC}, "breakpoints": [
    {"line": L_MAIN, "condition": "$total >= 3"}]})
a.request("configurationDone")
e = a.event("stopped")["body"]
t.check(e.get("text") == "tick n=-2 total=3", "at tick-main: %r" % e)
top = a.request("stackTrace", {"threadId": e["threadId"]})["body"][
    "stackFrames"][0]
t.check(top["name"] == "run" and top["line"] == L_MAIN,
        "the inlined frame that emitted it: %r" % top)
a.request("continue")
e = a.event("stopped")["body"]
t.check(e.get("text") == "tick n=-4 total=10", "again: %r" % e)
t.check(a.request("terminate")["success"], "terminate")
t.ends(a, 137, "terminate kills the program")
t.finish()
