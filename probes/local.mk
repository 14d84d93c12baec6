# SPDX-License-Identifier: MIT
# probes: hints for known providers' USDT probes, one Tcl file per
# provider (the probe command: names and kinds of arguments, components),
# installed where noosa reads them at start-up (<design#probes>).

probesdir = $(pkgdatadir)/probes
dist_probes_DATA = probes/python.tcl
