# SPDX-License-Identifier: MIT
# tcl: rules for this folder (included from the top Makefile.am).

# Installed as $(pkgdatadir)/tcl/noosa.tcl; noosa run from its build tree
# reads the one in the source tree.
nobase_dist_pkgdata_DATA = tcl/noosa.tcl
