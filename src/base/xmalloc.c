/* SPDX-License-Identifier: MIT */
/*
 * xmalloc.c - fatal-on-failure allocation for noosa and dapto, and the
 * helper that builds `char **cause` error messages.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"

static void xmalloc_fail(size_t size)
{
    char buf[96];
    int n = snprintf(buf, sizeof buf, "%s: out of memory (%zu bytes)\n",
                     program_invocation_short_name, size);

    if (n > 0 && write(2, buf, (size_t)n) < 0)
        abort();
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size == 0 ? 1 : size);

    if (p == NULL)
        xmalloc_fail(size);
    return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
    void *p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size);

    if (p == NULL)
        xmalloc_fail(nmemb * size);
    return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
    void *p;

    if (size != 0 && nmemb > SIZE_MAX / size)
        xmalloc_fail(SIZE_MAX);
    p = realloc(ptr, nmemb * size == 0 ? 1 : nmemb * size);
    if (p == NULL)
        xmalloc_fail(nmemb * size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    return xreallocarray(ptr, 1, size);
}

void *xgrow(void *ptr, size_t n, size_t *cap, size_t size)
{
    size_t c = *cap;

    if (n < c)
        return ptr;
    c = c < 8 ? 8 : c;
    while (c <= n) {
        if (c > SIZE_MAX / 2 / size)
            xmalloc_fail(SIZE_MAX);
        c *= 2;
    }
    *cap = c;
    return xreallocarray(ptr, c, size);
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

char *xvasprintf(const char *fmt, va_list ap)
{
    char *s;

    if (vasprintf(&s, fmt, ap) < 0)
        xmalloc_fail(strlen(fmt));
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

void xcause(char **cause, const char *fmt, ...)
{
    va_list ap;

    if (cause == NULL)
        return;
    free(*cause);
    va_start(ap, fmt);
    *cause = xvasprintf(fmt, ap);
    va_end(ap);
}
