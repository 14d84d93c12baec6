/* SPDX-License-Identifier: MIT */
/*
 * buf.h - growable text buffers, used to format values, program output and
 * unparsed expressions.  The text is always NUL-terminated.
 */
#ifndef CALC_BUF_H
#define CALC_BUF_H

#include <stddef.h>

struct buf {
    char *data; /* NUL-terminated once anything was added; owned */
    size_t len;
    size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_add(struct buf *b, const char *s, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *buf_str(struct buf *b);
void buf_truncate(struct buf *b, size_t max);
void buf_free(struct buf *b);

#endif /* CALC_BUF_H */
