# SPDX-License-Identifier: MIT
# tests/runtime: rules for these tests.
