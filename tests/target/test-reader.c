/* SPDX-License-Identifier: MIT */
/*
 * test-reader.c - the record decoder and its validation: every value
 * type, truncated values, bad tags, lengths past the end, missing NULs,
 * bad intern ids, bad records and bad aspect descriptions, each with the
 * message it must give; names found where they belong when an aspect is
 * called like one of its events or operations.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "registry.h"
#include "unit.h"
#include "value.h"
#include "wire.h"

static struct registry *reg;
static struct reader *rd;
static struct clock clk;
static struct wire iface;
static unsigned char rec[16384];

static void feed(unsigned int code, unsigned int flags, unsigned int aux,
                 const struct wire *v, struct reader_item *item)
{
    size_t n = wire_record(rec, code, flags, aux, 77, 5000, v);

    reader_record(rd, rec, n, iface.buf, iface.len, item);
}

/* A record whose decoding must fail with a message containing WANT. */
static void bad(unsigned int code, unsigned int flags, const struct wire *v,
                const char *want, int line)
{
    struct reader_item it;

    feed(code, flags, 0, v, &it);
    if (it.kind != READER_ERROR || strstr(it.message, want) == NULL) {
        fprintf(stderr, "line %d: expected an error with \"%s\", got %s\n",
                line, want, it.kind == READER_ERROR ? it.message : "no error");
        unit_failures++;
    }
    unit_checks++;
}
#define BAD(code, flags, v, want) bad(code, flags, v, want, __LINE__)

/* Register a description built by FILL at its own place in iface. */
static void post_aspect(const struct wire *desc, struct reader_item *it)
{
    struct wire v = {.len = 0};
    size_t off = iface.len;

    wire_bytes(&iface, desc->buf, desc->len);
    wire_int(&v, (int32_t)off);
    wire_int(&v, (int32_t)desc->len);
    feed(DAPTO_REC_ASPECT, 0, 0, &v, it);
}

static void test_aspect(void)
{
    struct wire d = {.len = 0};
    struct reader_item it;
    struct registry_event *e;
    struct registry_op *o;

    wire_test_aspect(&d, "t", 6, 0);
    post_aspect(&d, &it);
    CHECK_EQ_INT(it.kind, READER_ASPECT);
    CHECK(it.aspect != NULL && strcmp(it.aspect->name, "t") == 0);
    e = registry_event(reg, 6);
    CHECK(e != NULL && strcmp(e->name, "ev_all") == 0);
    CHECK(e != NULL && e->nparams == 6 && e->visible == 1);
    CHECK(e != NULL && e->state_addr == 0x601000);
    CHECK(e != NULL && strcmp(e->params[5].type, "Thing") == 0);
    CHECK(registry_event(reg, 7) == registry_event_by_name(reg, "ping"));
    CHECK(registry_event_by_name(reg, "t.ping") != NULL);
    CHECK(registry_event_by_name(reg, "u.ping") == NULL);
    CHECK(registry_event(reg, 5) == NULL);
    CHECK(registry_event(reg, 8) == NULL);
    o = registry_op_by_name(reg, "get");
    CHECK(o != NULL && o->code == 0 && o->result_kind == DAPTO_K_STR);
    CHECK(o != NULL && o->nparams == 1 && strcmp(o->params[0].doc, "index") == 0);
    CHECK(registry_op(reg, 0) == o);
    CHECK_EQ_INT(registry_naspects(reg), 1);

    /* the same codes again: refused, registry unchanged */
    d.len = 0;
    wire_test_aspect(&d, "t2", 7, 1);
    post_aspect(&d, &it);
    CHECK(it.kind == READER_ERROR &&
          strstr(it.message, "event code 7 is already taken by ping"));
    d.len = 0;
    wire_test_aspect(&d, "t", 20, 5);
    post_aspect(&d, &it);
    CHECK(it.kind == READER_ERROR && strstr(it.message, "registered twice"));
    CHECK_EQ_INT(registry_naspects(reg), 1);
}

/* An aspect called like one of its events, another like its operation:
 * an event's name, alone or after its aspect's, finds the event, and an
 * operation's the operation; the aspects are found as aspects. */
