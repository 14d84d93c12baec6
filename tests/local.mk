# SPDX-License-Identifier: MIT
# tests: rules for this folder (included from the top Makefile.am).
