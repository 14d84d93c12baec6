/* SPDX-License-Identifier: MIT */
/*
 * buf.c - growable text buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

/* Make room for N more bytes and the NUL. */
static void buf_grow(struct buf *b, size_t n)
{
    size_t need = b->len + n + 1;

    if (need <= b->cap)
        return;
    if (b->cap == 0)
        b->cap = 64;
    while (b->cap < need)
        b->cap *= 2;
    b->data = xrealloc(b->data, b->cap);
}

void buf_add(struct buf *b, const char *s, size_t len)
{
    buf_grow(b, len);
    memcpy(b->data + b->len, s, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

void buf_addc(struct buf *b, char c)
{
    buf_add(b, &c, 1);
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    buf_grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* The text so far; "" for an empty buffer.  Valid until the next change. */
const char *buf_str(struct buf *b)
{
    return b->data != NULL ? b->data : "";
}

/* Cut the text to at most MAX bytes, ending it with "..." when cut. */
void buf_truncate(struct buf *b, size_t max)
{
    if (b->len <= max || max < 3)
        return;
    b->len = max - 3;
    memcpy(b->data + b->len, "...", 4);
    b->len += 3;
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}
