#!/bin/sh
# SPDX-License-Identifier: MIT
# pause.sh - pause while the program stops at events the client is not to
# see: tests/dap/pause.py, a client of the protocol written with Python's
# standard library (its comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/pause.py"
