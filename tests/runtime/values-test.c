/* SPDX-License-Identifier: MIT */
/*
 * values-test.c - the value codec of dapto.h: every type encoded and read
 * back, strings cut to fit and NULL, values that do not fit, and the
 * argument decoder's failures and messages.
 */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dapto.h"
#include "unit.h"

static void out_init(struct dapto_out *o, unsigned char *b, size_t n)
{
    memset(o, 0, sizeof *o);
    o->base = o->p = b;
    o->end = b + n;
}

static void in_init(struct dapto_in *in, const unsigned char *b, size_t n)
{
    memset(in, 0, sizeof *in);
    in->p = b;
    in->end = b + n;
}

static void test_round_trip(void)
{
    unsigned char b[512];
    struct dapto_out o;
    struct dapto_in in;
    static const int ints[] = {0, 1, -1, INT_MIN, INT_MAX};
    static const long longs[] = {0, LONG_MIN, LONG_MAX, -2};
    static const double dbls[] = {0.0, -0.0, 1.5, -DBL_MAX, DBL_MIN, INFINITY};
    const void *ptrs[] = {NULL, b, (void *)~(uintptr_t)0};
    unsigned int i;
    double d;

    out_init(&o, b, sizeof b);
    for (i = 0; i < 5; i++)
        dapto_put_int(&o, ints[i]);
    for (i = 0; i < 4; i++)
        dapto_put_long(&o, longs[i]);
    for (i = 0; i < 6; i++)
        dapto_put_double(&o, dbls[i]);
    dapto_put_double(&o, NAN);
    for (i = 0; i < 3; i++)
        dapto_put_ptr(&o, ptrs[i]);
    dapto_put_str(&o, "");
    dapto_put_str(&o, "hello");
    dapto_put_str(&o, NULL);
    dapto_put_unknown(&o);
    CHECK_EQ_INT(o.count, 5 + 4 + 7 + 3 + 3 + 1);
    CHECK(!o.truncated);
    /* sizes on the wire: tag + 4, 8, 8, 8, 4 + n + 1, nothing */
    CHECK_EQ_INT(o.p - b, 5 * 5 + 4 * 9 + 7 * 9 + 3 * 9 + 6 + 11 + 12 + 1);
    CHECK(b[0] == DAPTO_K_INT && b[25] == DAPTO_K_LONG);

    in_init(&in, b, (size_t)(o.p - b));
    for (i = 0; i < 5; i++)
        CHECK_EQ_INT(dapto_get_int(&in), ints[i]);
    for (i = 0; i < 4; i++)
        CHECK_EQ_INT(dapto_get_long(&in), longs[i]);
    for (i = 0; i < 6; i++) {
        d = dapto_get_double(&in);
        CHECK(memcmp(&d, &dbls[i], sizeof d) == 0);
    }
    CHECK(isnan(dapto_get_double(&in)));
    for (i = 0; i < 3; i++)
        CHECK(dapto_get_ptr(&in) == ptrs[i]);
    CHECK(strcmp(dapto_get_str(&in), "") == 0);
    CHECK(strcmp(dapto_get_str(&in), "hello") == 0);
    CHECK(strcmp(dapto_get_str(&in), "(null)") == 0);
    CHECK(*in.p == DAPTO_K_UNKNOWN);
    CHECK(!in.failed);
    CHECK_EQ_INT(in.index, 5 + 4 + 7 + 3 + 3);
}

