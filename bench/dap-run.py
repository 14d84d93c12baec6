# SPDX-License-Identifier: MIT
"""dap-run.py - the debug adapter's latency against noosa's own prompt
(make bench-dap, run by bench/dap-run.sh pinned to CPUs).

On tests/dap/dp-O0 run N, with a breakpoint on tick (two a step), each
round measures, one after the other:

  dap     noosa --dap driven by tests/dap/dapclient.py as an editor drives
          it: initialize, launch, then (after initialized)
          setFunctionBreakpoints and configurationDone, up to the first
          stopped event; then CONTINUES times continue up to the next
          stopped event
  prompt  noosa -b -n with its commands on standard input, as typed at
          its prompt: break tick, run, up to the transcript's first
          "Stopped at" line; then CONTINUES times continue up to the next

and prints the medians over ROUNDS rounds (each continue a sample):
launch to the first stop, from the launch request and from the
process's start (the prompt's is from its start, which includes what the
adapter does at launch: the Tcl layer, the describe pass), and continue
to the next stop, with the ratios dap / prompt.
"""

import os
import statistics
import subprocess
import sys
import time

top = os.environ.get("abs_top_srcdir") or os.getcwd()
build = os.environ.get("abs_top_builddir") or os.getcwd()
sys.path.insert(0, os.path.join(top, "tests", "dap"))
from dapclient import Adapter  # noqa: E402

NOOSA = os.path.join(build, "src", "noosa")
DP = os.path.join(build, "tests", "dap", "dp-O0")
ROUNDS = int(os.environ.get("ROUNDS", "10"))
CONTINUES = int(os.environ.get("CONTINUES", "20"))
STEPS = str(CONTINUES + 10)
WORK = os.environ.get("WORK", "/tmp")


def dap_round():
    spawn = time.perf_counter()
    a = Adapter(NOOSA, cwd=WORK, log=None)
    a.request("initialize", {"clientID": "bench"})
    launch = time.perf_counter()
    a.request("launch", {"program": DP, "args": ["run", STEPS],
                         "noInit": True, "console": "internalConsole"})
    a.event("initialized")
    a.request("setFunctionBreakpoints", {"breakpoints": [{"name": "tick"}]})
    a.request("configurationDone")
    a.event("stopped")
    first = time.perf_counter()
    conts = []
    for _ in range(CONTINUES):
        t0 = time.perf_counter()
        a.request("continue")
        a.event("stopped")
        conts.append(time.perf_counter() - t0)
    a.request("disconnect")
    a.close()
    return first - launch, first - spawn, conts


def prompt_round():
    spawn = time.perf_counter()
    p = subprocess.Popen([NOOSA, "-b", "-n", DP, "run", STEPS],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=WORK)

    def to_stop():
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("noosa ended before a stop")
            if line.startswith(b"Stopped at "):
                return

    p.stdin.write(b"break tick\nrun\n")
    p.stdin.flush()
    to_stop()
    first = time.perf_counter()
    conts = []
    for _ in range(CONTINUES):
        t0 = time.perf_counter()
        p.stdin.write(b"continue\n")
        p.stdin.flush()
        to_stop()
        conts.append(time.perf_counter() - t0)
    p.stdin.write(b"kill\nquit\n")
    p.stdin.close()
    p.wait()
    return first - spawn, conts


def ms(x):
    return "%.2f ms" % (x * 1000)


d_launch, d_spawn, d_cont, p_spawn, p_cont = [], [], [], [], []
for _ in range(ROUNDS):
    a, b, c = dap_round()
    d_launch.append(a)
    d_spawn.append(b)
    d_cont += c
    a, c = prompt_round()
    p_spawn.append(a)
    p_cont += c
med = statistics.median
print("  launch to the first stop: dap %s from the launch request, %s from "
      "its start; prompt %s from its start; dap / prompt %.2f" % (
          ms(med(d_launch)), ms(med(d_spawn)), ms(med(p_spawn)),
          med(d_spawn) / med(p_spawn)))
print("  continue to the next stop: dap %s, prompt %s; dap / prompt %.2f" % (
    ms(med(d_cont)), ms(med(p_cont)), med(d_cont) / med(p_cont)))
