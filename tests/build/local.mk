# SPDX-License-Identifier: MIT
# tests/build: the build's own scripts (bootstrap's package step, with
# fake package tools).
TESTS += tests/build/bootstrap.sh tests/build/layers.sh
EXTRA_DIST += tests/build/bootstrap.sh tests/build/layers.sh
clean-local: clean-build-tests
clean-build-tests:
	rm -rf tests/build/work
.PHONY: clean-build-tests
