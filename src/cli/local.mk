# SPDX-License-Identifier: MIT
# src/cli: the noosa program and its front ends (src/cli/README).  main.c
# is the program's own; the front ends it chooses between are in
# src/libnoosa.la with the rest of noosa.
src_libnoosa_la_SOURCES += \
	src/cli/batch.c src/cli/batch.h \
	src/cli/rawtrace.c src/cli/rawtrace.h \
	src/cli/recorder.c src/cli/recorder.h \
	src/cli/dump.c src/cli/dump.h
EXTRA_DIST += src/cli/README

bin_PROGRAMS += src/noosa
src_noosa_SOURCES = src/cli/main.c
src_noosa_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) $(TCL_CFLAGS)
src_noosa_LDADD = src/libnoosa.la
