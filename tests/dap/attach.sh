#!/bin/sh
# SPDX-License-Identifier: MIT
# attach.sh - attaching to a running program through noosa --dap, and
# detaching: tests/dap/attach.py, a client of the protocol written with
# Python's standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/attach.py"
