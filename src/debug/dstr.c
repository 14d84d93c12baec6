/* SPDX-License-Identifier: MIT */
/*
 * dstr.c - a growing string.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dstr.h"
#include "xmalloc.h"

void dstr_add(struct dstr *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void dstr_puts(struct dstr *b, const char *s)
{
    dstr_add(b, s, strlen(s));
}

void dstr_putc(struct dstr *b, char c)
{
    dstr_add(b, &c, 1);
}

void dstr_printf(struct dstr *b, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = xvasprintf(fmt, ap);
    va_end(ap);
    dstr_puts(b, s);
    free(s);
}

char *dstr_take(struct dstr *b)
{
    char *s = b->s != NULL ? b->s : xstrdup("");

    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}
