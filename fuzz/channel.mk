# SPDX-License-Identifier: MIT
# fuzz/channel.mk: a libFuzzer harness (see fuzz/local.mk).
