# SPDX-License-Identifier: MIT
# src: the noosa front end.  Its modules are also a convenience library,
# src/libnoosa.la, so that tests, fuzzers and benchmarks link the very code
# that noosa runs.  The shared-memory primitives come from the channel
# library, lib/libchannel.la.

noinst_LTLIBRARIES += src/libnoosa.la
src_libnoosa_la_SOURCES = \
	src/xmalloc.c src/xmalloc.h \
	src/decode.c src/decode.h \
	src/registry.c src/registry.h \
	src/clock.c src/clock.h \
	src/reader.c src/reader.h \
	src/value.c src/value.h \
	src/target.c src/target.h \
	src/symbols.c src/symbols.h \
	src/channel.c src/channel.h \
	src/rawtrace.c src/rawtrace.h
src_libnoosa_la_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS)
src_libnoosa_la_LIBADD = lib/libchannel.la $(DW_LIBS)

bin_PROGRAMS += src/noosa
src_noosa_SOURCES = src/main.c
src_noosa_LDADD = src/libnoosa.la
