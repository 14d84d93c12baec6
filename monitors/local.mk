# SPDX-License-Identifier: MIT
# monitors: rules for this folder (included from the top Makefile.am).