static void test_same_names(void)
{
    struct registry *r = registry_create();
    struct wire d = {.len = 0};
    struct registry_event *e;
    struct registry_aspect *a;
    struct registry_op *o;
    char *cause = NULL;

    wire_test_aspect(&d, "ping", 3, 0);
    a = registry_add(r, d.buf, d.len, &cause);
    CHECK(a != NULL && cause == NULL);
    e = registry_event(r, 4);
    CHECK(e != NULL && strcmp(e->name, "ping") == 0 && e->aspect == a);
    CHECK(registry_aspect_by_name(r, "ping") == a);
    CHECK(registry_event_by_name(r, "ping") == e);
    CHECK(registry_event_by_name(r, "ping.ping") == e);
    CHECK(registry_event_by_name(r, "ping.ev_all") == registry_event(r, 3));
    CHECK(registry_event_named(e, "ping") && registry_event_named(e, "ping.ping"));
    CHECK(!registry_event_named(registry_event(r, 3), "ping"));
    CHECK(registry_op_by_name(r, "ping") == NULL);

    d.len = 0;
    wire_test_aspect(&d, "get", 10, 1);
    a = registry_add(r, d.buf, d.len, &cause);
    CHECK(a != NULL && cause == NULL);
    o = registry_op(r, 1);
    CHECK(o != NULL && strcmp(o->name, "get") == 0 && o->aspect == a);
    CHECK(registry_op_by_name(r, "get.get") == o);
    CHECK(registry_op_by_name(r, "ping.get") == registry_op(r, 0));
    CHECK(registry_event_by_name(r, "get") == NULL);
    CHECK(registry_event_by_name(r, "get.ping") == registry_event(r, 11));
    CHECK(registry_aspect_by_name(r, "get") == a);
    free(cause);
    registry_free(r);
}

/* A description with one change made by EDIT at byte AT. */
static void bad_desc(const char *name, int base, void (*edit)(struct wire *),
                     const char *want, int line)
{
    struct wire d = {.len = 0};
    struct reader_item it;

    wire_test_aspect(&d, name, base, 100);
    edit(&d);
    post_aspect(&d, &it);
    if (it.kind != READER_ERROR || strstr(it.message, want) == NULL) {
        fprintf(stderr, "line %d: expected an error with \"%s\", got %s\n",
                line, want, it.kind == READER_ERROR ? it.message : "no error");
        unit_failures++;
    }
    unit_checks++;
}
#define BAD_DESC(name, edit, want) bad_desc(name, 50, edit, want, __LINE__)

/* Byte offsets in the description of wire_test_aspect("x", ...). */
static size_t find(struct wire *d, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= d->len; i++) {
        if (memcmp(d->buf + i, s, n) == 0)
            return i;
    }
    abort();
}

static void edit_abi(struct wire *d)
{
    int32_t v = 99;
    memcpy(d->buf + find(d, "t.dapto") + 8 + 1, &v, 4);
}
static void edit_trailing(struct wire *d)
{
    wire_int(d, 0);
}
static void edit_cut(struct wire *d)
{
    d->len -= 10;
}
static void edit_nevents(struct wire *d)
{
    int32_t v = 40000;
    memcpy(d->buf + find(d, "t.dapto") + 8 + 1 + 5 + 5 + 0, &v, 0);
    memcpy(d->buf + find(d, "t.dapto") + 8 + 5 + 5 + 1, &v, 4);
}
static void edit_state0(struct wire *d)
{
    uint64_t z = 0;
    size_t at = find(d, "every type") + 11 + 5 + 1;
    memcpy(d->buf + at, &z, 8);
}
static void edit_kind(struct wire *d)
{
    int32_t k = 42;
    size_t at = find(d, "an int") - 5 - 5 + 1;
    memcpy(d->buf + at, &k, 4);
}
static void edit_empty_name(struct wire *d)
{
    /* "ping" becomes "pi g": a blank inside a name */
    d->buf[find(d, "ping") + 2] = ' ';
}
static void edit_nul(struct wire *d)
{
    d->buf[find(d, "t.dapto") + 7] = 'x';
}
static void edit_str_tag(struct wire *d)
{
    d->buf[find(d, "every type") - 5] = DAPTO_K_INT;
}

