# SPDX-License-Identifier: MIT
# man: rules for this folder (included from the top Makefile.am).
