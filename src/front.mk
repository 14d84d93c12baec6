# SPDX-License-Identifier: MIT
# src/front.mk: noosa's front end above the monitoring core: the loop, the
# session, the dispatcher, the Tcl layer, the transcript and batch mode.
# They join the core in src/libnoosa.la.

src_libnoosa_la_SOURCES += \
	src/loop.c src/loop.h \
	src/session.c src/session.h \
	src/dispatch.c src/dispatch.h \
	src/transcript.c src/transcript.h \
	src/interp.c src/interp.h \
	src/handlers.c src/handlers.h \
	src/breaks.c src/breaks.h \
	src/cmd-run.c src/cmd-send.c src/cmd-info.c src/cmd-transcript.c \
	src/batch.c src/batch.h
src_libnoosa_la_CPPFLAGS = $(AM_CPPFLAGS) $(TCL_CFLAGS) \
	-DNOOSA_PKGDATADIR='"$(pkgdatadir)"' \
	-DNOOSA_SRCDIR='"$(abs_top_srcdir)"' \
	-DNOOSA_BUILDDIR='"$(abs_top_builddir)"'
src_libnoosa_la_LIBADD += $(TCL_LIBS)

src_noosa_CPPFLAGS = $(AM_CPPFLAGS) $(TCL_CFLAGS)