static void test_bad_aspects(void)
{
    struct reader_item it;
    struct wire v = {.len = 0};

    BAD_DESC("x1", edit_abi, "abi 99, expected 1");
    BAD_DESC("x2", edit_trailing, "bytes after the description");
    BAD_DESC("x3", edit_cut, "bad parameter count 1 (");
    BAD_DESC("x4", edit_nevents, "bad events");
    BAD_DESC("x5", edit_state0, "state byte address is 0");
    BAD_DESC("x6", edit_kind, "bad kind 42");
    BAD_DESC("x8", edit_empty_name, "blank or control character");
    BAD_DESC("x9", edit_nul, "no NUL");
    BAD_DESC("xa", edit_str_tag, "expected str");

    /* a description outside the interface area */
    wire_int(&v, (int32_t)iface.len - 4);
    wire_int(&v, 100);
    feed(DAPTO_REC_ASPECT, 0, 0, &v, &it);
    CHECK(it.kind == READER_ERROR &&
          strstr(it.message, "outside the") != NULL);
    v.len = 0;
    wire_int(&v, -1);
    wire_int(&v, 8);
    feed(DAPTO_REC_ASPECT, 0, 0, &v, &it);
    CHECK(it.kind == READER_ERROR);
    CHECK_EQ_INT(registry_naspects(reg), 1);
}

static void test_values(void)
{
    struct wire v = {.len = 0};
    struct reader_item it;

    /* an intern first */
    wire_int(&v, 3);
    wire_str(&v, "parser");
    feed(DAPTO_REC_INTERN, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_NONE);
    CHECK(reader_intern(rd, 3) && strcmp(reader_intern(rd, 3), "parser") == 0);

    v.len = 0;
    wire_int(&v, -42);
    wire_long(&v, 1LL << 40);
    wire_double(&v, 2.5);
    wire_str(&v, "a \"b\"\n");
    wire_ptr(&v, 0xdeadbeef);
    wire_tag(&v, DAPTO_K_UNKNOWN);
    feed(6, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_EVENT);
    CHECK_EQ_INT(it.nvalues, 6);
    CHECK_EQ_INT(it.tid, 77);
    CHECK_EQ_INT(it.ns, 4000);
    CHECK_EQ_INT(it.stop, -1);
    CHECK(it.event && strcmp(it.event->name, "ev_all") == 0);
    if (it.kind == READER_EVENT && it.nvalues == 6) {
        CHECK_EQ_INT(it.values[0].u.i, -42);
        CHECK_EQ_INT(it.values[1].u.l, 1LL << 40);
        CHECK(it.values[2].u.d == 2.5);
        CHECK(strcmp(it.values[3].s, "a \"b\"\n") == 0);
        CHECK_EQ_INT(it.values[3].len, 6);
        CHECK_EQ_INT(it.values[4].u.p, 0xdeadbeef);
        CHECK_EQ_INT(it.values[5].kind, DAPTO_K_UNKNOWN);
    }

    /* interned string, user type as an int, a stop in mailbox 2 */
    v.len = 0;
    wire_int(&v, 1);
    wire_long(&v, 2);
    wire_double(&v, 3);
    wire_istr(&v, 3);
    wire_ptr(&v, 0);
    wire_int(&v, 9);
    feed(6, DAPTO_RECF_STOP, 2, &v, &it);
    CHECK_EQ_INT(it.kind, READER_EVENT);
    CHECK_EQ_INT(it.stop, 2);
    CHECK(it.nvalues == 6 && it.values[3].interned &&
          strcmp(it.values[3].s, "parser") == 0);
    CHECK(it.nvalues == 6 && it.values[5].kind == DAPTO_K_INT);

    /* a truncated string, and values dropped, with the record's flag */
    v.len = 0;
    wire_int(&v, 1);
    wire_long(&v, 2);
    wire_double(&v, 3);
    wire_str(&v, "cut");
    v.buf[v.len - 9] |= DAPTO_K_TRUNC;
    feed(6, DAPTO_RECF_TRUNC, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_EVENT);
    CHECK_EQ_INT(it.nvalues, 4);
    CHECK(it.truncated && it.nvalues == 4 && it.values[3].truncated);

    /* no values at all for ping */
    v.len = 0;
    feed(7, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_EVENT);
    CHECK_EQ_INT(it.nvalues, 0);
}

