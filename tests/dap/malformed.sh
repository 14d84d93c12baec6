#!/bin/sh
# SPDX-License-Identifier: MIT
# malformed.sh - bad input and requests at the wrong time to noosa --dap:
# tests/dap/malformed.py, a client of the protocol written with Python's
# standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/malformed.py"
