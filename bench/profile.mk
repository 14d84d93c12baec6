# SPDX-License-Identifier: MIT
# bench/profile.mk: `make bench-profile`, the cost of automatic
# instrumentation with the time profile on, per call, against the same
# program uninstrumented and against uftrace, and the rate at which noosa
# consumes function records into the profiles.  See bench/profile-run.sh.

EXTRA_DIST += bench/profile-run.sh bench/ab-run.sh
check_PROGRAMS += bench/profile-calls-plain bench/profile-calls \
	bench/profile-calls-pg

# Optimised, no sanitizers, every call a call in all three builds.
PROFILE_BENCH_CFLAGS = -O2 -g -fno-optimize-sibling-calls
bench_profile_calls_plain_SOURCES = bench/profile-calls.c
bench_profile_calls_plain_CFLAGS = $(PROFILE_BENCH_CFLAGS)
bench_profile_calls_plain_LDFLAGS =

# Linked with the shared libdapto (-no-install: the real executable), so
# that uftrace's own hooks can take the place of libdapto's in its runs.
bench_profile_calls_SOURCES = bench/profile-calls.c
bench_profile_calls_CFLAGS = $(PROFILE_BENCH_CFLAGS) -finstrument-functions
bench_profile_calls_LDFLAGS = -no-install
bench_profile_calls_LDADD = lib/libdapto.la

# The call tree kept by the runtime alone, under a monitor of its own
# (no noosa): for callgrind and quick comparisons of runtimes.
check_PROGRAMS += bench/cct-bench
bench_cct_bench_SOURCES = bench/cct-bench.c tests/runtime/tmon.c tests/runtime/tmon.h
bench_cct_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/runtime
bench_cct_bench_LDADD = lib/libchannel.la

# Hooks that only read the TSC at every entry and exit, preloaded in place
# of libdapto's: the floor of a profile with exact self times.
check_LTLIBRARIES += bench/libtschooks.la
bench_libtschooks_la_SOURCES = bench/tsc-hooks.c
bench_libtschooks_la_CFLAGS = -O2
bench_libtschooks_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere

# uftrace's native mode.
bench_profile_calls_pg_SOURCES = bench/profile-calls.c
bench_profile_calls_pg_CFLAGS = $(PROFILE_BENCH_CFLAGS) -pg
bench_profile_calls_pg_LDFLAGS = -pg

bench-profile: bench/profile-calls-plain$(EXEEXT) bench/profile-calls$(EXEEXT) \
		bench/profile-calls-pg$(EXEEXT) bench/libtschooks.la src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' UFTRACE='$(UFTRACE)' \
	    $(SHELL) $(srcdir)/bench/profile-run.sh
BENCH_TARGETS += bench-profile
.PHONY: bench-profile
