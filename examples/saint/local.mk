# SPDX-License-Identifier: MIT
# examples/saint: automatic instrumentation (the Saint idea: the
# instrumenter stands apart from the monitor).  Programs with no
# monitoring code, compiled with -finstrument-functions and linked with
# libdapto, whose hooks report every function's entry and exit; noosa
# names the functions.  Linked with -no-install so that noosa traces the
# real executable, not a libtool wrapper.
#
#   examples/saint/queens       the eight queens (README shows a session)
#   examples/saint/calc-saint   calc's sources as they are, built without
#                               -DMONITOR: a stack of its functions

noinst_PROGRAMS += examples/saint/queens examples/saint/calc-saint

examples_saint_queens_SOURCES = examples/saint/queens.c
examples_saint_queens_CFLAGS = $(AM_CFLAGS) -finstrument-functions
examples_saint_queens_LDFLAGS = $(AM_LDFLAGS) -no-install
examples_saint_queens_LDADD = lib/libdapto.la

examples_saint_calc_saint_SOURCES = examples/calc/main.c $(CALC_SOURCES)
examples_saint_calc_saint_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples/calc
examples_saint_calc_saint_CFLAGS = $(AM_CFLAGS) -finstrument-functions
examples_saint_calc_saint_LDFLAGS = $(AM_LDFLAGS) -no-install
examples_saint_calc_saint_LDADD = lib/libdapto.la

EXTRA_DIST += examples/saint/README
