/* SPDX-License-Identifier: MIT */
/*
 * diag.h - diagnostics of the dapto compiler: positions in a specification
 * and the list of errors and notes found in it.  Nothing here prints until
 * diag_print(), so the compiler can run on a buffer (tests, fuzzing)
 * without writing anywhere.
 */
#ifndef NOOSA_DAPTO_DIAG_H
#define NOOSA_DAPTO_DIAG_H

#include <stddef.h>
#include <stdio.h>

/* A position as messages show it: the file and line follow line markers,
 * the column counts bytes from 1. */
struct pos {
    const char *file; /* owned by the specification's file table */
    unsigned long line;
    unsigned long col;
};

enum diag_level { DIAG_ERROR, DIAG_NOTE };

struct diag {
    enum diag_level level;
    char *file; /* copied, so diagnostics outlive the specification */
    unsigned long line;
    unsigned long col;
    char *msg;
};

struct diags {
    struct diag *v;
    size_t n;
    size_t cap;
    unsigned int nerrors;
};

void diag_init(struct diags *d);
void diag_error(struct diags *d, const struct pos *pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_note(struct diags *d, const struct pos *pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Move every diagnostic of SRC to the end of DST; SRC is left empty. */
void diag_move(struct diags *dst, struct diags *src);
/* Print in GNU format, "file:line:col: error: message", one a line. */
void diag_print(const struct diags *d, FILE *f);
void diag_free(struct diags *d);

#endif /* NOOSA_DAPTO_DIAG_H */
