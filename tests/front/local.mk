# SPDX-License-Identifier: MIT
# tests/front: unit tests of the front end's models.

check_PROGRAMS += tests/front/transcript-test
TESTS += tests/front/transcript-test
tests_front_transcript_test_SOURCES = tests/front/transcript-test.c \
	src/base/transcript.c src/base/xmalloc.c
tests_front_transcript_test_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-I$(top_srcdir)/tests/lib

# A replay's checkpoints <design#checkpoints>.
check_PROGRAMS += tests/front/checkpoint-test
TESTS += tests/front/checkpoint-test
tests_front_checkpoint_test_SOURCES = tests/front/checkpoint-test.c \
	src/core/checkpoint.c src/core/clock.c src/base/xmalloc.c
tests_front_checkpoint_test_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-I$(top_srcdir)/tests/lib

# The dispatcher with the real registry and function names, and a
# stand-in for the session (in the test).
check_PROGRAMS += tests/front/dispatch-test
TESTS += tests/front/dispatch-test
tests_front_dispatch_test_SOURCES = tests/front/dispatch-test.c \
	src/core/dispatch.c src/core/registry.c src/core/decode.c \
	src/core/symnames.c src/core/symbols.c src/base/xmalloc.c \
	src/core/checkpoint.c src/core/clock.c src/core/cond.c
tests_front_dispatch_test_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	-I$(top_srcdir)/tests/lib -I$(top_srcdir)/tests/target
tests_front_dispatch_test_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS)
tests_front_dispatch_test_LDADD = $(DW_LIBS)

# Conditions compiled into filter bytecode, read from Tcl and checked
# against Tcl's own expr.
check_PROGRAMS += tests/front/cond-test
TESTS += tests/front/cond-test
tests_front_cond_test_SOURCES = tests/front/cond-test.c \
	src/core/cond.c src/tcl/cond-tcl.c src/base/xmalloc.c
tests_front_cond_test_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) \
	$(TCL_CFLAGS) -I$(top_srcdir)/tests/lib
tests_front_cond_test_LDADD = $(TCL_LIBS)
