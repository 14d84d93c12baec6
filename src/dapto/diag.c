/* SPDX-License-Identifier: MIT */
/*
 * diag.c - collecting and printing diagnostics.  Messages are kept in the
 * order they were made; the parser and the checker make them in source
 * order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "xmalloc.h"

void diag_init(struct diags *d)
{
    d->v = NULL;
    d->n = 0;
    d->cap = 0;
    d->nerrors = 0;
}

static void diag_add(struct diags *d, enum diag_level level,
                     const struct pos *pos, const char *fmt, va_list ap)
{
    struct diag *g;
    va_list aq;
    int n;

    d->v = xgrow(d->v, d->n, &d->cap, sizeof *d->v);
    g = &d->v[d->n++];
    g->level = level;
    g->file = xstrdup(pos->file);
    g->line = pos->line;
    g->col = pos->col;
    va_copy(aq, ap);
    n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        n = 0;
    g->msg = xmalloc((size_t)n + 1);
    vsnprintf(g->msg, (size_t)n + 1, fmt, ap);
    if (level == DIAG_ERROR)
        d->nerrors++;
}

void diag_error(struct diags *d, const struct pos *pos, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_add(d, DIAG_ERROR, pos, fmt, ap);
    va_end(ap);
}

void diag_note(struct diags *d, const struct pos *pos, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_add(d, DIAG_NOTE, pos, fmt, ap);
    va_end(ap);
}

void diag_move(struct diags *dst, struct diags *src)
{
    size_t i;

    for (i = 0; i < src->n; i++) {
        dst->v = xgrow(dst->v, dst->n, &dst->cap, sizeof *dst->v);
        dst->v[dst->n++] = src->v[i];
    }
    dst->nerrors += src->nerrors;
    free(src->v);
    diag_init(src);
}

/* File names come from line markers and may hold anything; keep control
 * characters off the terminal. */
static void diag_put_file(const char *s, FILE *f)
{
    for (; *s != '\0'; s++)
        putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void diag_print(const struct diags *d, FILE *f)
{
    size_t i;
    const struct diag *g;

    for (i = 0; i < d->n; i++) {
        g = &d->v[i];
        diag_put_file(g->file, f);
        fprintf(f, ":%lu:%lu: %s: %s\n", g->line, g->col,
                g->level == DIAG_ERROR ? "error" : "note", g->msg);
    }
}

void diag_free(struct diags *d)
{
    size_t i;

    for (i = 0; i < d->n; i++) {
        free(d->v[i].file);
        free(d->v[i].msg);
    }
    free(d->v);
    diag_init(d);
}
