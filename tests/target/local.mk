# SPDX-License-Identifier: MIT
# tests/target: the monitor side.  Unit tests of the decoder, and
# end-to-end runs of noosa on the programs here.

EXTRA_DIST += tests/target/wire.h
NOOSA_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src -I$(top_srcdir)/tests/lib \
	-I$(top_srcdir)/tests/target

check_PROGRAMS += tests/target/test-reader
TESTS += tests/target/test-reader
tests_target_test_reader_CPPFLAGS = $(NOOSA_TEST_CPPFLAGS)
tests_target_test_reader_LDADD = src/libnoosa.la
