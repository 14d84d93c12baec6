/* SPDX-License-Identifier: MIT */
/*
 * diag.h - diagnostics in the GNU format, FILE:LINE:COL: error: MESSAGE,
 * for every error calc reports about a program (lexical, syntax and
 * run-time errors alike).
 */
#ifndef CALC_DIAG_H
#define CALC_DIAG_H

#include <stdio.h>

void diag_init(const char *file, FILE *err);
void diag_error(int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_note(int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int diag_errors(void);

#endif /* CALC_DIAG_H */
