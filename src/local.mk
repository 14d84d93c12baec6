# SPDX-License-Identifier: MIT
# src: noosa (src/README).  Its modules, folder by folder (each folder's
# local.mk adds its own), make one convenience library, src/libnoosa.la,
# so that tests, fuzzers and benchmarks link the very code that noosa
# runs.  The channel comes from lib/libchannel.la.  The program itself,
# src/noosa, and its front ends are src/cli's (src/cli/local.mk).

noinst_LTLIBRARIES += src/libnoosa.la
src_libnoosa_la_SOURCES =
src_libnoosa_la_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) $(TCL_CFLAGS) \
	$(CURSES_CFLAGS) $(READLINE_CFLAGS) $(VTERM_CFLAGS) $(JANSSON_CFLAGS) \
	-DNOOSA_PKGDATADIR='"$(pkgdatadir)"' \
	-DNOOSA_SRCDIR='"$(abs_top_srcdir)"' \
	-DNOOSA_BUILDDIR='"$(abs_top_builddir)"'
src_libnoosa_la_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS) $(UNWIND_CFLAGS) \
	$(CAPSTONE_CFLAGS)
src_libnoosa_la_LIBADD = lib/libchannel.la $(DW_LIBS) $(UNWIND_LIBS) \
	$(CAPSTONE_LIBS) \
	$(TCL_LIBS) $(CURSES_LIBS) $(READLINE_LIBS) $(VTERM_LIBS) \
	$(JANSSON_LIBS)
EXTRA_DIST += src/README src/dapto/README
