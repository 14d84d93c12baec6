# SPDX-License-Identifier: MIT
# src/dapto: rules for this folder (included from the top Makefile.am).
