# SPDX-License-Identifier: MIT
# src/root: the composition root (src/root/README).
src_libnoosa_la_SOURCES += src/root/noosa.c src/root/noosa.h
EXTRA_DIST += src/root/README
