# SPDX-License-Identifier: MIT
"""dapclient.py - a client of the Debug Adapter Protocol for the tests of
noosa --dap (tests/dap), with Python's standard library only.

Adapter starts `noosa --dap` with its standard input and output as the
protocol's and reads every message it sends on a thread of its own,
checking each frame as it comes: a Content-Length header that counts the
body's bytes of UTF-8 exactly, a JSON object, a seq one more than the
last.  A broken frame is a failure of the test, not something to skip.
request() sends a request and waits for its response; events are kept in
order and taken with event() (waiting) or events_now().  The adapter's
own requests (runInTerminal) are answered by a function the test gives.

The test helpers at the end (Test, here(), line_of()) set up the work
directory, find the tree and the test program, and count failures.
"""

import json
import os
import queue
import subprocess
import sys
import threading
import time

TIMEOUT = float(os.environ.get("DAP_TIMEOUT", "60"))


class ProtocolError(Exception):
    pass


class Adapter:
    def __init__(self, noosa, args=(), log=None, cwd=None, env=None):
        cmd = [noosa, "--dap"] + list(args)
        if log is not None:
            cmd += ["--dap-log", log]
        # beside the log, or in the adapter's directory: never where the
        # client happens to run (the tree, for a bench)
        self.stderr_path = (log or os.path.join(cwd or ".", "adapter")) + \
            ".stderr"
        self.stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=self.stderr, cwd=cwd, env=env)
        self.seq = 0
        self.last_seq = 0
        self.responses = {}
        self.cond = threading.Condition()
        self.events = []
        self.all_events = []
        self.errors = []
        self.reverse = {}      # command -> function(args) -> body or None
        self.reverse_seen = []
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # --- reading ---------------------------------------------------------

    def _read_frame(self, f):
        length = None
        while True:
            line = f.readline()
            if line == b"":
                return None
            if line in (b"\r\n", b"\n"):
                if length is None:
                    raise ProtocolError("a header without Content-Length")
                break
            if not line.endswith(b"\r\n"):
                raise ProtocolError("a header line without CRLF: %r" % line)
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        body = f.read(length)
        if len(body) != length:
            raise ProtocolError("the output ended inside a body")
        text = body.decode("utf-8")  # raises when not UTF-8
        msg = json.loads(text)       # raises when the length was wrong
        if not isinstance(msg, dict):
            raise ProtocolError("a body that is not an object: %r" % text)
        return msg

    def _read(self):
        f = self.proc.stdout
        try:
            while True:
                msg = self._read_frame(f)
                if msg is None:
                    break
                self._take(msg)
        except Exception as e:  # noqa: BLE001 - any break is a failure
            with self.cond:
                self.errors.append("reading the adapter: %r" % (e,))
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def _take(self, msg):
        with self.cond:
            seq = msg.get("seq")
            if seq != self.last_seq + 1:
                self.errors.append("seq %r after %d" % (seq, self.last_seq))
            self.last_seq = seq if isinstance(seq, int) else self.last_seq
            kind = msg.get("type")
            if kind == "response":
                self.responses[msg.get("request_seq")] = msg
            elif kind == "event":
                self.events.append(msg)
                self.all_events.append(msg)
            elif kind == "request":
                self.reverse_seen.append(msg)
                threading.Thread(target=self._answer, args=(msg,),
                                 daemon=True).start()
            else:
                self.errors.append("a message of type %r" % (kind,))
            self.cond.notify_all()

    def _answer(self, msg):
        fn = self.reverse.get(msg.get("command"))
        if fn is None:
            self.send_message({"type": "response", "request_seq": msg["seq"],
                               "command": msg["command"], "success": False,
                               "message": "not supported by the test"})
            return
        try:
            body = fn(msg.get("arguments", {}))
            self.send_message({"type": "response", "request_seq": msg["seq"],
                               "command": msg["command"], "success": True,
                               "body": body or {}})
        except Exception as e:  # noqa: BLE001
            self.send_message({"type": "response", "request_seq": msg["seq"],
                               "command": msg["command"], "success": False,
                               "message": str(e)})

    # --- writing ---------------------------------------------------------

    def write_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send_message(self, msg):
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        with self.cond:
            self.write_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send(self, command, arguments=None):
        with self.cond:
            self.seq += 1
            seq = self.seq
        msg = {"seq": seq, "type": "request", "command": command}
        if arguments is not None:
            msg["arguments"] = arguments
        self.send_message(msg)
        return seq

    def response(self, seq, timeout=TIMEOUT):
        end = time.time() + timeout
        with self.cond:
            while seq not in self.responses:
                left = end - time.time()
                if left <= 0 or self.closed:
                    raise ProtocolError("no response to request %d" % seq)
                self.cond.wait(left)
            return self.responses.pop(seq)

    def request(self, command, arguments=None, timeout=TIMEOUT):
        return self.response(self.send(command, arguments), timeout)

    def next_seq(self):
        """The seq the next request will have (for raw messages)."""
        with self.cond:
            self.seq += 1
            return self.seq

    # --- events ----------------------------------------------------------

    def event(self, name, timeout=TIMEOUT, pred=None):
        """The first event NAME (for which PRED holds) not taken yet;
        those before it that are not it stay."""
        end = time.time() + timeout
        with self.cond:
            while True:
                for i, e in enumerate(self.events):
                    if e.get("event") == name and (pred is None or pred(e)):
                        return self.events.pop(i)
                left = end - time.time()
                if left <= 0 or self.closed:
                    raise ProtocolError("no %s event (have: %s)" % (
                        name, [e.get("event") for e in self.events]))
                self.cond.wait(left)

    def events_now(self, name):
        with self.cond:
            return [e for e in self.all_events if e.get("event") == name]

    def output(self, category=None):
        return "".join(e["body"]["output"] for e in self.events_now("output")
                       if category is None or
                       e["body"].get("category") == category)

    def wait_output(self, text, category=None, timeout=TIMEOUT):
        end = time.time() + timeout
        with self.cond:
            while text not in self.output(category):
                left = end - time.time()
                if left <= 0 or self.closed:
                    raise ProtocolError("no output %r (have %r)" % (
                        text, self.output(category)))
                self.cond.wait(left)

    def wait_exit(self, timeout=TIMEOUT):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise ProtocolError("the adapter did not exit")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()


