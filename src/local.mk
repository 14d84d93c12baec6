# SPDX-License-Identifier: MIT
# src: noosa (src/README).  Its modules, folder by folder (each folder's
# local.mk adds its own), make one convenience library, src/libnoosa.la,
# so that tests, fuzzers and benchmarks link the very code that noosa
# runs.  The channel comes from lib/libchannel.la.  The driver lives here:
# main.c (options), batch.c and rawtrace.c (front ends without a screen).

noinst_LTLIBRARIES += src/libnoosa.la
src_libnoosa_la_SOURCES = \
	src/batch.c src/batch.h \
	src/rawtrace.c src/rawtrace.h \
	src/recorder.c src/recorder.h \
	src/dump.c src/dump.h
src_libnoosa_la_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) $(TCL_CFLAGS) \
	$(CURSES_CFLAGS) $(READLINE_CFLAGS) $(VTERM_CFLAGS) \
	-DNOOSA_PKGDATADIR='"$(pkgdatadir)"' \
	-DNOOSA_SRCDIR='"$(abs_top_srcdir)"' \
	-DNOOSA_BUILDDIR='"$(abs_top_builddir)"'
src_libnoosa_la_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS) $(UNWIND_CFLAGS)
src_libnoosa_la_LIBADD = lib/libchannel.la $(DW_LIBS) $(UNWIND_LIBS) \
	$(TCL_LIBS) $(CURSES_LIBS) $(READLINE_LIBS) $(VTERM_LIBS)
EXTRA_DIST += src/README src/dapto/README

bin_PROGRAMS += src/noosa
src_noosa_SOURCES = src/main.c
src_noosa_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) $(TCL_CFLAGS)
src_noosa_LDADD = src/libnoosa.la
