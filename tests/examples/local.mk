# SPDX-License-Identifier: MIT
# tests/examples: tests of the example program calc (examples/calc).
#
#   programs.sh       the example programs give their expected output, in
#                     both builds; the command line; the monitoring-free
#                     build has no trace of the runtime
#   errors.sh         every error gives its message and status, in both
#                     builds, and no output past the error
#   interface-test    calc's events and operations, inside the program
#                     with every event on (see the file's comment)
#   db.tcl            the generated .db files, sourced by tclsh, list the
#                     expected aspects, events and operations
#   browsers.tcl      the browsers, driven by canned n_send results
#   handlers.tcl      examples/calc/calc.handlers, checked against the
#                     interfaces and run with stub procs

TESTS += tests/examples/programs.sh tests/examples/errors.sh \
	tests/examples/interface-test tests/examples/db.tcl \
	tests/examples/browsers.tcl tests/examples/handlers.tcl
EXTRA_DIST += tests/examples/programs.sh tests/examples/errors.sh \
	tests/examples/db.tcl tests/examples/browsers.tcl \
	tests/examples/handlers.tcl tests/examples/stubs.tcl \
	tests/examples/expected

check_PROGRAMS += tests/examples/interface-test
tests_examples_interface_test_SOURCES = tests/examples/interface-test.c \
	$(CALC_SOURCES)
nodist_tests_examples_interface_test_SOURCES = $(CALC_DAPTO_C) $(CALC_DAPTO_H)
tests_examples_interface_test_CPPFLAGS = $(CALC_MONITOR_CPPFLAGS) \
	-I$(top_srcdir)/tests/lib
tests_examples_interface_test_LDADD = lib/libdapto.la
$(tests_examples_interface_test_OBJECTS): $(CALC_DAPTO_H)

clean-local: clean-examples-tests
clean-examples-tests:
	rm -rf tests/examples/work

.PHONY: clean-examples-tests
