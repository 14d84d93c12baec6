# SPDX-License-Identifier: MIT
# tests/screen: the screen.
#
#   model-test      the screen's model without a terminal: text widths,
#                   the transcript view (wrapping, scrolling, follow mode,
#                   values and selection, search), the program's terminal,
#                   lists, the layout at several sizes, key names, the
#                   inline editor's text
#   *.sh            the screen in a real terminal: tmux on a private
#                   socket, keys sent with send-keys, the screen read with
#                   capture-pane (see lib.sh)
#
# The program under test, tests/screen/calc, is examples/calc built
# without sanitizers whatever the configuration (LeakSanitizer cannot run
# in a traced process); noosa is what the sanitizer build checks.

check_PROGRAMS += tests/screen/model-test
TESTS += tests/screen/model-test
tests_screen_model_test_SOURCES = tests/screen/model-test.c \
	src/screen/ui-text.c src/screen/ui-tview.c src/screen/ui-term.c src/screen/ui-list.c \
	src/screen/ui-layout.c src/screen/ui-keys.c src/screen/ui-edit.c src/base/transcript.c \
	src/base/xmalloc.c
tests_screen_model_test_LDADD = $(VTERM_LIBS)
tests_screen_model_test_CPPFLAGS = $(AM_CPPFLAGS) $(CURSES_CFLAGS) $(VTERM_CFLAGS) \
	$(NOOSA_INCLUDES) -I$(top_srcdir)/tests/lib

check_PROGRAMS += tests/screen/calc
tests_screen_calc_SOURCES = examples/calc/main.c $(CALC_SOURCES) \
	$(lib_libdapto_la_SOURCES) $(lib_libchannel_la_SOURCES)
nodist_tests_screen_calc_SOURCES = $(CALC_DAPTO_C) $(CALC_DAPTO_H)
tests_screen_calc_CPPFLAGS = $(CALC_MONITOR_CPPFLAGS)
tests_screen_calc_CFLAGS = -g -O0 -pthread
tests_screen_calc_LDFLAGS = -pthread
$(tests_screen_calc_OBJECTS): $(CALC_DAPTO_H)

# A program using its terminal as programs do (tests/screen/term.sh),
# built without sanitizers as calc is.
check_PROGRAMS += tests/screen/termprog
tests_screen_termprog_SOURCES = tests/screen/termprog.c
tests_screen_termprog_CFLAGS = -g -O0
tests_screen_termprog_LDFLAGS = -g

SCREEN_TESTS = tests/screen/session.sh tests/screen/handlers.sh \
	tests/screen/input.sh tests/screen/interrupt.sh \
	tests/screen/resize.sh tests/screen/keys.sh tests/screen/scroll.sh \
	tests/screen/fallback.sh tests/screen/breaks.sh tests/screen/demo.sh \
	tests/screen/windows.sh tests/screen/questions.sh \
	tests/screen/term.sh tests/screen/tty.sh tests/screen/processes.sh \
	tests/screen/detach.sh tests/screen/display.sh tests/screen/faults.sh
TESTS += $(SCREEN_TESTS)
EXTRA_DIST += $(SCREEN_TESTS) tests/screen/lib.sh
clean-local: clean-screen-tests
clean-screen-tests:
	rm -rf tests/screen/work
.PHONY: clean-screen-tests
