#!/bin/sh
# SPDX-License-Identifier: MIT
# dap-run.sh - the debug adapter against noosa's own prompt (make
# bench-dap): bench/dap-run.py pinned to two CPUs, then to one (the
# client, noosa and the program all inherit the placement).  ROUNDS and
# CONTINUES as dap-run.py says.
set -e
B=${top_builddir:-.}
abs_top_builddir=$(cd "$B" && pwd)
abs_top_srcdir=$(cd "${srcdir:-.}" && pwd)
export abs_top_builddir abs_top_srcdir
PY=${PYTHON3:-python3}
W=$(mktemp -d "${TMPDIR:-/tmp}/noosa-bench-dap.XXXXXX")
trap 'rm -rf "$W"' EXIT
export WORK="$W"
if ! command -v taskset >/dev/null 2>&1; then
    echo "bench-dap: taskset is missing (Debian package util-linux): not pinned"
    "$PY" "$abs_top_srcdir/bench/dap-run.py"
    exit 0
fi
if [ "$(nproc)" -ge 2 ]; then
    echo "two CPUs (taskset -c 0,1):"
    taskset -c 0,1 "$PY" "$abs_top_srcdir/bench/dap-run.py"
fi
echo "one CPU (taskset -c 0):"
taskset -c 0 "$PY" "$abs_top_srcdir/bench/dap-run.py"
