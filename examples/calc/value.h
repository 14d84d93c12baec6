/* SPDX-License-Identifier: MIT */
/*
 * value.h - calc's values: integers (C long), strings, functions (a fn
 * node with the environment it was created in) and built-in functions.
 * Values are immutable and live until value_free_all(), so a monitor can
 * browse any value an event reported.
 */
#ifndef CALC_VALUE_H
#define CALC_VALUE_H

#include <stddef.h>

#include "env.h"
#include "tree.h"

struct buf;

enum value_kind {
    V_INT,
    V_STR,
    V_FN,
    V_BUILTIN
};

typedef struct value *Value;

struct value {
    int kind; /* enum value_kind */
    union {
        long i;
        struct {
            const char *s; /* NUL-terminated */
            size_t len;
            int owned;     /* s was allocated for this value */
        } str;
        struct {
            Node fn;       /* an N_FN node */
            Environment env;
        } fn;
        int builtin;       /* index in the builtin table */
    } u;
};

Value value_int(long i);
Value value_str(const char *s, size_t len);
Value value_str_owned(char *s, size_t len);
Value value_fn(Node fn, Environment env);
Value value_builtin(int index);
int value_is_value(const void *p);
const char *value_kind_name(Value v);
int value_arity(Value v);
const char *value_fn_name(Value v);
void value_format(Value v, struct buf *b);
int value_equal(Value a, Value b);
void value_free_all(void);

#ifdef MONITOR
#define DAPTO_RESULTValue(v) DAPTO_RESULT_PTR(v)
#define DAPTO_ARGValue(v) DAPTO_ARG_PTR(v, Value)
#endif

#endif /* CALC_VALUE_H */
