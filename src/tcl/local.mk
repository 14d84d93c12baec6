# SPDX-License-Identifier: MIT
# src/tcl: the Tcl layer and its commands (src/tcl/README).  Its Tcl half,
# tcl/*.tcl, is installed by tcl/local.mk.
src_libnoosa_la_SOURCES += \
	src/tcl/interp.c src/tcl/interp.h \
	src/tcl/command.c src/tcl/command.h \
	src/tcl/handlers.c src/tcl/handlers.h \
	src/tcl/breaks.c src/tcl/breaks.h \
	src/tcl/guard.c src/tcl/guard.h \
	src/tcl/vars.c src/tcl/vars.h \
	src/tcl/cond-tcl.c src/tcl/cond-tcl.h \
	src/tcl/trace.c src/tcl/trace.h \
	src/tcl/monitor.c src/tcl/monitor.h src/tcl/monitor-speed.c \
	src/tcl/monitor-functions.c \
	src/tcl/cmd-run.c src/tcl/cmd-send.c src/tcl/cmd-info.c \
	src/tcl/cmd-transcript.c src/tcl/cmd-fault.c src/tcl/cmd-profile.c \
	src/tcl/cmd-question.c src/tcl/cmd-derive.c src/tcl/cmd-record.c \
	src/tcl/cmd-probe.c \
	src/tcl/cmd-data.c src/tcl/cmd-frame.c \
	src/tcl/cbrowse.c src/tcl/cbrowse.h \
	src/tcl/display.c src/tcl/display.h src/tcl/cmd-gdb.c
EXTRA_DIST += src/tcl/README
