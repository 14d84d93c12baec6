# SPDX-License-Identifier: MIT
# src/profile.mk: component stacks, profiles, the event trace, monitors
# and the names of auto-instrumented functions.  They join the front end
# in src/libnoosa.la.

src_libnoosa_la_SOURCES += \
	src/cct.c src/cct.h \
	src/stacks.c src/stacks.h \
	src/symnames.c src/symnames.h
