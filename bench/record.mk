# SPDX-License-Identifier: MIT
# bench/record.mk: `make bench-record`, recording to a file (tmpfs and
# disk, one CPU and two) against uftrace and lttng, the bytes an event
# takes, and replay into the profiles.  See bench/record-run.sh.
EXTRA_DIST += bench/record-run.sh
check_PROGRAMS += bench/record-parts
bench_record_parts_SOURCES = bench/record-parts.c
bench_record_parts_CFLAGS = $(AM_CFLAGS) -pthread
bench_record_parts_LDFLAGS = $(AM_LDFLAGS) -pthread
bench_record_parts_LDADD = lib/libchannel.la
bench-record: bench/record-parts$(EXEEXT) \
		bench/profile-calls$(EXEEXT) bench/monitor-loop$(EXEEXT) \
		src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' UFTRACE='$(UFTRACE)' \
	    $(SHELL) $(srcdir)/bench/record-run.sh
BENCH_TARGETS += bench-record
.PHONY: bench-record
