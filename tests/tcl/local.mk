# SPDX-License-Identifier: MIT
# tests/tcl: unit tests of tcl/noosa.tcl in a plain tclsh (tcltest).

TESTS += tests/tcl/api.tcl
EXTRA_DIST += tests/tcl/api.tcl
