/* SPDX-License-Identifier: MIT */
/*
 * strtab.h - the string table: every identifier and string literal of the
 * program is stored once and known by its index (an "idn"), as in Eli's
 * csm module.  Strings computed while the program runs are not stored
 * here.
 */
#ifndef CALC_STRTAB_H
#define CALC_STRTAB_H

#include <stddef.h>

int strtab_add(const char *s, size_t len);
int strtab_find(const char *s, size_t len);
const char *strtab_get(int idn);
size_t strtab_length(int idn);
int strtab_count(void);
void strtab_free(void);

#endif /* CALC_STRTAB_H */
