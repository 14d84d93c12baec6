# SPDX-License-Identifier: MIT
# tests/target: the monitor side.  Unit tests of the decoder, and
# end-to-end runs of noosa on the programs here.

EXTRA_DIST += tests/target/wire.h
NOOSA_TEST_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) -I$(top_srcdir)/tests/lib \
	-I$(top_srcdir)/tests/target

check_PROGRAMS += tests/target/test-reader
TESTS += tests/target/test-reader
tests_target_test_reader_CPPFLAGS = $(NOOSA_TEST_CPPFLAGS)
tests_target_test_reader_LDADD = src/libnoosa.la

# The programs under test (tt-*) are built without sanitizers, whatever
# the configuration: ASan's fault handlers and LeakSanitizer do not work
# under ptrace, and it is noosa, not them, that the sanitizer build checks.
# So they compile the runtime's sources themselves rather than link the
# (sanitized) libraries.
TT_CFLAGS = -g -O0 -pthread
TT_LINKFLAGS = -pthread

# A program without the runtime, for target control.
check_PROGRAMS += tests/target/tt-prog
tests_target_tt_prog_CFLAGS = $(TT_CFLAGS)
tests_target_tt_prog_LDFLAGS = $(TT_LINKFLAGS)

check_PROGRAMS += tests/target/test-target
TESTS += tests/target/test-target
tests_target_test_target_CPPFLAGS = $(NOOSA_TEST_CPPFLAGS)
tests_target_test_target_LDADD = src/libnoosa.la

# tt-rt: a program with the runtime and the interface tt.dapto, built with
# the dapto compiler of this tree.
EXTRA_DIST += tests/target/tt.dapto
check_PROGRAMS += tests/target/tt-rt
tests_target_tt_rt_SOURCES = tests/target/tt-rt.c tests/target/tt-rt.h \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_tests_target_tt_rt_SOURCES = tests/target/tt_dapto.c tests/target/tt_dapto.h
tests_target_tt_rt_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/target \
	-I$(top_srcdir)/tests/target
tests_target_tt_rt_CFLAGS = $(TT_CFLAGS)
tests_target_tt_rt_LDFLAGS = $(TT_LINKFLAGS)
CLEANFILES += tests/target/tt_dapto.c tests/target/tt_dapto.h \
	tests/target/tt_dapto.db
tests/target/tt_rt-tt-rt.$(OBJEXT): tests/target/tt_dapto.h
tests/target/tt_dapto.h: tests/target/tt_dapto.c
tests/target/tt_dapto.c: $(srcdir)/tests/target/tt.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/target && \
	src/dapto/dapto -o tests/target -n tt $(srcdir)/tests/target/tt.dapto

# tt-fake: a hostile program that writes into the channel directly.
check_PROGRAMS += tests/target/tt-fake
tests_target_tt_fake_SOURCES = tests/target/tt-fake.c $(lib_libchannel_la_SOURCES)
tests_target_tt_fake_CPPFLAGS = $(NOOSA_TEST_CPPFLAGS)
tests_target_tt_fake_CFLAGS = $(TT_CFLAGS)
tests_target_tt_fake_LDFLAGS = $(TT_LINKFLAGS)

check_PROGRAMS += tests/target/test-channel
TESTS += tests/target/test-channel
tests_target_test_channel_CPPFLAGS = $(NOOSA_TEST_CPPFLAGS)
tests_target_test_channel_LDADD = src/libnoosa.la

# End-to-end tests through `noosa --raw-trace`; expected outputs are
# normalised (see lib.sh); REGEN=1 rewrites them.
TESTS += tests/target/raw-plain.sh tests/target/raw-fake.sh \
	tests/target/raw-runtime.sh tests/target/kill9.sh
EXTRA_DIST += tests/target/lib.sh tests/target/raw-plain.sh \
	tests/target/raw-runtime.sh \
	tests/target/raw-fake.sh tests/target/kill9.sh tests/target/expected
clean-local: clean-target-tests
clean-target-tests:
	rm -rf tests/target/work
.PHONY: clean-target-tests
