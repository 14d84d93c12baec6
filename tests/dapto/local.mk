# SPDX-License-Identifier: MIT
# tests/dapto: tests of the dapto compiler.
#
#   golden.sh   every specification in spec/ against its expected outputs
#               in expected/ (make dapto-regen rewrites them)
#   compile.sh  the generated code of spec/*, built as C and C++ with gcc
#               and clang, linked with libdapto, run with a driver
#   bad.sh      every malformed specification in bad/ gives exactly the
#               diagnostics in its .err file, and no output file
#   cli.sh      the command line
#   db.tcl      the .db files, sourced by tclsh, give back every string
#   man.sh      dapto(1) renders cleanly and documents every option
#   unit        the compiler's modules on buffers

TESTS += tests/dapto/unit tests/dapto/golden.sh tests/dapto/compile.sh \
	tests/dapto/bad.sh tests/dapto/cli.sh tests/dapto/db.tcl tests/dapto/man.sh
check_PROGRAMS += tests/dapto/unit
tests_dapto_unit_SOURCES = tests/dapto/unit.c $(DAPTO_CORE_SOURCES)
tests_dapto_unit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/dapto -I$(top_srcdir)/src/base \
	-I$(top_srcdir)/tests/lib
EXTRA_DIST += tests/dapto/golden.sh tests/dapto/compile.sh \
	tests/dapto/bad.sh tests/dapto/cli.sh tests/dapto/db.tcl \
	tests/dapto/man.sh tests/dapto/opcall.h \
	tests/dapto/spec tests/dapto/expected tests/dapto/bad

dapto-regen: src/dapto/dapto$(EXEEXT)
	REGEN=1 srcdir='$(srcdir)' top_srcdir='$(top_srcdir)' \
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)' \
	$(SHELL) $(srcdir)/tests/dapto/golden.sh
	REGEN=1 srcdir='$(srcdir)' top_srcdir='$(top_srcdir)' \
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)' \
	$(SHELL) $(srcdir)/tests/dapto/bad.sh

clean-local: clean-dapto-tests
clean-dapto-tests:
	rm -rf tests/dapto/work

.PHONY: dapto-regen clean-dapto-tests
