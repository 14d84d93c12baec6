/* SPDX-License-Identifier: MIT */
/*
 * xmalloc.h - allocation for the dapto compiler.  Running out of memory is
 * fatal: the functions print a message and exit, so they never return NULL.
 */
#ifndef NOOSA_DAPTO_XMALLOC_H
#define NOOSA_DAPTO_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grow an array of N elements of SIZE bytes to hold at least one more;
 * *CAP is its capacity, updated. */
void *xgrow(void *p, size_t n, size_t *cap, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* NOOSA_DAPTO_XMALLOC_H */
