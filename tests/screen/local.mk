# SPDX-License-Identifier: MIT
# tests/screen: the screen.
#
#   model-test      the screen's model without a terminal: text widths,
#                   the transcript view (wrapping, scrolling, follow mode,
#                   values and selection, search), the program's output,
#                   lists, the layout at several sizes, key names, the
#                   inline editor's text

check_PROGRAMS += tests/screen/model-test
TESTS += tests/screen/model-test
tests_screen_model_test_SOURCES = tests/screen/model-test.c \
	src/ui-text.c src/ui-tview.c src/ui-outbuf.c src/ui-list.c \
	src/ui-layout.c src/ui-keys.c src/ui-edit.c src/transcript.c \
	src/xmalloc.c
tests_screen_model_test_CPPFLAGS = $(AM_CPPFLAGS) $(CURSES_CFLAGS) \
	-I$(top_srcdir)/src -I$(top_srcdir)/tests/lib
