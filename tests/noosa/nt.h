/* SPDX-License-Identifier: MIT */
/*
 * nt.h - what the operations of nt.dapto see of the test program nt.
 */
#ifndef NOOSA_TESTS_NT_H
#define NOOSA_TESTS_NT_H

#include <stdio.h>
#include <string.h>

/* A cell of the list that `nt list N` builds; never freed. */
typedef struct cell {
    int value;
    char text[16];
    struct cell *next;
} *Cell;

#define DAPTO_RESULTCell(c) DAPTO_RESULT_PTR(c)
#define DAPTO_ARGCell(v) DAPTO_ARG_PTR(v, Cell)

extern struct cell *nt_list;   /* the first cell, or NULL */
extern int nt_ticks;           /* ticks emitted so far */
extern int *volatile nt_bad;   /* an address that faults */

#endif /* NOOSA_TESTS_NT_H */
