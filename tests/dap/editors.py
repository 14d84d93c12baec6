# SPDX-License-Identifier: MIT
"""editors.py - the editors' configurations that noosa(1) and
contrib/vscode give, checked against what the adapter reads:

 - contrib/vscode/package.json contributes the debugger type noosa, whose
   program is noosa-dap; its launch and attach attributes are exactly the
   ones noosa(1) lists under EDITORS;
 - a launch through noosa-dap, as VS Code runs it, with every launch
   attribute set: a handler file loaded (its handler says each tick),
   a start-up command, stopOnEntry (the first visible event, reason
   entry), the internal console;
 - the snippets of noosa(1): VS Code's is valid JSON with attributes of
   the debugger type; Helix's languages.toml parses and runs noosa --dap
   with templates for launch and attach; nvim-dap's and dape's run noosa
   --dap and name only attributes noosa reads.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Adapter, Test  # noqa: E402

t = Test("editors")
with open(os.path.join(t.srcdir, "contrib", "vscode", "package.json")) as f:
    pkg = json.load(f)
with open(os.path.join(t.srcdir, "man", "noosa.1"), encoding="utf-8") as f:
    man = f.read()

dbg = pkg["contributes"]["debuggers"]
t.check(len(dbg) == 1 and dbg[0]["type"] == "noosa" and
        dbg[0]["program"] == "./noosa-dap", "the debugger type: %r" % dbg)
attrs = dbg[0]["configurationAttributes"]
launch_keys = set(attrs["launch"]["properties"])
attach_keys = set(attrs["attach"]["properties"])

# noosa(1)'s lists: the .TP .B names of "Launching and attaching", and
# the attributes named for attach
section = man.split(".SS Launching and attaching")[1].split(".SS ")[0]
man_launch = set(re.findall(r"^\.TP\n\.B (\w+)$", section, re.M))
attach_text = section.split(".B attach")[1]
man_attach = set(re.findall(r"^\.BR? (\w+)", attach_text, re.M)) - {"pid"}
man_attach.add("pid")
t.check(man_launch == launch_keys, "launch attributes: man %r, VS Code %r"
        % (sorted(man_launch), sorted(launch_keys)))
t.check(man_attach == attach_keys, "attach attributes: man %r, VS Code %r"
        % (sorted(man_attach), sorted(attach_keys)))

# a launch through noosa-dap with every attribute
handlers = os.path.join(t.work, "ticks.handlers")
with open(handlers, "w") as f:
    f.write('n_install_handler {tick 0 say-tick 1 '
            '{n_say "handled tick $n\\n"}}\n')
env = dict(os.environ, NOOSA=t.noosa)
a = Adapter(os.path.join(t.srcdir, "contrib", "vscode", "noosa-dap"),
            log=os.path.join(t.work, "vscode.log"), cwd=t.work, env=env)
t.adapters.append(a)
config = {"type": "noosa", "request": "launch", "name": "every attribute",
          "program": t.dp, "args": ["run", "2"], "cwd": t.work,
          "env": {"DP_GREETING": "from VS Code"}, "stopOnEntry": True,
          "console": "internalConsole", "handlers": handlers,
          "browsers": [t.browsers],
          "commands": ["n_say \"commands ran\\n\""], "noInit": True}
t.check(set(config) - {"type", "request", "name"} == launch_keys - {"replay"},
        "every attribute but replay: %r" % sorted(config))
_, r = t.start(a, launch=config,
               init={"supportsRunInTerminalRequest": True})
t.check(r["success"], "the launch: %r" % r)
a.event("initialized")
a.request("configurationDone")
e = a.event("stopped")["body"]
# the first visible event: the program's made once step passes over the
# runtime's own init (noosa's step stops at it for now)
t.check(e["reason"] == "entry" and
        re.match(r"(made|init) ", e.get("text", "")),
        "stopOnEntry: %r" % e)
r = a.request("evaluate", {"expression": "handler list", "context": "repl"})
t.check(r["success"] and "say-tick" in r["body"]["result"],
        "the handler file: %r" % r)
a.request("continue")
a.event("terminated")
con = a.output("console")
t.check("commands ran" in con and "handled tick 1" in con and
        "handled tick -2" in con, "the console: %r" % con)
t.check("greeting from VS Code" in a.output("stdout") and
        not a.reverse_seen, "env, internalConsole: %r" % a.output())
a.request("disconnect")
t.check(a.wait_exit() == 0, "the adapter's exit status")


def snippet(name):
    m = re.search(r'^\.\\" snippet: %s\n(.*?)^\.\\" end$' % re.escape(name),
                  man, re.M | re.S)
    t.check(m is not None, "noosa(1) has the snippet %s" % name)
    text = m.group(1) if m else ""
    return text.replace("\\-", "-").replace("\\(aq", "'").replace("\\e",
                                                                   "\\")


vs = json.loads(snippet("vscode"))
t.check(vs["type"] == "noosa" and vs["request"] == "launch" and
        set(vs) - {"type", "request", "name"} <= launch_keys,
        "the VS Code snippet: %r" % vs)

try:
    import tomllib
except ImportError:  # Python before 3.11
    tomllib = None
if tomllib is None:
    print("note: no tomllib; the Helix snippet is not parsed")
else:
    hx = tomllib.loads(snippet("helix"))["language"][0]
    d = hx["debugger"]
    t.check(d["command"] == "noosa" and d["args"] == ["--dap"] and
            d["transport"] == "stdio", "Helix runs noosa --dap: %r" % d)
    temp = {x["request"]: set(x["args"]) for x in d["templates"]}
    t.check(temp.get("launch", {1}) <= launch_keys and
            temp.get("attach", {1}) <= attach_keys,
            "Helix's templates: %r" % temp)

nv = snippet("nvim-dap")
t.check("command = 'noosa', args = { '--dap' }" in nv,
        "nvim-dap runs noosa --dap: %r" % nv)
keys = set(re.findall(r"(\w+) = ", nv)) - {"local", "type", "request",
                                           "name", "command"}
keys -= {"dap", "adapters", "configurations", "noosa", "c"}
t.check(keys <= launch_keys | attach_keys, "nvim-dap's keys: %r" % keys)

dp = snippet("dape")
t.check('command "noosa" command-args ("--dap")' in dp,
        "dape runs noosa --dap: %r" % dp)
keys = set(re.findall(r":(\w+) ", dp)) - {"type", "request"}
t.check(keys <= launch_keys, "dape's keys: %r" % keys)
t.finish()
