/* SPDX-License-Identifier: MIT */
/*
 * xmalloc.h - allocation for calc.  Running out of memory is fatal: the
 * program says so and exits with status 1.
 */
#ifndef CALC_XMALLOC_H
#define CALC_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrndup(const char *s, size_t len);

#endif /* CALC_XMALLOC_H */
