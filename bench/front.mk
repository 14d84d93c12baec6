# SPDX-License-Identifier: MIT
# bench/front.mk: the front end's benchmark, `make bench-front`: a
# breakpoint whose condition is false, evaluated by noosa's Tcl layer at
# every hit, through `noosa --batch`, side by side with gdb's conditional
# breakpoint on the same loop.  See bench/front-run.sh.

EXTRA_DIST += bench/front-loop.dapto bench/front-run.sh
check_PROGRAMS += bench/front-loop

# Like the monitor's loop: the runtime's sources compiled in (optimised,
# no sanitizers), so that gdb and noosa run the program itself.
bench_front_loop_SOURCES = bench/front-loop.c \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_bench_front_loop_SOURCES = bench/frontloop_dapto.c \
	bench/frontloop_dapto.h
bench_front_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/bench
bench_front_loop_CFLAGS = -O2 -g -pthread
bench_front_loop_LDFLAGS = -pthread
CLEANFILES += bench/frontloop_dapto.c bench/frontloop_dapto.h \
	bench/frontloop_dapto.db
bench/front_loop-front-loop.$(OBJEXT): bench/frontloop_dapto.h
bench/frontloop_dapto.h: bench/frontloop_dapto.c
bench/frontloop_dapto.c: $(srcdir)/bench/front-loop.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench && \
	src/dapto/dapto -o bench -n frontloop $(srcdir)/bench/front-loop.dapto

bench-front: bench/front-loop$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' GDB='$(GDB)' \
	    $(SHELL) $(srcdir)/bench/front-run.sh
BENCH_TARGETS += bench-front
.PHONY: bench-front
