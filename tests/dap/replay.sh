#!/bin/sh
# SPDX-License-Identifier: MIT
# replay.sh - a recording played through noosa --dap, with step back:
# tests/dap/replay.py, a client of the protocol written with Python's
# standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/replay.py"
