# SPDX-License-Identifier: MIT
# bench/record.mk: `make bench-record`, recording to a file (tmpfs and
# disk, one CPU and two) against uftrace and lttng, the bytes an event
# takes, and replay into the profiles.  See bench/record-run.sh.
EXTRA_DIST += bench/record-run.sh
bench-record: bench/profile-calls$(EXEEXT) bench/monitor-loop$(EXEEXT) \
		src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' UFTRACE='$(UFTRACE)' \
	    $(SHELL) $(srcdir)/bench/record-run.sh
BENCH_TARGETS += bench-record
.PHONY: bench-record
