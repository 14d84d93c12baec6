# SPDX-License-Identifier: MIT
# src/root: the composition root (src/root/README).
src_libnoosa_la_SOURCES += src/root/noosa.c src/root/noosa.h \
	src/root/noosa-int.h src/root/noosa-replay.c
EXTRA_DIST += src/root/README
