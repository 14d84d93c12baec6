/* SPDX-License-Identifier: MIT */
/*
 * xmalloc.c - allocation that never returns NULL.  calc has nothing useful
 * to do without memory, so it reports the failure and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static void xmalloc_fail(void)
{
    fputs("calc: out of memory\n", stderr);
    exit(1);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size != 0 ? size : 1);

    if (p == NULL)
        xmalloc_fail();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n != 0 ? n : 1, size != 0 ? size : 1);

    if (p == NULL)
        xmalloc_fail();
    return p;
}

void *xrealloc(void *p, size_t size)
{
    p = realloc(p, size != 0 ? size : 1);
    if (p == NULL)
        xmalloc_fail();
    return p;
}

/* A NUL-terminated copy of the LEN bytes at S; the caller frees it. */
char *xstrndup(const char *s, size_t len)
{
    char *d = xmalloc(len + 1);

    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}
