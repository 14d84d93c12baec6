# SPDX-License-Identifier: MIT
# src/screen.mk: the curses front end (noosa with a terminal), its models
# (ui-*: layout, views, lists, key names, the inline editor's text; no
# curses in them), and `make demo`.  They join src/libnoosa.la.

src_libnoosa_la_SOURCES += \
	src/ui-text.c src/ui-text.h \
	src/ui-tview.c src/ui-tview.h \
	src/ui-outbuf.c src/ui-outbuf.h \
	src/ui-list.c src/ui-list.h \
	src/ui-layout.c src/ui-layout.h \
	src/ui-keys.c src/ui-keys.h \
	src/ui-edit.c src/ui-edit.h \
	src/screen.c src/screen.h \
	src/screen-keys.c src/screen-draw.c src/screen-rl.c src/screen-pty.c \
	src/screen-handlers.c src/screen-breaks.c src/screen-help.c \
	src/screen-edit.c src/screen-cmd.c
src_libnoosa_la_CPPFLAGS += $(CURSES_CFLAGS) $(READLINE_CFLAGS)
src_libnoosa_la_LIBADD += $(CURSES_LIBS) $(READLINE_LIBS)

# The screen's part of the Tcl library, installed beside noosa.tcl.
screentcldir = $(pkgdatadir)/tcl
dist_screentcl_DATA = tcl/screen.tcl

# Open the screen on the bundled example, with its handler file (the
# browsers load by themselves).
demo: src/noosa$(EXEEXT) examples/calc/calc$(EXEEXT)
	$(top_builddir)/src/noosa -x $(srcdir)/examples/calc/calc.handlers -e run \
	    examples/calc/calc $(srcdir)/examples/calc/demo.calc
.PHONY: demo
