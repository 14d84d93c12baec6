# SPDX-License-Identifier: MIT
# src/debug: the program's C data from its debug information
# (src/debug/README).
src_libnoosa_la_SOURCES += \
	src/debug/dstr.c src/debug/dstr.h \
	src/debug/ctypes.c src/debug/ctypes.h \
	src/debug/dinfo.c src/debug/dinfo.h \
	src/debug/frames.c src/debug/frames.h \
	src/debug/dloc.c src/debug/dloc.h \
	src/debug/cvalue.c src/debug/cvalue.h \
	src/debug/dscope.c src/debug/dscope.h \
	src/debug/cexpr.c src/debug/cexpr.h \
	src/debug/cprint.c src/debug/cprint.h \
	src/debug/debug.c src/debug/debug.h
EXTRA_DIST += src/debug/README
