# SPDX-License-Identifier: MIT
# src: rules for this folder (included from the top Makefile.am).
