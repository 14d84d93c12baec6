# SPDX-License-Identifier: MIT
# tests/profile: component stacks, profiles, the event trace, monitors and
# auto-instrumented programs.
#
#   stacks-test   the calling-context tree and the stacks on their own

PROF_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src \
	-I$(top_srcdir)/tests/lib $(TCL_CFLAGS)

check_PROGRAMS += tests/profile/stacks-test
TESTS += tests/profile/stacks-test
tests_profile_stacks_test_CPPFLAGS = $(PROF_TEST_CPPFLAGS)
tests_profile_stacks_test_LDADD = src/libnoosa.la
