/* SPDX-License-Identifier: MIT */
/*
 * values.c - the value encoder and argument decoder behind DAPTO_RESULT_*
 * and DAPTO_ARG_*.  Values are a tag byte (enum dapto_kind) followed by the
 * value, unaligned, native-endian.  No allocation, no stdio: these run on
 * the event path and inside operations.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "dapto.h"

void dapto_put_str(struct dapto_out *o, const char *s)
{
    size_t room, n;
    uint32_t len;
    unsigned char tag = DAPTO_K_STR;

    if (s == NULL)
        s = "(null)";
    /* tag, length, and at least the NUL must fit */
    room = (size_t)(o->end - o->p);
    if (room < 1 + sizeof len + 1) {
        o->truncated = 1;
        return;
    }
    room -= 1 + sizeof len + 1;
    n = strlen(s);
    if (n > room) {
        n = room;
        tag |= DAPTO_K_TRUNC;
        o->truncated = 1;
    }
    len = (uint32_t)n;
    *o->p++ = tag;
    memcpy(o->p, &len, sizeof len);
    o->p += sizeof len;
    memcpy(o->p, s, n);
    o->p += n;
    *o->p++ = '\0';
    o->count++;
}

/* Fail IN with a message naming the argument; keep the first failure. */
static void in_fail(struct dapto_in *in, const char *what)
{
    size_t n;
    static const char head[] = "argument ";
    char num[12];
    int i = 0;
    unsigned int v = in->index + 1;

    if (in->failed)
        return;
    in->failed = 1;
    do {
        num[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0 && i < (int)sizeof num);
    n = 0;
    memcpy(in->message, head, sizeof head - 1);
    n = sizeof head - 1;
    while (i > 0 && n < sizeof in->message - 1)
        in->message[n++] = num[--i];
    if (n < sizeof in->message - 3) {
        in->message[n++] = ':';
        in->message[n++] = ' ';
    }
    while (*what != '\0' && n < sizeof in->message - 1)
        in->message[n++] = *what++;
    in->message[n] = '\0';
}

/* Read the next value if it has tag KIND and N bytes; else fail. */
static int in_take(struct dapto_in *in, unsigned char kind, void *v, size_t n,
                   const char *expected)
{
    if (in->failed)
        return -1;
    if (in->p >= in->end) {
        in_fail(in, "missing");
        return -1;
    }
    if ((*in->p & ~DAPTO_K_TRUNC) != kind || (size_t)(in->end - in->p) < 1 + n) {
        in_fail(in, expected);
        return -1;
    }
    memcpy(v, in->p + 1, n);
    in->p += 1 + n;
    in->index++;
    return 0;
}

/*
 * Read the next value as a number, whatever numeric kind it has.  Declared
 * int, long, double and ptr parameters get exactly their kind from the
 * monitor; a user type's DAPTO_ARG<Type> macro reads with one of the
 * getters below, which the monitor cannot know, so it sends such an
 * argument as a number of its own choosing and the getters convert.
 */
static int in_number(struct dapto_in *in, long long *iv, double *dv,
                     const char *expected)
{
    unsigned char tag;
    int32_t i32;
    int64_t i64;
    uint64_t u64;
    double d;

    if (in->failed)
        return -1;
    if (in->p >= in->end) {
        in_fail(in, "missing");
        return -1;
    }
    tag = *in->p & (unsigned char)~DAPTO_K_TRUNC;
    switch (tag) {
    case DAPTO_K_INT:
        if (in_take(in, tag, &i32, sizeof i32, expected) != 0)
            return -1;
        *iv = i32;
        *dv = i32;
        return 0;
    case DAPTO_K_LONG:
        if (in_take(in, tag, &i64, sizeof i64, expected) != 0)
            return -1;
        *iv = i64;
        *dv = (double)i64;
        return 0;
    case DAPTO_K_PTR:
        if (in_take(in, tag, &u64, sizeof u64, expected) != 0)
            return -1;
        *iv = (long long)u64;
        *dv = (double)u64;
        return 0;
    case DAPTO_K_DOUBLE:
        if (in_take(in, tag, &d, sizeof d, expected) != 0)
            return -1;
        /* out of range (or NaN) the conversion would be undefined:
         * saturate, NaN gives 0 */
        if (d >= 9223372036854775807.0)
            *iv = LLONG_MAX;
        else if (d <= -9223372036854775808.0)
            *iv = LLONG_MIN;
        else if (d == d)
            *iv = (long long)d;
        else
            *iv = 0;
        *dv = d;
        return 0;
    default:
        in_fail(in, expected);
        return -1;
    }
}

int dapto_get_int(struct dapto_in *in)
{
    long long v = 0;
    double d;

    in_number(in, &v, &d, "expected an int");
    return (int)v;
}

long dapto_get_long(struct dapto_in *in)
{
    long long v = 0;
    double d;

    in_number(in, &v, &d, "expected a long");
    return (long)v;
}

double dapto_get_double(struct dapto_in *in)
{
    long long v;
    double d = 0;

    in_number(in, &v, &d, "expected a double");
    return d;
}

void *dapto_get_ptr(struct dapto_in *in)
{
    long long v = 0;
    double d;

    in_number(in, &v, &d, "expected a pointer");
    return (void *)(uintptr_t)(unsigned long long)v;
}

const char *dapto_get_str(struct dapto_in *in)
{
    uint32_t len;
    const unsigned char *s;

    if (in_take(in, DAPTO_K_STR, &len, sizeof len, "expected a string") != 0)
        return "";
    s = in->p;
    if ((size_t)(in->end - s) < (size_t)len + 1 || s[len] != '\0') {
        in->index--;
        in_fail(in, "malformed string");
        return "";
    }
    in->p += len + 1;
    return (const char *)s;
}

void dapto_get_unknown(struct dapto_in *in, const char *type)
{
    char what[120];
    static const char a[] = "type ", b[] = " has no DAPTO_ARG macro";
    size_t n = 0, t = strlen(type);

    if (t > sizeof what - sizeof a - sizeof b)
        t = sizeof what - sizeof a - sizeof b;
    memcpy(what, a, sizeof a - 1);
    n = sizeof a - 1;
    memcpy(what + n, type, t);
    n += t;
    memcpy(what + n, b, sizeof b);
    in_fail(in, what);
}
