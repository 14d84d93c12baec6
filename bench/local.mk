# SPDX-License-Identifier: MIT
# bench: rules for this folder (included from the top Makefile.am).
