# SPDX-License-Identifier: MIT
# fuzz/dapto.mk: a libFuzzer harness (see fuzz/local.mk).
