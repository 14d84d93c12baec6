# SPDX-License-Identifier: MIT
# src/screen: the curses front end and its models (src/screen/README),
# and `make demo`.
src_libnoosa_la_SOURCES += \
	src/screen/ui-text.c src/screen/ui-text.h \
	src/screen/ui-tview.c src/screen/ui-tview.h \
	src/screen/ui-term.c src/screen/ui-term.h \
	src/screen/ui-list.c src/screen/ui-list.h \
	src/screen/ui-layout.c src/screen/ui-layout.h \
	src/screen/ui-keys.c src/screen/ui-keys.h \
	src/screen/ui-edit.c src/screen/ui-edit.h \
	src/screen/screen.c src/screen/screen.h \
	src/screen/screen-keys.c src/screen/screen-draw.c \
	src/screen/screen-rl.c src/screen/screen-pty.c \
	src/screen/screen-handlers.c src/screen/screen-breaks.c \
	src/screen/screen-help.c src/screen/screen-edit.c \
	src/screen/screen-cmd.c src/screen/screen-profile.c src/screen/screen-questions.c \
	src/screen/screen-display.c
EXTRA_DIST += src/screen/README

# The screen's part of the Tcl library, installed beside noosa.tcl.
screentcldir = $(pkgdatadir)/tcl
dist_screentcl_DATA = tcl/screen.tcl

# Open the screen on the bundled example, with its handler file (the
# browsers load by themselves).
demo: src/noosa$(EXEEXT) examples/calc/calc$(EXEEXT)
	$(top_builddir)/src/noosa -x $(srcdir)/examples/calc/calc.handlers -e run \
	    examples/calc/calc $(srcdir)/examples/calc/demo.calc
.PHONY: demo
