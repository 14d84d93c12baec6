/* SPDX-License-Identifier: MIT */
/*
 * xmalloc.c - fatal allocation for the dapto compiler.  A compiler that
 * cannot allocate has nothing sensible to do but stop, so these report and
 * exit instead of returning NULL.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static void xmalloc_fail(size_t size)
{
    fprintf(stderr, "dapto: out of memory (%zu bytes)\n", size);
    exit(1);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size == 0 ? 1 : size);

    if (p == NULL)
        xmalloc_fail(size);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p;

    if (n == 0 || size == 0)
        n = size = 1;
    p = calloc(n, size);
    if (p == NULL)
        xmalloc_fail(n * size);
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size == 0 ? 1 : size);

    if (q == NULL)
        xmalloc_fail(size);
    return q;
}

void *xgrow(void *p, size_t n, size_t *cap, size_t size)
{
    size_t c = *cap;

    if (n < c)
        return p;
    c = c < 8 ? 8 : c;
    while (c <= n) {
        if (c > SIZE_MAX / 2 / size)
            xmalloc_fail(SIZE_MAX);
        c *= 2;
    }
    *cap = c;
    return xrealloc(p, c * size);
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);

    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *s;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        xmalloc_fail(0);
    s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}
