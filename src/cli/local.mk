# SPDX-License-Identifier: MIT
# src/cli: the noosa program and its front ends (src/cli/README).  main.c
# is the program's own; the front ends it chooses between are in
# src/libnoosa.la with the rest of noosa.
src_libnoosa_la_SOURCES += \
	src/cli/batch.c src/cli/batch.h \
	src/cli/rawtrace.c src/cli/rawtrace.h \
	src/cli/recorder.c src/cli/recorder.h \
	src/cli/dump.c src/cli/dump.h \
	src/cli/dap.c src/cli/dap.h src/cli/dap-start.c src/cli/dap-proto.c \
	src/cli/dap-break.c src/cli/dap-lines.c src/cli/dap-vars.c \
	src/cli/dap-term.c
EXTRA_DIST += src/cli/README

bin_PROGRAMS += src/noosa
src_noosa_SOURCES = src/cli/main.c
src_noosa_CPPFLAGS = $(AM_CPPFLAGS) $(NOOSA_INCLUDES) $(TCL_CFLAGS) \
	$(JANSSON_CFLAGS)
src_noosa_LDADD = src/libnoosa.la
