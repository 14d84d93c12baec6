# SPDX-License-Identifier: MIT
# src/dapto: the Dapto interface compiler.  DAPTO_CORE_SOURCES is the
# compiler without its command line (it works on buffers); the unit tests
# and the fuzzer build on it too.

DAPTO_CORE_SOURCES = \
	src/dapto/buf.c src/dapto/buf.h \
	src/dapto/check.c src/dapto/check.h \
	src/dapto/compile.c src/dapto/compile.h \
	src/dapto/diag.c src/dapto/diag.h \
	src/dapto/gen.c src/dapto/gen.h \
	src/dapto/gen-db.c src/dapto/gen-header.c src/dapto/gen-source.c \
	src/dapto/lex.c src/dapto/lex.h \
	src/dapto/parse.c src/dapto/parse.h \
	src/dapto/quote.c src/dapto/quote.h \
	src/dapto/spec.c src/dapto/spec.h \
	src/base/xmalloc.c src/base/xmalloc.h

bin_PROGRAMS += src/dapto/dapto
src_dapto_dapto_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/base
src_dapto_dapto_SOURCES = src/dapto/dapto.c src/dapto/output.c \
	src/dapto/output.h $(DAPTO_CORE_SOURCES)
