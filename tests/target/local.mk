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

# A program without the runtime, for target control.
check_PROGRAMS += tests/target/tt-prog
tests_target_tt_prog_CFLAGS = -g -O0
tests_target_tt_prog_LDADD = -lpthread

check_PROGRAMS += tests/target/test-target
TESTS += tests/target/test-target
tests_target_test_target_CPPFLAGS = $(NOOSA_TEST_CPPFLAGS)
tests_target_test_target_LDADD = src/libnoosa.la
