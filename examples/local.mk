# SPDX-License-Identifier: MIT
# examples: rules for this folder (included from the top Makefile.am).