static void test_bad_values(void)
{
    struct wire v = {.len = 0};
    struct reader_item it;

    BAD(6, 0, &v, "0 of 6 values");
    wire_int(&v, 1);
    wire_int(&v, 2);
    BAD(6, 0, &v, "parameter l at byte 5: expected long, found int");
    v.len = 0;
    wire_tag(&v, 0x09);
    BAD(6, 0, &v, "bad tag 0x09 at byte 0");
    v.len = 0;
    wire_tag(&v, DAPTO_K_INT | DAPTO_K_TRUNC);
    wire_bytes(&v, "abcd", 4);
    BAD(6, 0, &v, "bad tag 0x81 at byte 0");
    v.len = 0;
    wire_tag(&v, DAPTO_K_INT);
    wire_bytes(&v, "ab", 2);
    BAD(6, 0, &v, "int value at byte 0 runs past the end");
    v.len = 0;
    wire_int(&v, 1);
    wire_long(&v, 1);
    wire_double(&v, 1);
    {
        uint32_t n = 1000;
        wire_tag(&v, DAPTO_K_STR);
        wire_bytes(&v, &n, 4);
        wire_bytes(&v, "xy", 3);
    }
    BAD(6, 0, &v, "length 1000 runs past the end");
    v.len = 0;
    wire_int(&v, 1);
    wire_long(&v, 1);
    wire_double(&v, 1);
    wire_str(&v, "abc");
    v.buf[v.len - 1] = 'd';
    wire_ptr(&v, 1);
    wire_tag(&v, DAPTO_K_UNKNOWN);
    BAD(6, 0, &v, "no NUL after its 3 bytes");
    v.len = 0;
    wire_int(&v, 1);
    wire_long(&v, 1);
    wire_double(&v, 1);
    wire_istr(&v, 12345);
    BAD(6, DAPTO_RECF_TRUNC, &v, "unknown intern id 12345");
    v.len = 0;
    wire_int(&v, 1);
    BAD(7, 0, &v, "bytes after the 0 declared values");
    v.len = 0;
    BAD(4000, 0, &v, "no aspect declares this event code");
    BAD(0xf500, 0, &v, "neither an event nor a runtime record");
    BAD(7, 0x40, &v, "unknown flags 0x40");
    BAD(DAPTO_REC_HELLO, DAPTO_RECF_STOP, &v,
        "only events and function records may stop");
    BAD(DAPTO_REC_HELLO, 0, &v, "values end there");
    v.len = 0;
    wire_int(&v, 1);
    wire_str(&v, "x");
    BAD(DAPTO_REC_HELLO, 0, &v, "value 2 at byte 5: expected int, found str");
    v.len = 0;
    wire_int(&v, -5);
    wire_str(&v, "x");
    BAD(DAPTO_REC_INTERN, 0, &v, "intern id 4294967291 is too large");

    /* a bad mailbox index */
    v.len = 0;
    feed(7, DAPTO_RECF_STOP, 4, &v, &it);
    CHECK(it.kind == READER_ERROR &&
          strstr(it.message, "stop mailbox 4 does not exist"));
    /* a stop whose values are bad still names its mailbox */
    wire_int(&v, 1);
    feed(7, DAPTO_RECF_STOP, 1, &v, &it);
    CHECK(it.kind == READER_ERROR && it.stop == 1);

    /* header lies about the length */
    v.len = 0;
    {
        size_t n = wire_record(rec, 7, 0, 0, 1, 1, &v);
        struct dapto_record *h = (struct dapto_record *)rec;
        h->len = 9;
        reader_record(rd, rec, n, iface.buf, iface.len, &it);
        CHECK(it.kind == READER_ERROR &&
              strstr(it.message, "do not fit a record of 32 bytes"));
        reader_record(rd, rec, 16, iface.buf, iface.len, &it);
        CHECK(it.kind == READER_ERROR &&
              strstr(it.message, "shorter than its header"));
    }
    /* a record kind from a newer minor version is skipped */
    v.len = 0;
    wire_int(&v, 1);
    feed(0xff40, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_NONE);
}

