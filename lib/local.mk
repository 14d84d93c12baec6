# SPDX-License-Identifier: MIT
# lib: libdapto, the runtime linked into monitored programs.

lib_LTLIBRARIES += lib/libdapto.la
include_HEADERS += lib/dapto.h
noinst_HEADERS += lib/protocol.h
pkgconfig_DATA += lib/dapto.pc
EXTRA_DIST += lib/dapto.pc.in

lib_libdapto_la_SOURCES = lib/runtime.c lib/values.c
lib_libdapto_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
lib_libdapto_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -export-symbols-regex '^(_?dapto_|__cyg_profile)'
lib_libdapto_la_LIBADD = -lpthread