static void test_truncation(void)
{
    unsigned char b[64];
    struct dapto_out o;
    struct dapto_in in;
    const char *s;
    uint32_t len;

    /* exactly fits: tag, length, 10 bytes, NUL = 16 */
    out_init(&o, b, 16);
    dapto_put_str(&o, "0123456789");
    CHECK(!o.truncated && o.count == 1 && o.p == b + 16 && b[0] == DAPTO_K_STR);
    /* one byte short: cut to 9, marked */
    out_init(&o, b, 15);
    dapto_put_str(&o, "0123456789");
    CHECK(o.truncated && o.count == 1 && o.p == b + 15);
    CHECK(b[0] == (DAPTO_K_STR | DAPTO_K_TRUNC));
    memcpy(&len, b + 1, 4);
    CHECK(len == 9 && b[14] == '\0' && memcmp(b + 5, "012345678", 9) == 0);
    in_init(&in, b, 15);
    s = dapto_get_str(&in);
    CHECK(!in.failed && strcmp(s, "012345678") == 0);
    /* no room even for an empty string: nothing written */
    out_init(&o, b, 5);
    dapto_put_str(&o, "x");
    CHECK(o.truncated && o.count == 0 && o.p == b);
    /* the smallest room: an empty, cut string */
    out_init(&o, b, 6);
    dapto_put_str(&o, "xyz");
    CHECK(o.truncated && o.count == 1 && b[0] == (DAPTO_K_STR | DAPTO_K_TRUNC) &&
          b[5] == '\0');
    /* fixed values that do not fit are dropped whole */
    out_init(&o, b, 12);
    dapto_put_long(&o, 1);
    dapto_put_long(&o, 2);
    dapto_put_int(&o, 3);
    CHECK(o.truncated && o.count == 1 && o.p == b + 9);
    dapto_put_unknown(&o);
    CHECK(o.count == 2 && o.p == b + 10);
}

static void test_failures(void)
{
    unsigned char b[64];
    struct dapto_out o;
    struct dapto_in in;
    uint32_t len;

    /* missing */
    in_init(&in, b, 0);
    CHECK(dapto_get_int(&in) == 0 && in.failed);
    CHECK(strcmp(in.message, "argument 1: missing") == 0);

    /* wrong type, and the first failure is kept */
    out_init(&o, b, sizeof b);
    dapto_put_int(&o, 5);
    dapto_put_str(&o, "s");
    in_init(&in, b, (size_t)(o.p - b));
    CHECK(dapto_get_int(&in) == 5 && !in.failed);
    CHECK(dapto_get_long(&in) == 0 && in.failed);
    CHECK(strcmp(in.message, "argument 2: expected a long") == 0);
    CHECK(dapto_get_double(&in) == 0.0 && dapto_get_ptr(&in) == NULL);
    CHECK(strcmp(dapto_get_str(&in), "") == 0);
    CHECK(strcmp(in.message, "argument 2: expected a long") == 0);
    CHECK_EQ_INT(in.index, 1);

    in_init(&in, b, (size_t)(o.p - b));
    CHECK(strcmp(dapto_get_str(&in), "") == 0);
    CHECK(strcmp(in.message, "argument 1: expected a string") == 0);
    in_init(&in, b + 5, (size_t)(o.p - b - 5));
    CHECK(dapto_get_double(&in) == 0.0);
    CHECK(strcmp(in.message, "argument 1: expected a double") == 0);
    in_init(&in, b + 5, (size_t)(o.p - b - 5));
    CHECK(dapto_get_ptr(&in) == NULL);
    CHECK(strcmp(in.message, "argument 1: expected a pointer") == 0);

    /* numbers convert between numeric kinds: a user type's DAPTO_ARG
     * macro may read what the monitor sent with any of the getters */
    in_init(&in, b, (size_t)(o.p - b));
    CHECK(dapto_get_ptr(&in) == (void *)5 && !in.failed);
    out_init(&o, b, sizeof b);
    dapto_put_ptr(&o, (void *)0x1234);
    dapto_put_long(&o, -7);
    dapto_put_double(&o, 2.5);
    dapto_put_int(&o, 9);
    in_init(&in, b, (size_t)(o.p - b));
    CHECK_EQ_INT(dapto_get_int(&in), 0x1234);
    CHECK(dapto_get_double(&in) == -7.0);
    CHECK_EQ_INT(dapto_get_long(&in), 2);
    CHECK(dapto_get_double(&in) == 9.0 && !in.failed);
    /* a double beyond a long saturates, NaN reads as 0 */
    out_init(&o, b, sizeof b);
    dapto_put_double(&o, 1e300);
    dapto_put_double(&o, -1e300);
    dapto_put_double(&o, NAN);
    in_init(&in, b, (size_t)(o.p - b));
    CHECK(dapto_get_long(&in) == LONG_MAX);
    CHECK(dapto_get_long(&in) == LONG_MIN);
    CHECK(dapto_get_long(&in) == 0 && !in.failed);

    /* a value cut short */
    in_init(&in, b, 3);
    CHECK(dapto_get_int(&in) == 0 && in.failed);
    CHECK(strcmp(in.message, "argument 1: expected an int") == 0);

    /* malformed strings: length beyond the end, no NUL */
    out_init(&o, b, sizeof b);
    dapto_put_str(&o, "abc");
    len = 200;
    memcpy(b + 1, &len, 4);
    in_init(&in, b, (size_t)(o.p - b));
    CHECK(strcmp(dapto_get_str(&in), "") == 0);
    CHECK(strcmp(in.message, "argument 1: malformed string") == 0);
    len = 3;
    memcpy(b + 1, &len, 4);
    b[8] = '!';
    in_init(&in, b, (size_t)(o.p - b));
    CHECK(strcmp(dapto_get_str(&in), "") == 0 && in.failed);
    CHECK(strcmp(in.message, "argument 1: malformed string") == 0);
    CHECK_EQ_INT(in.index, 0);

    /* a user type without DAPTO_ARG macro */
    in_init(&in, b, 0);
    dapto_get_unknown(&in, "Blob");
    CHECK(in.failed);
    CHECK(strcmp(in.message, "argument 1: type Blob has no DAPTO_ARG macro") == 0);

    /* a long type name is cut, the message stays terminated */
    in_init(&in, b, 0);
    {
        char name[400];

        memset(name, 'T', sizeof name - 1);
        name[sizeof name - 1] = '\0';
        dapto_get_unknown(&in, name);
    }
    CHECK(in.failed && strlen(in.message) < sizeof in.message);

    /* the argument number counts past 9 */
    out_init(&o, b, sizeof b);
    {
        int i;

        for (i = 0; i < 11; i++)
            dapto_put_int(&o, i);
        in_init(&in, b, (size_t)(o.p - b));
        for (i = 0; i < 11; i++)
            dapto_get_int(&in);
        dapto_get_int(&in);
    }
    CHECK(strcmp(in.message, "argument 12: missing") == 0);
}

