# SPDX-License-Identifier: MIT
# src/profile: component stacks and profiles (src/profile/README).
src_libnoosa_la_SOURCES += \
	src/profile/cct.c src/profile/cct.h \
	src/profile/stacks.c src/profile/stacks.h \
	src/profile/profile.c src/profile/profile.h src/profile/profile-int.h \
	src/profile/profile-freq.c src/profile/profile-time.c \
	src/profile/profile-view.c src/profile/profile-export.c \
	src/profile/profile-program.c \
	src/profile/question.c src/profile/question.h \
	src/profile/question-view.c \
	src/profile/relate.c src/profile/relate.h
EXTRA_DIST += src/profile/README
