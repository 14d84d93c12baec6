# SPDX-License-Identifier: MIT
# tcl: rules for this folder (included from the top Makefile.am).
