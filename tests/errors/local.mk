# SPDX-License-Identifier: MIT
# tests/errors: run-time errors under noosa (reports, backtraces, the last
# events, the error policy, conversion to failure through recovery points
# and dapto_error), end to end through noosa --batch on et-errors.

# et-errors: the program that errs, built like tests/target's programs:
# -g -O0, no sanitizers (they do not work under ptrace), the runtime's
# sources compiled in.
EXTRA_DIST += tests/errors/et.dapto tests/errors/et-errors.h
check_PROGRAMS += tests/errors/et-errors
tests_errors_et_errors_SOURCES = tests/errors/et-errors.c tests/errors/et-meanwhile.c \
	tests/errors/et-errors.h \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_tests_errors_et_errors_SOURCES = tests/errors/et_dapto.c \
	tests/errors/et_dapto.h
tests_errors_et_errors_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_builddir)/tests/errors -I$(top_srcdir)/tests/errors
tests_errors_et_errors_CFLAGS = -g -O0 -pthread
tests_errors_et_errors_LDFLAGS = -pthread
CLEANFILES += tests/errors/et_dapto.c tests/errors/et_dapto.h \
	tests/errors/et_dapto.db
tests/errors/et_errors-et-errors.$(OBJEXT) \
	tests/errors/et_errors-et-meanwhile.$(OBJEXT): tests/errors/et_dapto.h
tests/errors/et_dapto.h: tests/errors/et_dapto.c
tests/errors/et_dapto.c: $(srcdir)/tests/errors/et.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/errors && \
	src/dapto/dapto -o tests/errors -n et $(srcdir)/tests/errors/et.dapto

# Expected transcripts are normalised (see lib.sh); REGEN=1 rewrites them.
TESTS += tests/errors/signals.sh tests/errors/convert.sh \
	tests/errors/report.sh tests/errors/threads.sh \
	tests/errors/commands.sh tests/errors/man.sh tests/errors/compile.sh \
	tests/errors/hostile.sh tests/errors/meanwhile.sh
EXTRA_DIST += tests/errors/lib.sh tests/errors/signals.sh \
	tests/errors/convert.sh tests/errors/report.sh \
	tests/errors/threads.sh tests/errors/commands.sh tests/errors/man.sh \
	tests/errors/compile.sh tests/errors/hostile.sh tests/errors/meanwhile.sh \
	tests/errors/expected
clean-local: clean-errors-tests
clean-errors-tests:
	rm -rf tests/errors/work
.PHONY: clean-errors-tests
