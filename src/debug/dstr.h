/* SPDX-License-Identifier: MIT */
/*
 * dstr.h - a growing string, for the text the debug layer builds (type
 * names, printed values).  Allocation cannot fail (xmalloc.h).
 */
#ifndef NOOSA_DSTR_H
#define NOOSA_DSTR_H

#include <stddef.h>

struct dstr {
    char *s;    /* NUL-terminated once anything was added; may be NULL */
    size_t len, cap;
};

void dstr_add(struct dstr *b, const char *s, size_t n);
void dstr_puts(struct dstr *b, const char *s);
void dstr_putc(struct dstr *b, char c);
void dstr_printf(struct dstr *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text, owned by the caller from now on ("" when empty). */
char *dstr_take(struct dstr *b);

#endif /* NOOSA_DSTR_H */
