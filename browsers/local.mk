# SPDX-License-Identifier: MIT
# browsers: rules for this folder (included from the top Makefile.am).
