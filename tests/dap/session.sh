#!/bin/sh
# SPDX-License-Identifier: MIT
# session.sh - a whole debug session through noosa --dap:
# tests/dap/session.py, a client of the protocol written with Python's
# standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/session.py"
