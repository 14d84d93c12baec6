# SPDX-License-Identifier: MIT
# bench/dapto.mk: the cost of a disabled event (`make bench-disabled`):
# a tight loop with the stub of an event that is off, against the same
# loop without it, in one run.  The interface is compiled with the dapto
# built here.  Figures go to bench/README.

noinst_PROGRAMS += bench/disabled-event
bench_disabled_event_SOURCES = bench/disabled-event.c
nodist_bench_disabled_event_SOURCES = bench/disabled-event_dapto.c \
	bench/disabled-event_dapto.h
bench_disabled_event_LDADD = lib/libdapto.la
bench_disabled_event_LDFLAGS = $(AM_LDFLAGS) -no-install
EXTRA_DIST += bench/disabled-event.dapto bench/disabled-event.sh
CLEANFILES += bench/disabled-event_dapto.c bench/disabled-event_dapto.h \
	bench/disabled-event_dapto.db

bench/disabled-event_dapto.c: $(srcdir)/bench/disabled-event.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && src/dapto/dapto -o bench $(srcdir)/bench/disabled-event.dapto
bench/disabled-event_dapto.h: bench/disabled-event_dapto.c
bench/disabled-event.$(OBJEXT): bench/disabled-event_dapto.h

bench-disabled: bench/disabled-event$(EXEEXT)
	@$(SHELL) $(srcdir)/bench/disabled-event.sh bench/disabled-event$(EXEEXT) '$(VALGRIND)'

BENCH_TARGETS += bench-disabled
.PHONY: bench-disabled
