# SPDX-License-Identifier: MIT
# bench/dap.mk: `make bench-dap`, the debug adapter's latency against
# noosa's own prompt: launch to the first stop, continue to the next.
# See bench/dap-run.py.
EXTRA_DIST += bench/dap-run.sh bench/dap-run.py
bench-dap: src/noosa$(EXEEXT) tests/dap/dp-O0$(EXEEXT)
	@top_builddir='$(top_builddir)' srcdir='$(srcdir)' PYTHON3='$(PYTHON3)' \
	    $(SHELL) $(srcdir)/bench/dap-run.sh
BENCH_TARGETS += bench-dap
.PHONY: bench-dap
