# SPDX-License-Identifier: MIT
# tests/runtime: the channel library and libdapto.

check_PROGRAMS += tests/runtime/ring-test
TESTS += tests/runtime/ring-test
tests_runtime_ring_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lib
tests_runtime_ring_test_LDADD = lib/libchannel.la -lpthread
