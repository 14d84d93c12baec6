/* SPDX-License-Identifier: MIT */
/*
 * buf.h - growable byte buffers for generated text.  A buffer counts the
 * newlines written to it, so generators know the current output line when
 * they write #line directives.
 */
#ifndef NOOSA_DAPTO_BUF_H
#define NOOSA_DAPTO_BUF_H

#include <stddef.h>

struct buf {
    char *data;   /* NUL-terminated once anything was written */
    size_t len;
    size_t cap;
    size_t lines; /* newlines written so far */
};

void buf_init(struct buf *b);
void buf_add(struct buf *b, const void *data, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, int c);
void buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);

#endif /* NOOSA_DAPTO_BUF_H */
