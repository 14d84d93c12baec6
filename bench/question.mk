# SPDX-License-Identifier: MIT
# bench/question.mk: questions answered in the program, `make
# bench-question`: counting and summing one parameter per event in the
# program against a handler in noosa, on the front end's loop
# (bench/front.mk builds it), pinned to one CPU and to two.  See
# bench/question-run.sh.

EXTRA_DIST += bench/question-run.sh

bench-question: bench/front-loop$(EXEEXT) src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' $(SHELL) $(srcdir)/bench/question-run.sh
BENCH_TARGETS += bench-question
.PHONY: bench-question
