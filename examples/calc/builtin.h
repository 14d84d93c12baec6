/* SPDX-License-Identifier: MIT */
/*
 * builtin.h - calc's built-in functions, bound in the outermost
 * environment: str(x) gives the printed form of any value, len(s) the
 * length of a string.
 */
#ifndef CALC_BUILTIN_H
#define CALC_BUILTIN_H

#include "value.h"

int builtin_count(void);
const char *builtin_name(int index);
int builtin_arity(int index);
Value builtin_call(int index, const Value *args, const char **why);

#endif /* CALC_BUILTIN_H */