/* The event encoder's buffer: the header is placed 8-aligned, whatever
 * the buffer's alignment; with no monitor the event goes nowhere. */
static void test_event_buffer(void)
{
    _Alignas(8) unsigned char b[128];
    struct dapto_out o, *r;
    int k;

    for (k = 0; k < 8; k++) {
        r = dapto_event_begin(&o, b + k, sizeof b - 8, NULL, 3);
        CHECK(r == &o);
        CHECK(((uintptr_t)o.base & 7) == 0 && o.base >= b + k && o.base < b + k + 8);
        /* the end is rounded down to a word of the record */
        CHECK(o.p == o.base + DAPTO_EVENT_HEADER && o.end <= b + k + sizeof b - 8 &&
              o.end > b + k + sizeof b - 16 && (o.end - o.base) % 8 == 0);
        CHECK(o.count == 0 && !o.truncated && o.aspect == NULL && o.index == 3);
        dapto_put_int(&o, 1);
        dapto_event_end(&o);
    }
    /* a buffer too small for a header: nothing is written */
    memset(b, 0x5a, sizeof b);
    r = dapto_event_begin(&o, b + 1, 20, NULL, 0);
    dapto_put_int(&o, 1);
    dapto_put_str(&o, "x");
    CHECK(o.count == 0 && o.truncated && b[1] == 0x5a && b[20] == 0x5a);
    dapto_event_end(&o);
    CHECK(!dapto_monitored());
    dapto_emit_enter("x");
    dapto_emit_leave("x");
    dapto_emit_stopped("y", 1);
}

int main(void)
{
    test_round_trip();
    test_truncation();
    test_failures();
    test_event_buffer();
    return unit_done("values-test");
}
