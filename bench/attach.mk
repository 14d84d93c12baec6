# SPDX-License-Identifier: MIT
# bench/attach.mk: `make bench-attach`, attaching to a running program
# (noosa -p): the time from noosa -p to the prompt and of detach, and the
# program's cost of an event before attach, while attached and after
# detach, in one run (bench/attach-run.sh, bench/attach-loop.c).

EXTRA_DIST += bench/attach-loop.dapto bench/attach-run.sh
check_PROGRAMS += bench/attach-loop

bench_attach_loop_SOURCES = bench/attach-loop.c
nodist_bench_attach_loop_SOURCES = bench/attachb_dapto.c bench/attachb_dapto.h
bench_attach_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_attach_loop_LDFLAGS = $(AM_LDFLAGS) -no-install -pthread
bench_attach_loop_LDADD = lib/libdapto.la
CLEANFILES += bench/attachb_dapto.c bench/attachb_dapto.h bench/attachb_dapto.db
$(bench_attach_loop_OBJECTS): bench/attachb_dapto.h
bench/attachb_dapto.h: bench/attachb_dapto.c
bench/attachb_dapto.c: $(srcdir)/bench/attach-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n attachb $(srcdir)/bench/attach-loop.dapto

bench-attach: bench/attach-loop$(EXEEXT) src/noosa$(EXEEXT)
	@NOOSA=src/noosa$(EXEEXT) PROG=bench/attach-loop$(EXEEXT) \
	    $(SHELL) $(srcdir)/bench/attach-run.sh
BENCH_TARGETS += bench-attach
.PHONY: bench-attach
