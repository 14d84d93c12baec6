# SPDX-License-Identifier: MIT
# lib: libdapto, the runtime linked into monitored programs, and the
# channel library (region, ring, trail, mailboxes, value codec) that both
# libdapto and noosa link.  Link noosa with lib/libchannel.la.

lib_LTLIBRARIES += lib/libdapto.la
noinst_LTLIBRARIES += lib/libchannel.la
include_HEADERS += lib/dapto.h
noinst_HEADERS += lib/protocol.h lib/futex.h lib/region.h lib/ring.h \
	lib/trail.h lib/mailbox.h lib/runtime.h lib/iface.h lib/intern.h \
	lib/stop.h lib/rtlog.h
pkgconfig_DATA += lib/dapto.pc
EXTRA_DIST += lib/dapto.pc.in

lib_libchannel_la_SOURCES = lib/region.c lib/ring.c lib/trail.c \
	lib/mailbox.c lib/values.c
lib_libchannel_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

lib_libdapto_la_SOURCES = lib/runtime.c lib/event.c lib/iface.c \
	lib/intern.c lib/stop.c lib/rtlog.c
lib_libdapto_la_SOURCES += lib/recover.c
lib_libdapto_la_SOURCES += lib/instrument.c
lib_libdapto_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
lib_libdapto_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -export-symbols-regex '^(_?dapto_|__cyg_profile)'
lib_libdapto_la_LIBADD = lib/libchannel.la -lpthread
