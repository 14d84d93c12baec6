#!/bin/sh
# SPDX-License-Identifier: MIT
# errors.sh - run-time errors through noosa --dap: tests/dap/errors.py, a
# client of the protocol written with Python's standard library (its
# comment says what it checks).
exec "${PYTHON3:-python3}" "${srcdir:-.}/tests/dap/errors.py"
