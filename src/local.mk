# SPDX-License-Identifier: MIT
# src: the noosa front end.  Its modules are also a convenience library,
# src/libnoosa.la, so that tests, fuzzers and benchmarks link the very code
# that noosa runs.

noinst_LTLIBRARIES += src/libnoosa.la
src_libnoosa_la_SOURCES = \
	src/xmalloc.c src/xmalloc.h \
	src/decode.c src/decode.h \
	src/registry.c src/registry.h \
	src/target.c src/target.h \
	src/symbols.c src/symbols.h \
	src/clock.c src/clock.h \
	src/reader.c src/reader.h
src_libnoosa_la_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS)
src_libnoosa_la_LIBADD = $(DW_LIBS)
