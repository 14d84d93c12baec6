/* SPDX-License-Identifier: MIT */
/*
 * value.c - construction, printing and comparison of values.  Values come
 * from a pool and are released together by value_free_all().
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "builtin.h"
#include "pool.h"
#include "strtab.h"
#include "value.h"
#include "xmalloc.h"

/* All values; set up on first use, emptied by value_free_all(). */
static struct pool value_pool;
static int value_pool_ready;

/* Values are immutable, so small ints are shared: each is made once, on
 * first use, and kept until value_free_all(). */
#define VALUE_SMALL_MIN (-256)
#define VALUE_SMALL_MAX 1023
static Value value_small[VALUE_SMALL_MAX - VALUE_SMALL_MIN + 1];

static Value value_new(int kind)
{
    Value v;

    if (!value_pool_ready) {
        pool_init(&value_pool, sizeof(struct value));
        value_pool_ready = 1;
    }
    v = pool_alloc(&value_pool);
    v->kind = kind;
    return v;
}

Value value_int(long i)
{
    Value *shared = NULL, v;

    if (i >= VALUE_SMALL_MIN && i <= VALUE_SMALL_MAX) {
        shared = &value_small[i - VALUE_SMALL_MIN];
        if (*shared != NULL)
            return *shared;
    }
    v = value_new(V_INT);
    v->u.i = i;
    if (shared != NULL)
        *shared = v;
    return v;
}

/* A string value for the LEN bytes at S (NUL-terminated), which must live
 * as long as the value (a string table entry). */
Value value_str(const char *s, size_t len)
{
    Value v = value_new(V_STR);

    v->u.str.s = s;
    v->u.str.len = len;
    return v;
}

/* A string value that takes ownership of S (NUL-terminated, malloc'd). */
Value value_str_owned(char *s, size_t len)
{
    Value v = value_new(V_STR);

    if (s == NULL)
        s = xstrndup("", 0);
    v->u.str.s = s;
    v->u.str.len = len;
    v->u.str.owned = 1;
    return v;
}

/* A function: the fn node FN closed over ENV. */
Value value_fn(Node fn, Environment env)
{
    Value v = value_new(V_FN);

    v->u.fn.fn = fn;
    v->u.fn.env = env;
    return v;
}

Value value_builtin(int index)
{
    Value v = value_new(V_BUILTIN);

    v->u.builtin = index;
    return v;
}

/* Whether P is the address of a value. */
int value_is_value(const void *p)
{
    return value_pool_ready && pool_owns(&value_pool, p);
}

/* "int", "str", "fn" or "builtin". */
const char *value_kind_name(Value v)
{
    switch (v->kind) {
    case V_INT: return "int";
    case V_STR: return "str";
    case V_FN: return "fn";
    case V_BUILTIN: return "builtin";
    default: return "unknown";
    }
}

/* Number of parameters of a function or built-in; -1 for other values. */
int value_arity(Value v)
{
    if (v->kind == V_FN)
        return v->u.fn.fn->nkids - 1;
    if (v->kind == V_BUILTIN)
        return builtin_arity(v->u.builtin);
    return -1;
}

/* Name of a function or built-in; NULL for anonymous functions and other
 * values. */
const char *value_fn_name(Value v)
{
    if (v->kind == V_FN)
        return v->u.fn.fn->attr >= 0 ? strtab_get((int)v->u.fn.fn->attr) : NULL;
    if (v->kind == V_BUILTIN)
        return builtin_name(v->u.builtin);
    return NULL;
}

/* Append the printed form of V to B: the number, the string's bytes,
 * <fn NAME/ARITY> or <builtin NAME/ARITY>. */
void value_format(Value v, struct buf *b)
{
    const char *name;

    switch (v->kind) {
    case V_INT:
        buf_addf(b, "%ld", v->u.i);
        break;
    case V_STR:
        buf_add(b, v->u.str.s, v->u.str.len);
        break;
    case V_FN:
    case V_BUILTIN:
        name = value_fn_name(v);
        buf_addf(b, "<%s%s%s/%d>", value_kind_name(v), name != NULL ? " " : "",
                 name != NULL ? name : "", value_arity(v));
        break;
    }
}

/* Whether A and B are equal: same kind and same number or text; functions
 * only equal themselves. */
int value_equal(Value a, Value b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case V_INT:
        return a->u.i == b->u.i;
    case V_STR:
        return a->u.str.len == b->u.str.len &&
               memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case V_FN:
        return a->u.fn.fn == b->u.fn.fn && a->u.fn.env == b->u.fn.env;
    case V_BUILTIN:
        return a->u.builtin == b->u.builtin;
    default:
        return 0;
    }
}

static void value_free_one(void *obj)
{
    Value v = obj;

    if (v->kind == V_STR && v->u.str.owned)
        free((char *)v->u.str.s);
}

/* Release every value. */
void value_free_all(void)
{
    if (value_pool_ready) {
        pool_each(&value_pool, value_free_one);
        pool_free(&value_pool);
    }
    memset(value_small, 0, sizeof value_small);
}
