# SPDX-License-Identifier: MIT
"""terminal.py - the program's terminal in the editor (runInTerminal),
on dp lines (tests/dap/dp.c).  This client offers runInTerminal and runs
what the adapter asks in a pseudo-terminal of its own, as an editor's
integrated terminal does (a session whose controlling terminal it is):

 - the program reads what is typed in that terminal and writes there,
   none of it in output events; a breakpoint stops it at the line typed;
 - a Ctrl-C typed there reaches the program (SIGINT: exit code 130),
   also when the client and so the adapter ignore SIGINT;
 - a client that fails the request: the program's output comes as
   output events, and the console says why;
 - console internalConsole: no terminal asked for.
"""

import fcntl
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import Test, TIMEOUT  # noqa: E402

# As an editor may start its debug adapter (and a script's background
# job is started): with SIGINT and SIGQUIT ignored, which the adapter and
# the program would inherit; the program in the terminal must still get
# the default action of a Ctrl-C typed there.
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGQUIT, signal.SIG_IGN)

t = Test("terminal")
OFFER = {"supportsRunInTerminalRequest": True}


class Terminal:
    def __init__(self):
        self.kind = None
        self.master = None
        self.proc = None
        self.text = b""

    def run(self, args):
        # before the terminal starts: the adapter answers the launch once
        # the terminal is there, which may be before this function returns
        self.kind = args.get("kind")
        self.master, slave = pty.openpty()

        def controlling():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(args["args"], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=args.get("cwd"),
                                     preexec_fn=controlling)
        os.close(slave)
        return {"processId": self.proc.pid}

    def wait_for(self, text):
        end = time.time() + TIMEOUT
        while text.encode() not in self.text:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("no %r in the terminal: %r" % (
                    text, self.text))
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                try:
                    self.text += os.read(self.master, 4096)
                except OSError:
                    break
        return True

    def type(self, text):
        os.write(self.master, text.encode())


term = Terminal()
a = t.adapter("terminal")
a.reverse["runInTerminal"] = term.run
_, r = t.start(a, launch=t.launch_args("lines"), init=OFFER)
t.check(r["success"], "launch: %r" % r)
t.check(len(a.reverse_seen) == 1 and
        a.reverse_seen[0]["arguments"]["args"][1] == "--dap-terminal" and
        term.kind == "integrated", "runInTerminal asked: %r" %
        a.reverse_seen)
a.event("initialized")
a.request("setFunctionBreakpoints", {"breakpoints": [
    {"name": "said", "condition": '$text eq "two"'}]})
a.request("configurationDone")
t.check(term.wait_for("ready"), "the program writes in its terminal")
term.type("one\n")
t.check(term.wait_for("got one"), "and reads what is typed there")
term.type("two\n")
e = a.event("stopped")["body"]
t.check(e.get("text") == 'said text="two"', "stopped at two: %r" % e)
a.request("continue")
t.check(term.wait_for("got two"), "goes on")
t.check(a.output("stdout") == "" and a.output("stderr") == "",
        "no output events: %r" % a.output())
time.sleep(0.2)
term.type("\x03")
ex = a.event("exited")["body"]
t.check(ex["exitCode"] == 128 + 2, "Ctrl-C there interrupts it: %r" % ex)
a.event("terminated")
a.request("disconnect")
t.check(a.wait_exit() == 0, "the adapter's exit status")
t.check(term.proc.wait(TIMEOUT) == 0, "the terminal's helper ends with it")

# a client that cannot run it
a = t.adapter("refused")
_, r = t.start(a, launch=t.launch_args("run", "1"), init=OFFER)
t.check(r["success"], "launch: %r" % r)
a.event("initialized")
a.request("configurationDone")
a.event("terminated")
t.check("could not be had" in a.output("console") and
        "not supported by the test" in a.output("console"),
        "the console says why: %r" % a.output("console"))
t.check("out 1\n" in a.output("stdout"), "output events instead")
a.request("disconnect")

# internalConsole
a = t.adapter("internal")
_, r = t.start(a, launch=t.launch_args("run", "1",
                                       console="internalConsole"),
               init=OFFER)
a.event("initialized")
a.request("configurationDone")
a.event("terminated")
t.check(not a.reverse_seen and "out 1\n" in a.output("stdout"),
        "no terminal asked for")
a.request("disconnect")
t.finish()
