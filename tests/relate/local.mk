# SPDX-License-Identifier: MIT
# tests/relate: relations between events <design#relations> end to end
# through noosa --batch on rel (rel.dapto): -within and -outside on
# questions, breakpoints, handlers and the trace; derived events; the
# measurement window; every answer against a reference computed from a
# recording of the same run (reference.py over noosa dump).  rel names its
# components; relf is the same program built with -finstrument-functions,
# whose components are its functions.  Built like tests/cond's program:
# -g -O0, no sanitizers, the runtime compiled in.

EXTRA_DIST += tests/relate/rel.dapto tests/relate/rel.h tests/relate/lib.sh \
	tests/relate/reference.py
tests/relate/rel_dapto.h tests/relate/rel_dapto.db: tests/relate/rel_dapto.c
tests/relate/rel_dapto.c: $(srcdir)/tests/relate/rel.dapto src/dapto/dapto$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/relate && \
	src/dapto/dapto -o tests/relate $(abs_top_srcdir)/tests/relate/rel.dapto
CLEANFILES += tests/relate/rel_dapto.c tests/relate/rel_dapto.h \
	tests/relate/rel_dapto.db

REL_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/relate -I$(top_srcdir)/tests/relate

check_PROGRAMS += tests/relate/rel tests/relate/relf
tests_relate_rel_SOURCES = tests/relate/rel.c tests/relate/rel.h $(NT_RUNTIME)
nodist_tests_relate_rel_SOURCES = tests/relate/rel_dapto.c tests/relate/rel_dapto.h
tests_relate_rel_CPPFLAGS = $(REL_CPPFLAGS)
tests_relate_rel_CFLAGS = $(NT_CFLAGS)
tests_relate_rel_LDFLAGS = $(NT_LINKFLAGS)
$(tests_relate_rel_OBJECTS): tests/relate/rel_dapto.h

# the functions of rel.c instrumented; the runtime and the generated code
# are not (they are compiled apart, without the flag)
noinst_LTLIBRARIES += tests/relate/librelrt.la
tests_relate_librelrt_la_SOURCES = $(NT_RUNTIME)
nodist_tests_relate_librelrt_la_SOURCES = tests/relate/rel_dapto.c tests/relate/rel_dapto.h
tests_relate_librelrt_la_CPPFLAGS = $(REL_CPPFLAGS)
tests_relate_librelrt_la_CFLAGS = $(NT_CFLAGS)
tests_relate_relf_SOURCES = tests/relate/rel.c tests/relate/rel.h
tests_relate_relf_CPPFLAGS = $(REL_CPPFLAGS) -DREL_FUNCTIONS
tests_relate_relf_CFLAGS = $(NT_CFLAGS) -finstrument-functions \
	-finstrument-functions-exclude-file-list=rel_dapto.h
tests_relate_relf_LDFLAGS = $(NT_LINKFLAGS) -no-install
tests_relate_relf_LDADD = tests/relate/librelrt.la
$(tests_relate_relf_OBJECTS) $(tests_relate_librelrt_la_OBJECTS): tests/relate/rel_dapto.h

RELATE_TESTS = tests/relate/within.sh tests/relate/derive.sh tests/relate/reference.sh
TESTS += $(RELATE_TESTS)
EXTRA_DIST += $(RELATE_TESTS)

clean-local: clean-relate-tests
clean-relate-tests:
	rm -rf tests/relate/work
.PHONY: clean-relate-tests
