# SPDX-License-Identifier: MIT
# tests/front: unit tests of the front end's models.

check_PROGRAMS += tests/front/transcript-test
TESTS += tests/front/transcript-test
tests_front_transcript_test_SOURCES = tests/front/transcript-test.c \
	src/base/transcript.c src/base/xmalloc.c
tests_front_transcript_test_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-I$(top_srcdir)/tests/lib
