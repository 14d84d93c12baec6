# SPDX-License-Identifier: MIT
# browsers: Noosa browsers, one Tcl file per type (n_TYPE_say,
# n_TYPE_open, n(TYPE,desc)), installed where noosa autoloads them.  The
# ones here are for the example program examples/calc.

browsersdir = $(pkgdatadir)/browsers
dist_browsers_DATA = browsers/Environment.tcl browsers/Node.tcl \
	browsers/Value.tcl
