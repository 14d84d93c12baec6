/* SPDX-License-Identifier: MIT */
/*
 * buf.c - growable byte buffers.  The generators write whole files into
 * these; nothing touches the file system until every buffer is complete.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

void buf_init(struct buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->lines = 0;
}

/* Make room for N more bytes and the terminating NUL. */
static void buf_reserve(struct buf *b, size_t n)
{
    while (b->cap - b->len <= n)
        b->data = xgrow(b->data, b->cap, &b->cap, 1);
}

void buf_add(struct buf *b, const void *data, size_t n)
{
    const char *s = data, *nl = s, *end = s + n;

    if (n == 0)
        return;
    buf_reserve(b, n);
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    while ((nl = memchr(nl, '\n', (size_t)(end - nl))) != NULL) {
        b->lines++;
        nl++;
    }
}

void buf_puts(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

void buf_putc(struct buf *b, int c)
{
    char ch = (char)c;

    buf_add(b, &ch, 1);
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *s;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_add(b, s, (size_t)n);
    free(s);
}

void buf_free(struct buf *b)
{
    free(b->data);
    buf_init(b);
}
