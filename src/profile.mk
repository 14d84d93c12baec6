# SPDX-License-Identifier: MIT
# src/profile.mk: component stacks, profiles, the event trace, monitors
# and the names of auto-instrumented functions.  They join the front end
# in src/libnoosa.la.

src_libnoosa_la_SOURCES += \
	src/cct.c src/cct.h \
	src/stacks.c src/stacks.h \
	src/symnames.c src/symnames.h
src_libnoosa_la_SOURCES += \
	src/profile.c src/profile.h src/profile-int.h \
	src/profile-freq.c src/profile-time.c src/profile-view.c \
	src/profile-export.c src/profile-cmd.c
src_libnoosa_la_SOURCES += src/trace.c src/trace.h
src_libnoosa_la_SOURCES += src/monitor.c src/monitor.h src/monitor-speed.c \
	src/monitor-functions.c

# The profile window of the screen (its flags come with screen.mk's).
src_libnoosa_la_SOURCES += src/screen-profile.c
