# SPDX-License-Identifier: MIT
# tests/dapto: rules for these tests.
