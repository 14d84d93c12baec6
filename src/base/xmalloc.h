/* SPDX-License-Identifier: MIT */
/*
 * xmalloc.h - allocation for noosa and dapto.  Running out of memory is
 * fatal here: these never return NULL.  Not for the runtime (lib/).
 */
#ifndef NOOSA_XMALLOC_H
#define NOOSA_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array of N elements of SIZE bytes to hold at least one more;
 * *CAP is its capacity, updated. */
void *xgrow(void *ptr, size_t n, size_t *cap, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* Set *cause (when cause is not NULL) to a newly allocated message; the
 * caller frees it.  An earlier message in *cause is freed first. */
void xcause(char **cause, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* NOOSA_XMALLOC_H */
