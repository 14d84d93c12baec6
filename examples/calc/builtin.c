/* SPDX-License-Identifier: MIT */
/*
 * builtin.c - the built-in functions.  Each checks its arguments and either
 * returns a value or NULL with a message saying what was wrong.
 */
#include <stddef.h>

#include "buf.h"
#include "builtin.h"

static Value builtin_str(const Value *args, const char **why)
{
    struct buf b = BUF_INIT;
    size_t len;

    (void)why;
    if (args[0]->kind == V_STR)
        return args[0];
    value_format(args[0], &b);
    len = b.len;
    /* The value owns the text from here on. */
    return value_str_owned(b.data, len);
}

static Value builtin_len(const Value *args, const char **why)
{
    if (args[0]->kind != V_STR) {
        *why = args[0]->kind == V_INT ? "len expects a str, not an int"
                                      : "len expects a str, not a function";
        return NULL;
    }
    return value_int((long)args[0]->u.str.len);
}

static const struct {
    const char *name;
    int arity;
    Value (*fn)(const Value *args, const char **why);
} builtins[] = {
    { "str", 1, builtin_str },
    { "len", 1, builtin_len },
};

int builtin_count(void)
{
    return (int)(sizeof builtins / sizeof builtins[0]);
}

const char *builtin_name(int index)
{
    return builtins[index].name;
}

int builtin_arity(int index)
{
    return builtins[index].arity;
}

/* Call built-in INDEX with builtin_arity(INDEX) arguments.  On error,
 * returns NULL and sets *WHY to a static message. */
Value builtin_call(int index, const Value *args, const char **why)
{
    return builtins[index].fn(args, why);
}
