# SPDX-License-Identifier: MIT
# tests/build: the build's own scripts (bootstrap's package step, with
# fake package tools), and the tree's structure: the include directions
# the folders' READMEs draw (layers.sh), the design rules code cites
# (tags.sh).
TESTS += tests/build/bootstrap.sh tests/build/layers.sh tests/build/tags.sh
EXTRA_DIST += tests/build/bootstrap.sh tests/build/layers.sh \
	tests/build/tags.sh
clean-local: clean-build-tests
clean-build-tests:
	rm -rf tests/build/work
.PHONY: clean-build-tests
