# SPDX-License-Identifier: MIT
# lib: what monitored programs link (lib/README).  lib/dapto.h is the
# runtime's public header; lib/channel/ is the channel that both sides
# share (region, ring, trail, mailboxes, value codec), built as
# lib/libchannel.la for libdapto and noosa; lib/runtime/ is libdapto, the
# runtime linked into monitored programs.

lib_LTLIBRARIES += lib/libdapto.la
noinst_LTLIBRARIES += lib/libchannel.la
include_HEADERS += lib/dapto.h
noinst_HEADERS += lib/channel/protocol.h lib/channel/futex.h \
	lib/channel/region.h lib/channel/ring.h lib/channel/trail.h \
	lib/channel/mailbox.h lib/runtime/runtime.h lib/runtime/iface.h \
	lib/runtime/intern.h lib/runtime/stop.h lib/runtime/rtlog.h \
	lib/runtime/rtfilter.h lib/runtime/rtfilter-int.h lib/channel/filter.h \
	lib/runtime/rtquestion.h \
	lib/channel/qarea.h lib/channel/tbuf.h lib/runtime/rtbuf.h \
	lib/runtime/rtrelate.h lib/channel/relarea.h \
	lib/channel/ttrail.h lib/runtime/rtrail.h
pkgconfig_DATA += lib/dapto.pc
EXTRA_DIST += lib/dapto.pc.in lib/README lib/channel/README lib/runtime/README

lib_libchannel_la_SOURCES = lib/channel/region.c lib/channel/ring.c \
	lib/channel/trail.c lib/channel/mailbox.c lib/channel/values.c \
	lib/channel/filter.c lib/channel/qarea.c lib/channel/tbuf.c \
	lib/channel/relarea.c lib/channel/ttrail.c
lib_libchannel_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

lib_libdapto_la_SOURCES = lib/runtime/runtime.c lib/runtime/event.c \
	lib/runtime/iface.c lib/runtime/intern.c lib/runtime/stop.c \
	lib/runtime/rtlog.c lib/runtime/recover.c lib/runtime/instrument.c \
	lib/runtime/rtfilter.c lib/runtime/rtfilter-run.c \
	lib/runtime/rtquestion.c lib/runtime/attach.c \
	lib/runtime/rtbuf.c lib/runtime/rtrelate.c lib/runtime/rtrail.c \
	lib/runtime/probe.c lib/runtime/probe-hit.c lib/runtime/probe-trap.c
lib_libdapto_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
lib_libdapto_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -export-symbols-regex '^(_?dapto_|__cyg_profile)'
lib_libdapto_la_LIBADD = lib/libchannel.la -lpthread
