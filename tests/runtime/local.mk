# SPDX-License-Identifier: MIT
# tests/runtime: the channel library and libdapto.
#
# rt-target is the monitored program of the end-to-end tests; its
# interface rt.dapto is compiled by the in-tree dapto.  rt-target-v99 is
# the same program with a copy of the runtime that speaks protocol major
# 99, rt-target-static the same with the runtime linked in.  rt-e2e is the
# test monitor driving them.

RT_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lib \
	-I$(top_builddir)/tests/runtime -I$(top_srcdir)/tests/runtime

check_PROGRAMS += tests/runtime/ring-test
TESTS += tests/runtime/ring-test
tests_runtime_ring_test_SOURCES = tests/runtime/ring-test.c tests/runtime/trec.h
tests_runtime_ring_test_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_ring_test_LDADD = lib/libchannel.la -lpthread

check_PROGRAMS += tests/runtime/tbuf-test
TESTS += tests/runtime/tbuf-test
tests_runtime_tbuf_test_SOURCES = tests/runtime/tbuf-test.c tests/runtime/trec.h
tests_runtime_tbuf_test_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_tbuf_test_LDADD = lib/libchannel.la -lpthread

# The monitored program and its generated interface.
RT_DAPTO = tests/runtime/rt_dapto.c tests/runtime/rt_dapto.h \
	tests/runtime/rt_dapto.db
tests/runtime/rt_dapto.c tests/runtime/rt_dapto.h tests/runtime/rt_dapto.db: \
		tests/runtime/rt.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/runtime && \
	$(top_builddir)/src/dapto/dapto -o tests/runtime $(srcdir)/tests/runtime/rt.dapto
BUILT_SOURCES += tests/runtime/rt_dapto.c tests/runtime/rt_dapto.h
CLEANFILES += $(RT_DAPTO)
EXTRA_DIST += tests/runtime/rt.dapto

check_PROGRAMS += tests/runtime/rt-target tests/runtime/rt-target-v99
tests_runtime_rt_target_SOURCES = tests/runtime/rt-target.c \
	tests/runtime/rt-target.h
nodist_tests_runtime_rt_target_SOURCES = tests/runtime/rt_dapto.c \
	tests/runtime/rt_dapto.h
tests_runtime_rt_target_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_rt_target_LDFLAGS = $(AM_LDFLAGS) -no-install
tests_runtime_rt_target_LDADD = lib/libdapto.la -lpthread -lm

tests_runtime_rt_target_v99_SOURCES = $(tests_runtime_rt_target_SOURCES) \
	$(lib_libdapto_la_SOURCES)
nodist_tests_runtime_rt_target_v99_SOURCES = \
	$(nodist_tests_runtime_rt_target_SOURCES)
tests_runtime_rt_target_v99_CPPFLAGS = $(RT_TEST_CPPFLAGS) \
	-DRUNTIME_PROTO_MAJOR=99
tests_runtime_rt_target_v99_LDADD = lib/libchannel.la -lpthread -lm

# The runtime linked in: the program's constructors run before its own.
check_PROGRAMS += tests/runtime/rt-target-static
tests_runtime_rt_target_static_SOURCES = $(tests_runtime_rt_target_v99_SOURCES)
nodist_tests_runtime_rt_target_static_SOURCES = \
	$(nodist_tests_runtime_rt_target_SOURCES)
tests_runtime_rt_target_static_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_rt_target_static_LDADD = lib/libchannel.la -lpthread -lm

check_PROGRAMS += tests/runtime/rt-e2e
TESTS += tests/runtime/rt-e2e
tests_runtime_rt_e2e_SOURCES = tests/runtime/rt-e2e.c tests/runtime/tmon.c \
	tests/runtime/tmon.h tests/runtime/fbuild.c tests/runtime/fbuild.h
tests_runtime_rt_e2e_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_rt_e2e_LDADD = lib/libchannel.la -lm
$(tests_runtime_rt_target_OBJECTS) $(tests_runtime_rt_target_v99_OBJECTS) \
	$(tests_runtime_rt_target_static_OBJECTS): tests/runtime/rt_dapto.h

check_PROGRAMS += tests/runtime/values-test
TESTS += tests/runtime/values-test
tests_runtime_values_test_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_values_test_LDADD = lib/libdapto.la -lm

check_PROGRAMS += tests/runtime/ring-stress
TESTS += tests/runtime/ring-stress
tests_runtime_ring_stress_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_ring_stress_LDADD = lib/libchannel.la -lpthread

TESTS += tests/runtime/exports.sh
EXTRA_DIST += tests/runtime/exports.sh

# Filters and counters, both sides; the runtime's sources built in, its
# evaluator called directly.
check_PROGRAMS += tests/runtime/filter-test
TESTS += tests/runtime/filter-test
tests_runtime_filter_test_SOURCES = tests/runtime/filter-test.c \
	tests/runtime/fbuild.c tests/runtime/fbuild.h $(lib_libdapto_la_SOURCES)
tests_runtime_filter_test_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_filter_test_LDADD = lib/libchannel.la -lpthread -lm

# Relations, both sides: the monitor's area and the runtime's stacks and
# derived events.
check_PROGRAMS += tests/runtime/relate-test
TESTS += tests/runtime/relate-test
tests_runtime_relate_test_SOURCES = tests/runtime/relate-test.c \
	$(lib_libdapto_la_SOURCES)
tests_runtime_relate_test_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_relate_test_LDADD = lib/libchannel.la -lpthread -lm

# Questions, both sides: the monitor's area and the runtime's counting.
check_PROGRAMS += tests/runtime/question-test
TESTS += tests/runtime/question-test
tests_runtime_question_test_SOURCES = tests/runtime/question-test.c \
	$(lib_libdapto_la_SOURCES)
tests_runtime_question_test_CPPFLAGS = $(RT_TEST_CPPFLAGS)
tests_runtime_question_test_LDADD = lib/libchannel.la -lpthread -lm