# --- the tests' helpers ---------------------------------------------------


class Test:
    """A test script's frame: the tree, the work directory, failures."""

    def __init__(self, name):
        self.srcdir = os.path.abspath(os.environ.get("abs_top_srcdir", "."))
        self.builddir = os.path.abspath(os.environ.get("abs_top_builddir",
                                                       "."))
        self.noosa = os.path.join(self.builddir, "src", "noosa")
        self.dp = os.path.join(self.builddir, "tests", "dap", "dp-O0")
        self.dp_o2 = os.path.join(self.builddir, "tests", "dap", "dp-O2")
        self.dp_c = os.path.join(self.srcdir, "tests", "dap", "dp.c")
        self.browsers = os.path.join(self.srcdir, "tests", "dap", "browsers")
        self.work = os.path.join(self.builddir, "tests", "dap", "work", name)
        subprocess.call(["rm", "-rf", self.work])
        os.makedirs(os.path.join(self.work, "home"))
        os.makedirs(os.path.join(self.work, "xdg"))
        os.environ["HOME"] = os.path.join(self.work, "home")
        os.environ["XDG_CONFIG_HOME"] = os.path.join(self.work, "xdg")
        os.environ.pop("NOOSA_LIBRARY", None)
        os.chdir(self.work)
        self.failures = 0
        self.adapters = []

    def check(self, ok, what):
        if not ok:
            self.failures += 1
            print("FAIL: %s" % what)
            sys.stdout.flush()
        return ok

    def adapter(self, name="adapter"):
        a = Adapter(self.noosa, log=os.path.join(self.work, name + ".log"),
                    cwd=self.work)
        self.adapters.append(a)
        return a

    def launch_args(self, *args, **more):
        d = {"program": self.dp, "args": list(args), "noInit": True,
             "browsers": [self.browsers], "cwd": self.work}
        d.update(more)
        return d

    def start(self, a, launch=None, attach=None, init=None):
        """initialize, then launch (or attach) with the arguments given:
        the responses."""
        args = {"clientID": "noosa-tests", "adapterID": "noosa",
                "linesStartAt1": True, "columnsStartAt1": True,
                "pathFormat": "path"}
        args.update(init or {})
        init_r = a.request("initialize", args)
        self.check(init_r["success"], "initialize: %r" % init_r)
        if launch is not None:
            r = a.request("launch", launch)
        else:
            r = a.request("attach", attach)
        return init_r, r

    def ends(self, a, code, what):
        """The program of A ends with CODE: exited, terminated; then
        disconnect, and the adapter exits 0."""
        ex = a.event("exited")["body"]
        self.check(ex["exitCode"] == code, "%s: exit code %d: %r" % (
            what, code, ex))
        a.event("terminated")
        a.request("disconnect")
        self.check(a.wait_exit() == 0, "%s: the adapter's exit status" % what)

    def finish(self):
        for a in self.adapters:
            a.close()
            for e in a.errors:
                self.check(False, "protocol: %s" % e)
        if self.failures:
            print("%d failure(s); logs in %s" % (self.failures, self.work))
            sys.exit(1)
        sys.exit(0)


def line_of(path, marker):
    """The line number (from 1) of the line of PATH holding MARKER."""
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if marker in line:
                return i
    raise ValueError("%s: no %r" % (path, marker))