static void test_runtime_records(void)
{
    struct wire v = {.len = 0};
    struct reader_item it;

    wire_int(&v, 1234);
    wire_int(&v, 0);
    feed(DAPTO_REC_HELLO, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_HELLO);
    CHECK_EQ_INT(it.pid, 1234);
    v.len = 0;
    wire_long(&v, 17);
    feed(DAPTO_REC_LOST, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_LOST);
    CHECK_EQ_INT(it.lost, 17);
    v.len = 0;
    wire_ptr(&v, 0x1000);
    wire_ptr(&v, 0x2000);
    feed(DAPTO_REC_FNLEAVE, 0, 0, &v, &it);
    CHECK_EQ_INT(it.kind, READER_FUNCTION);
    CHECK(it.function == 0x1000 && it.call_site == 0x2000 && !it.enter);
}

/* Values as text: one line, strings quoted with C escapes. */
static void test_text(void)
{
    struct decode_value v;
    char *t;

    memset(&v, 0, sizeof v);
    v.kind = DAPTO_K_STR;
    v.s = "a\"b\\c\n\t\x01\xc3\xa9";
    v.len = (uint32_t)strlen(v.s);
    t = value_text(&v);
    CHECK(strcmp(t, "\"a\\\"b\\\\c\\n\\t\\x01\\xc3\\xa9\"") == 0);
    free(t);
    v.truncated = 1;
    v.s = "cut";
    v.len = 3;
    t = value_text(&v);
    CHECK(strcmp(t, "\"cut\"...") == 0);
    free(t);
    v.kind = DAPTO_K_PTR;
    v.u.p = 0xbeef;
    t = value_text(&v);
    CHECK(strcmp(t, "0xbeef") == 0);
    free(t);
    v.kind = DAPTO_K_DOUBLE;
    v.u.d = 0.1;
    t = value_text(&v);
    CHECK(strcmp(t, "0.10000000000000001") == 0);
    free(t);
    v.kind = DAPTO_K_LONG;
    v.u.l = -9000000000LL;
    t = value_text(&v);
    CHECK(strcmp(t, "-9000000000") == 0);
    free(t);
    v.kind = DAPTO_K_UNKNOWN;
    t = value_text(&v);
    CHECK(strcmp(t, "?") == 0);
    free(t);
}

/* Events of scalars for the direct path (reader_scalar_event()): taken
 * in their one valid form only, and then the event reader_record() makes
 * of the same record, with the same values; anything else (a string, a
 * flag, a tag that is not the declared kind, a value short or too many,
 * an unknown code, a size that does not fit) is left to reader_record(). */
