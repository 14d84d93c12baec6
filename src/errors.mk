# SPDX-License-Identifier: MIT
# src/errors.mk: run-time errors of the monitored program (fault*.c:
# reports, the error policy, conversion to failure, the last events;
# unwind.c: backtraces through libunwind's ptrace accessors) and their
# Tcl half.  They join the front end in src/libnoosa.la.

src_libnoosa_la_SOURCES += \
	src/fault.c src/fault.h src/fault-cmd.c \
	src/fault-recover.c src/fault-recover.h \
	src/fault-trail.c src/fault-trail.h \
	src/unwind.c src/unwind.h
src_libnoosa_la_CFLAGS += $(UNWIND_CFLAGS)
src_libnoosa_la_LIBADD += $(UNWIND_LIBS)

# tcl/errors.tcl is installed beside tcl/noosa.tcl.
errorstcldir = $(pkgdatadir)/tcl
dist_errorstcl_DATA = tcl/errors.tcl
