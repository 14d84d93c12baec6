# SPDX-License-Identifier: MIT
# tests/target: rules for these tests.