static void test_scalar_events(void)
{
    struct wire d = {.len = 0}, v = {.len = 0};
    struct reader_item it;
    struct reader_scalar ev;
    struct reader_time t;
    size_t n;
    static const unsigned int flags[] = {DAPTO_RECF_STOP, DAPTO_RECF_TRUNC,
                                         DAPTO_RECF_FILTERED};

    /* aspect "s" at 30: sc(int i, long l, double d, ptr p), ss(int i, str s) */
    wire_str(&d, "s");
    wire_str(&d, "s.dapto");
    wire_int(&d, DAPTO_ABI_VERSION);
    wire_int(&d, 30);
    wire_int(&d, 2);
    wire_int(&d, 10);
    wire_int(&d, 0);
    wire_str(&d, "sc");
    wire_str(&d, "scalars");
    wire_int(&d, 1);
    wire_ptr(&d, 0x602000);
    wire_int(&d, 4);
    wire_param(&d, "i", "int", DAPTO_K_INT, "");
    wire_param(&d, "l", "long", DAPTO_K_LONG, "");
    wire_param(&d, "d", "double", DAPTO_K_DOUBLE, "");
    wire_param(&d, "p", "ptr", DAPTO_K_PTR, "");
    wire_str(&d, "ss");
    wire_str(&d, "");
    wire_int(&d, 0);
    wire_ptr(&d, 0x602001);
    wire_int(&d, 2);
    wire_param(&d, "i", "int", DAPTO_K_INT, "");
    wire_param(&d, "s", "str", DAPTO_K_STR, "");
    post_aspect(&d, &it);
    CHECK_EQ_INT(it.kind, READER_ASPECT);
    reader_time_init(&t, &clk);

    wire_int(&v, -7);
    wire_long(&v, 1LL << 50);
    wire_double(&v, 0.25);
    wire_ptr(&v, 0xfeed);
    n = wire_record(rec, 30, 0, 0, 91, 6000, &v);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 1);
    CHECK(ev.event == registry_event(reg, 30));
    CHECK_EQ_INT(ev.len, v.len);
    CHECK_EQ_INT(ev.tid, 91);
    CHECK(ev.values == rec + DAPTO_RECORD_HEADER);
    reader_record(rd, rec, n, iface.buf, iface.len, &it);
    CHECK(it.kind == READER_EVENT && it.event == ev.event && it.nvalues == 4);
    CHECK_EQ_INT(it.ns, ev.ns);
    CHECK_EQ_INT(ev.ns, 5000);
    CHECK(memcmp(ev.values, v.buf, v.len) == 0);
    CHECK(it.nvalues == 4 && it.values[0].u.i == -7 && it.values[1].u.l == 1LL << 50 &&
          it.values[2].u.d == 0.25 && it.values[3].u.p == 0xfeed);

    /* no values: ping */
    d.len = 0;
    n = wire_record(rec, 7, 0, 0, 91, 6000, &d);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 1);
    CHECK_EQ_INT(ev.len, 0);

    /* flags: for the general way */
    for (unsigned int i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        n = wire_record(rec, 30, flags[i], 0, 91, 6000, &v);
        CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 0);
    }
    /* a string among the parameters */
    d.len = 0;
    wire_int(&d, 1);
    wire_str(&d, "x");
    n = wire_record(rec, 31, 0, 0, 91, 6000, &d);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 0);
    reader_record(rd, rec, n, iface.buf, iface.len, &it);
    CHECK_EQ_INT(it.kind, READER_EVENT);
    /* a long where the int is: the general way says so */
    d.len = 0;
    wire_long(&d, 1);
    wire_long(&d, 2);
    wire_double(&d, 3);
    wire_ptr(&d, 4);
    n = wire_record(rec, 30, 0, 0, 91, 6000, &d);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 0);
    BAD(30, 0, &d, "parameter i at byte 0: expected int, found long");
    /* a value short, one too many */
    d.len = 0;
    wire_int(&d, 1);
    wire_long(&d, 2);
    wire_double(&d, 3);
    n = wire_record(rec, 30, 0, 0, 91, 6000, &d);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 0);
    wire_ptr(&d, 4);
    wire_int(&d, 5);
    n = wire_record(rec, 30, 0, 0, 91, 6000, &d);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 0);
    /* an unknown code; a size the values do not fit */
    n = wire_record(rec, 40, 0, 0, 91, 6000, &v);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n, &t, &ev) == 0);
    n = wire_record(rec, 30, 0, 0, 91, 6000, &v);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n + 8, &t, &ev) == 0);
    CHECK(reader_scalar_event(rd, rec, (uint32_t)n - 8, &t, &ev) == 0);
    CHECK(reader_scalar_event(rd, rec, DAPTO_RECORD_HEADER - 8, &t, &ev) == 0);
}

int main(void)
{
    test_text();
    reg = registry_create();
    memset(&clk, 0, sizeof clk);
    clk.start_ns = 1000;
    rd = reader_create(reg, &clk, 4);

    test_aspect();
    test_same_names();
    test_bad_aspects();
    test_values();
    test_bad_values();
    test_runtime_records();
    test_scalar_events();

    reader_free(rd);
    registry_free(reg);
    return unit_done("test-reader");
}
