# SPDX-License-Identifier: MIT
# tests/cond: conditions evaluated in the program <protocol#filter>,
# end to end through noosa --batch on cv (cv.dapto): the same condition
# in the program and in noosa, event by event; threads; counts; hit
# counting; handlers, the trace and monitors with conditions.  Built
# like tests/load's program: -g -O0, no sanitizers, the runtime compiled
# in.

EXTRA_DIST += tests/cond/cv.dapto tests/cond/cv.h tests/cond/lib.sh \
	tests/cond/questions.tcl
tests/cond/cv_dapto.h tests/cond/cv_dapto.db: tests/cond/cv_dapto.c
tests/cond/cv_dapto.c: $(srcdir)/tests/cond/cv.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/cond && \
	src/dapto/dapto -o tests/cond $(abs_top_srcdir)/tests/cond/cv.dapto
CLEANFILES += tests/cond/cv_dapto.c tests/cond/cv_dapto.h \
	tests/cond/cv_dapto.db

check_PROGRAMS += tests/cond/cv
tests_cond_cv_SOURCES = tests/cond/cv.c tests/cond/cv.h $(NT_RUNTIME)
nodist_tests_cond_cv_SOURCES = tests/cond/cv_dapto.c tests/cond/cv_dapto.h
tests_cond_cv_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/cond \
	-I$(top_srcdir)/tests/cond
tests_cond_cv_CFLAGS = $(NT_CFLAGS)
tests_cond_cv_LDFLAGS = $(NT_LINKFLAGS)
$(tests_cond_cv_OBJECTS): tests/cond/cv_dapto.h

COND_TESTS = tests/cond/equiv.sh tests/cond/counts.sh tests/cond/swap.sh \
	tests/cond/handlers.sh tests/cond/trace.sh tests/cond/monitors.sh \
	tests/cond/functions.sh tests/cond/questions.sh tests/cond/deep.sh \
	tests/cond/quick.sh \
	tests/cond/quick-count.sh
TESTS += $(COND_TESTS)
EXTRA_DIST += $(COND_TESTS)

clean-local: clean-cond-tests
clean-cond-tests:
	rm -rf tests/cond/work
.PHONY: clean-cond-tests
