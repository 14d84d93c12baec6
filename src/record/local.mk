# SPDX-License-Identifier: MIT
# src/record: recordings (src/record/README).
src_libnoosa_la_SOURCES += \
	src/record/recfile.h \
	src/record/recwrite.c src/record/recwrite.h \
	src/record/recguard.c src/record/recguard.h \
	src/record/recread.c src/record/recread.h src/record/recread-int.h \
	src/record/recmeta.c src/record/recstream.c src/record/recindex.c \
	src/record/export.c src/record/export.h \
	src/record/reclive.c src/record/reclive.h
EXTRA_DIST += src/record/README
