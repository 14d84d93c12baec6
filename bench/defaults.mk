# SPDX-License-Identifier: MIT
# bench/defaults.mk: `make bench-defaults`, what noosa's defaults cost a
# program: a loop emitting an int and a string (bench/defaults-loop.c,
# linked with libdapto as a user's program is), and programs built with
# -finstrument-functions (zlib's minigzip, from ../shared/thirdparty, and
# Lua 5.4's interpreter, from Debian's sources, both built in the bench's
# work directory) beside uftrace record.  See bench/defaults-run.sh.

noinst_PROGRAMS += bench/defaults-loop
bench_defaults_loop_SOURCES = bench/defaults-loop.c
nodist_bench_defaults_loop_SOURCES = bench/defaultsloop_dapto.c \
	bench/defaultsloop_dapto.h
bench_defaults_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_defaults_loop_CFLAGS = -O2 -g
bench_defaults_loop_LDADD = lib/libdapto.la
bench_defaults_loop_LDFLAGS = $(AM_LDFLAGS) -no-install
EXTRA_DIST += bench/defaults-loop.dapto bench/defaults-run.sh
CLEANFILES += bench/defaultsloop_dapto.c bench/defaultsloop_dapto.h \
	bench/defaultsloop_dapto.db
bench/defaults_loop-defaults-loop.$(OBJEXT): bench/defaultsloop_dapto.h
bench/defaultsloop_dapto.h: bench/defaultsloop_dapto.c
bench/defaultsloop_dapto.c: $(srcdir)/bench/defaults-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n defaultsloop $(srcdir)/bench/defaults-loop.dapto

bench-defaults: bench/defaults-loop$(EXEEXT) lib/libdapto.la src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' top_srcdir='$(top_srcdir)' \
	    $(SHELL) $(srcdir)/bench/defaults-run.sh
BENCH_TARGETS += bench-defaults
.PHONY: bench-defaults
