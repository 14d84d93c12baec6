# SPDX-License-Identifier: MIT
# examples: monitored demo programs (included from the top Makefile.am).
#
# examples/calc/calc is calc, a small expression language interpreter,
# built with -DMONITOR and linked with libdapto: each module has its own
# monitoring interface (a .dapto file compiled at build time by the
# in-tree dapto).  It is linked with -no-install so that it is the real
# executable, which noosa can trace, not a libtool wrapper script.
# examples/calc/calc-plain is the same sources without -DMONITOR.

CALC_SOURCES = \
	examples/calc/buf.c examples/calc/buf.h \
	examples/calc/builtin.c examples/calc/builtin.h \
	examples/calc/diag.c examples/calc/diag.h \
	examples/calc/env.c examples/calc/env.h \
	examples/calc/eval.c examples/calc/eval.h \
	examples/calc/lexer.c examples/calc/lexer.h \
	examples/calc/monitor.h \
	examples/calc/parser.c examples/calc/parser.h \
	examples/calc/pool.c examples/calc/pool.h \
	examples/calc/run.c examples/calc/run.h \
	examples/calc/strtab.c examples/calc/strtab.h \
	examples/calc/tree.c examples/calc/tree.h \
	examples/calc/value.c examples/calc/value.h \
	examples/calc/xmalloc.c examples/calc/xmalloc.h

# Automake must see the generated files by name to compile them.
CALC_DAPTO_SPECS = examples/calc/strtab.dapto examples/calc/lexer.dapto \
	examples/calc/tree.dapto examples/calc/env.dapto \
	examples/calc/value.dapto examples/calc/eval.dapto
CALC_DAPTO_C = examples/calc/strtab_dapto.c examples/calc/lexer_dapto.c \
	examples/calc/tree_dapto.c examples/calc/env_dapto.c \
	examples/calc/value_dapto.c examples/calc/eval_dapto.c
CALC_DAPTO_H = examples/calc/strtab_dapto.h examples/calc/lexer_dapto.h \
	examples/calc/tree_dapto.h examples/calc/env_dapto.h \
	examples/calc/value_dapto.h examples/calc/eval_dapto.h
CALC_DAPTO_DB = examples/calc/strtab_dapto.db examples/calc/lexer_dapto.db \
	examples/calc/tree_dapto.db examples/calc/env_dapto.db \
	examples/calc/value_dapto.db examples/calc/eval_dapto.db
CALC_MONITOR_CPPFLAGS = $(AM_CPPFLAGS) -DMONITOR \
	-I$(top_builddir)/examples/calc -I$(top_srcdir)/examples/calc

noinst_PROGRAMS += examples/calc/calc examples/calc/calc-plain

examples_calc_calc_SOURCES = examples/calc/main.c $(CALC_SOURCES)
nodist_examples_calc_calc_SOURCES = $(CALC_DAPTO_C) $(CALC_DAPTO_H)
examples_calc_calc_CPPFLAGS = $(CALC_MONITOR_CPPFLAGS)
examples_calc_calc_LDFLAGS = $(AM_LDFLAGS) -no-install
examples_calc_calc_LDADD = lib/libdapto.la

examples_calc_calc_plain_SOURCES = examples/calc/main.c $(CALC_SOURCES)
examples_calc_calc_plain_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples/calc

# One run of dapto writes the three files of a specification.
examples/calc/%_dapto.c examples/calc/%_dapto.h examples/calc/%_dapto.db: \
		examples/calc/%.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) examples/calc && \
	$(top_builddir)/src/dapto/dapto -o examples/calc $<

# BUILT_SOURCES covers make all and make check; this covers building the
# program alone in a fresh tree.
$(examples_calc_calc_OBJECTS): $(CALC_DAPTO_H)

BUILT_SOURCES += $(CALC_DAPTO_C) $(CALC_DAPTO_H) $(CALC_DAPTO_DB)
CLEANFILES += $(CALC_DAPTO_C) $(CALC_DAPTO_H) $(CALC_DAPTO_DB)

CALC_EXAMPLES = examples/calc/demo.calc examples/calc/closures.calc \
	examples/calc/strings.calc examples/calc/error.calc
EXTRA_DIST += $(CALC_DAPTO_SPECS) $(CALC_EXAMPLES) \
	examples/calc/calc.handlers examples/calc/README
include examples/saint/local.mk
