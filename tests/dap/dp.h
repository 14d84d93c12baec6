/* SPDX-License-Identifier: MIT */
/*
 * dp.h - what the operations of dp.dapto see of the test program dp.
 */
#ifndef NOOSA_TESTS_DP_H
#define NOOSA_TESTS_DP_H

#include <stdio.h>
#include <string.h>

/* An item of the list dp makes; never freed. */
typedef struct item {
    int id;
    char name[16];
    struct item *next;
} *Item;

#define DAPTO_RESULTItem(c) DAPTO_RESULT_PTR(c)
#define DAPTO_ARGItem(v) DAPTO_ARG_PTR(v, Item)

extern struct item *dp_items; /* the first item, or NULL */

#endif /* NOOSA_TESTS_DP_H */
