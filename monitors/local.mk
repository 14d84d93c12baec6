# SPDX-License-Identifier: MIT
# monitors: monitor files, loaded (off) at start-up from
# $(pkgdatadir)/monitors, or from the source tree when noosa runs from its
# build tree.

nobase_dist_pkgdata_DATA += monitors/eventcount.tcl monitors/depth.tcl \
	monitors/postlog.tcl
