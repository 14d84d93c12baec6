/* SPDX-License-Identifier: MIT */
/* rel.h - what rel.dapto's generated code needs of rel.c: nothing. */
#ifndef NOOSA_TESTS_REL_H
#define NOOSA_TESTS_REL_H
#endif
