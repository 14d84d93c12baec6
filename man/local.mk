# SPDX-License-Identifier: MIT
# man: rules for this folder (included from the top Makefile.am).
dist_man_MANS += man/dapto.1
dist_man_MANS += man/libdapto.3
dist_man_MANS += man/noosa.1 man/noosa-tcl.7
