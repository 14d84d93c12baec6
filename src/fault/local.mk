# SPDX-License-Identifier: MIT
# src/fault: run-time errors of the monitored program (src/fault/README).
src_libnoosa_la_SOURCES += \
	src/fault/fault.c src/fault/fault.h \
	src/fault/fault-recover.c src/fault/fault-recover.h \
	src/fault/fault-trail.c src/fault/fault-trail.h \
	src/fault/unwind.c src/fault/unwind.h
EXTRA_DIST += src/fault/README
