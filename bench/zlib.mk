# SPDX-License-Identifier: MIT
# bench/zlib.mk: `make bench-zlib`, the time profile on zlib's minigzip
# (../shared/thirdparty/zlib.tar.gz, built in the bench's own work
# directory, never in the tree) against uftrace.  See bench/zlib-run.sh.

EXTRA_DIST += bench/zlib-run.sh

bench-zlib: lib/libdapto.la bench/libtschooks.la src/noosa$(EXEEXT)
	@top_builddir='$(top_builddir)' top_srcdir='$(top_srcdir)' \
	    $(SHELL) $(srcdir)/bench/zlib-run.sh
BENCH_TARGETS += bench-zlib
.PHONY: bench-zlib
