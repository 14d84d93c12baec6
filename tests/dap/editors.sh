#!/bin/sh
# SPDX-License-Identifier: MIT
# editors.sh - the editors' configurations of noosa(1) and contrib/vscode:
# tests/dap/editors.py, a client of the protocol written with Python's
# standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/editors.py"
