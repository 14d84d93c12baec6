# SPDX-License-Identifier: MIT
# src/base: what every part of noosa may use (src/base/README).
src_libnoosa_la_SOURCES += \
	src/base/xmalloc.c src/base/xmalloc.h \
	src/base/transcript.c src/base/transcript.h \
	src/base/sink.c src/base/sink.h \
	src/base/codenames.h
EXTRA_DIST += src/base/README
