#!/bin/sh
# SPDX-License-Identifier: MIT
# terminal.sh - the program's terminal in the editor (runInTerminal):
# tests/dap/terminal.py, a client of the protocol written with Python's
# standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/terminal.py"
