# SPDX-License-Identifier: MIT
# src/screen.mk: the curses front end (noosa with a terminal) and its
# models (ui-*: layout, views, lists, key names, the inline editor's
# text; no curses in them).  They join src/libnoosa.la.

src_libnoosa_la_SOURCES += \
	src/ui-text.c src/ui-text.h \
	src/ui-tview.c src/ui-tview.h \
	src/ui-outbuf.c src/ui-outbuf.h \
	src/ui-list.c src/ui-list.h \
	src/ui-layout.c src/ui-layout.h \
	src/ui-keys.c src/ui-keys.h \
	src/ui-edit.c src/ui-edit.h
src_libnoosa_la_CPPFLAGS += $(CURSES_CFLAGS) $(READLINE_CFLAGS)
src_libnoosa_la_LIBADD += $(CURSES_LIBS) $(READLINE_LIBS)
