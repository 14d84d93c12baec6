/* SPDX-License-Identifier: MIT */
/*
 * run.h - running one calc program from its text: lexing, parsing and
 * evaluation, component "driver".
 */
#ifndef CALC_RUN_H
#define CALC_RUN_H

#include <stddef.h>
#include <stdio.h>

int calc_run(const char *name, const char *text, size_t len, FILE *out,
             FILE *err);
void calc_free(void);

#endif /* CALC_RUN_H */
