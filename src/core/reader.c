/* SPDX-License-Identifier: MIT */
/*
 * reader.c - validating and decoding one record <protocol#record>.  The
 * record came from an untrusted program: its header fields, every value's
 * tag and length, string NULs, intern ids and mailbox indexes are all
 * checked before they are used, and the message of a failure names the
 * record's code and the byte.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "protocol.h"
#include "reader.h"
#include "xmalloc.h"

/* Intern ids beyond this are refused (the runtime's table has 4096). */
#define READER_MAX_INTERN (1u << 16)

struct reader_intern {
    char *text;
    uint32_t len;
};

struct reader {
    struct registry *reg;
    const struct clock *clock;
    unsigned int mbox_count;

    struct reader_intern *interns;
    uint32_t ninterns;
    /* Texts an id stood for before it was interned again: kept, since
     * consumers may know names by their address (reader.h). */
    char **retired;
    size_t nretired, retired_cap;

    struct decode_value *values;
    unsigned int avalues;
    char *message;
    unsigned char *desc; /* private copy of an aspect description */
};

struct reader *reader_create(struct registry *reg, const struct clock *clock,
                             unsigned int mbox_count)
{
    struct reader *r = xcalloc(1, sizeof *r);

    r->reg = reg;
    r->clock = clock;
    r->mbox_count = mbox_count;
    return r;
}

void reader_free(struct reader *r)
{
    if (r == NULL)
        return;
    for (uint32_t i = 0; i < r->ninterns; i++)
        free(r->interns[i].text);
    free(r->interns);
    for (size_t i = 0; i < r->nretired; i++)
        free(r->retired[i]);
    free(r->retired);
    free(r->values);
    free(r->message);
    free(r->desc);
    free(r);
}

const char *reader_intern(const struct reader *r, uint32_t id)
{
    if (id >= r->ninterns)
        return NULL;
    return r->interns[id].text;
}

int reader_named(const struct reader *r, const unsigned char *rec,
                 const struct reader_time *t, struct reader_fn *fn)
{
    const struct dapto_record *h = (const struct dapto_record *)(const void *)rec;
    uint16_t code, flags;
    uint32_t len, tid, id;
    uint64_t time;

    __builtin_memcpy(&code, &h->code, 2);
    __builtin_memcpy(&flags, &h->flags, 2);
    __builtin_memcpy(&len, &h->len, 4);
    if ((code != DAPTO_EV_ENTER && code != DAPTO_EV_LEAVE) || flags != 0 ||
        len != READER_NAMED_LEN || rec[DAPTO_RECORD_HEADER] != DAPTO_K_ISTR)
        return 0;
    __builtin_memcpy(&id, rec + DAPTO_RECORD_HEADER + 1, 4);
    if (id >= r->ninterns || r->interns[id].text == NULL)
        return 0;
    __builtin_memcpy(&tid, &h->tid, 4);
    __builtin_memcpy(&time, &h->time, 8);
    fn->function = 0;
    fn->name = r->interns[id].text;
    fn->len = r->interns[id].len;
    fn->ns = reader_time_ns(t, time);
    fn->tid = (pid_t)tid;
    fn->enter = code == DAPTO_EV_ENTER;
    return 1;
}

static const char *reader_code_name(const struct reader *r, unsigned int code,
                                    char *buf, size_t size)
{
    const struct registry_event *e = registry_event(r->reg, code);

    switch (code) {
    case DAPTO_REC_HELLO:
        return "HELLO";
    case DAPTO_REC_ASPECT:
        return "ASPECT";
    case DAPTO_REC_INTERN:
        return "INTERN";
    case DAPTO_REC_LOST:
        return "LOST";
    case DAPTO_REC_FNENTER:
        return "FNENTER";
    case DAPTO_REC_FNLEAVE:
        return "FNLEAVE";
    }
    if (e != NULL)
        snprintf(buf, size, "%u (%s)", code, e->name);
    else
        snprintf(buf, size, "%u", code);
    return buf;
}

/* Make *item a protocol error about the record with CODE. */
static void reader_error(struct reader *r, struct reader_item *item,
                         unsigned int code, const char *why)
{
    char buf[96];

    free(r->message);
    r->message = xasprintf("protocol error: record %s: %s",
                           reader_code_name(r, code, buf, sizeof buf), why);
    item->kind = READER_ERROR;
    item->message = r->message;
}

static struct decode_value *reader_values(struct reader *r, unsigned int n)
{
    if (n > r->avalues) {
        r->avalues = n < 16 ? 16 : n;
        r->values = xreallocarray(r->values, r->avalues, sizeof *r->values);
    }
    return r->values;
}

/* Replace an interned string by its text. */
static int reader_resolve(struct reader *r, struct decode_value *v,
                          size_t off, char **cause)
{
    const char *s;

    if (v->kind != DAPTO_K_ISTR)
        return 0;
    s = reader_intern(r, v->u.id);
    if (s == NULL) {
        xcause(cause, "unknown intern id %u at byte %zu", v->u.id, off);
        return -1;
    }
    v->kind = DAPTO_K_STR;
    v->interned = 1;
    v->s = s;
    v->len = r->interns[v->u.id].len;
    return 0;
}

int reader_check_kind(unsigned char declared, const struct decode_value *v)
{
    switch (declared) {
    case DAPTO_K_USER:
        /* a user type travels as whatever its macro appends */
        return v->kind != DAPTO_K_ISTR && v->kind != DAPTO_K_USER;
    case DAPTO_K_STR:
        return v->kind == DAPTO_K_STR || v->kind == DAPTO_K_ISTR;
    case DAPTO_K_UNKNOWN:
        return v->kind == DAPTO_K_UNKNOWN;
    default:
        return v->kind == declared || v->kind == DAPTO_K_UNKNOWN;
    }
}

/* Decode exactly the values of SPEC (kinds, or any when NULL) into
 * r->values; 0 or -1 with *cause. */
static int reader_fixed(struct reader *r, struct decode_cursor *c,
                        const unsigned char *kinds, unsigned int n,
                        char **cause)
{
    struct decode_value *v = reader_values(r, n);

    for (unsigned int i = 0; i < n; i++) {
        size_t off = c->off;
        if (decode_value(c, &v[i], cause) != 0)
            return -1;
        if (v[i].kind != kinds[i]) {
            xcause(cause, "value %u at byte %zu: expected %s, found %s", i + 1,
                   off, decode_kind_name(kinds[i]),
                   decode_kind_name(v[i].kind));
            return -1;
        }
    }
    if (!decode_at_end(c)) {
        xcause(cause, "%zu bytes after the last value", c->end - c->off);
        return -1;
    }
    return 0;
}

static void reader_event(struct reader *r, const struct dapto_record *h,
                         struct decode_cursor *c, struct reader_item *item)
{
    const struct registry_event *e = registry_event(r->reg, h->code);
    struct decode_value *v;
    char *why = NULL;
    unsigned int n = 0;

    if (e == NULL) {
        reader_error(r, item, h->code, "no aspect declares this event code");
        return;
    }
    v = reader_values(r, e->nparams);
    while (!decode_at_end(c)) {
        size_t off = c->off;
        if (n == e->nparams) {
            xcause(&why, "%zu bytes after the %u declared values",
                   c->end - c->off, e->nparams);
            goto bad;
        }
        if (decode_value(c, &v[n], &why) != 0)
            goto bad;
        if (!reader_check_kind(e->params[n].kind, &v[n])) {
            xcause(&why, "parameter %s at byte %zu: expected %s, found %s",
                   e->params[n].name, off,
                   decode_kind_name(e->params[n].kind),
                   decode_kind_name(v[n].kind));
            goto bad;
        }
        if (reader_resolve(r, &v[n], off, &why) != 0)
            goto bad;
        n++;
    }
    if (n < e->nparams && !(h->flags & DAPTO_RECF_TRUNC)) {
        xcause(&why, "%u of %u values", n, e->nparams);
        goto bad;
    }
    item->kind = READER_EVENT;
    item->event = e;
    item->nvalues = n;
    item->values = v;
    item->truncated = (h->flags & DAPTO_RECF_TRUNC) != 0;
    item->filtered = (h->flags & DAPTO_RECF_FILTERED) != 0;
    item->clauses = item->filtered
                        ? (uint32_t)(h->flags >> DAPTO_RECF_CLAUSE_SHIFT) &
                              ((1u << DAPTO_FILTER_CLAUSES) - 1)
                        : 0;
    return;

bad:
    reader_error(r, item, h->code, why);
    free(why);
}

static void reader_aspect(struct reader *r, const struct dapto_record *h,
                          struct decode_cursor *c, const void *iface,
                          size_t iface_used, struct reader_item *item)
{
    static const unsigned char kinds[2] = {DAPTO_K_INT, DAPTO_K_INT};
    char *why = NULL;
    uint32_t off, len;

    if (reader_fixed(r, c, kinds, 2, &why) != 0)
        goto bad;
    off = (uint32_t)r->values[0].u.i;
    len = (uint32_t)r->values[1].u.i;
    if (off > iface_used || len > iface_used - off || len == 0) {
        xcause(&why, "description at %u, %u bytes, is outside the %zu bytes "
               "of the interface area", off, len, iface_used);
        goto bad;
    }
    /* Copy first: the program could change the area under our feet. */
    free(r->desc);
    r->desc = xmalloc(len);
    memcpy(r->desc, (const unsigned char *)iface + off, len);
    item->aspect = registry_add(r->reg, r->desc, len, &why);
    if (item->aspect == NULL)
        goto bad;
    item->kind = READER_ASPECT;
    return;

bad:
    reader_error(r, item, h->code, why);
    free(why);
}

static void reader_intern_rec(struct reader *r, const struct dapto_record *h,
                              struct decode_cursor *c,
                              struct reader_item *item)
{
    static const unsigned char kinds[2] = {DAPTO_K_INT, DAPTO_K_STR};
    char *why = NULL;
    uint32_t id;

    if (reader_fixed(r, c, kinds, 2, &why) != 0)
        goto bad;
    id = (uint32_t)r->values[0].u.i;
    if (id >= READER_MAX_INTERN) {
        xcause(&why, "intern id %u is too large", id);
        goto bad;
    }
    if (id >= r->ninterns) {
        r->interns = xreallocarray(r->interns, id + 1, sizeof *r->interns);
        memset(r->interns + r->ninterns, 0,
               (id + 1 - r->ninterns) * sizeof *r->interns);
        r->ninterns = id + 1;
    }
    /* (the runtime interns an id once; another program may not) */
    if (r->interns[id].text == NULL || r->interns[id].len != r->values[1].len ||
        memcmp(r->interns[id].text, r->values[1].s, r->values[1].len) != 0) {
        if (r->interns[id].text != NULL) {
            r->retired = xgrow(r->retired, r->nretired, &r->retired_cap,
                               sizeof *r->retired);
            r->retired[r->nretired++] = r->interns[id].text;
        }
        r->interns[id].text = xstrndup(r->values[1].s, r->values[1].len);
        r->interns[id].len = r->values[1].len;
    }
    item->kind = READER_NONE;
    return;

bad:
    reader_error(r, item, h->code, why);
    free(why);
}

int reader_scalar_event(const struct reader *r, const unsigned char *rec,
                        uint32_t size, const struct reader_time *t,
                        struct reader_scalar *ev)
{
    const struct dapto_record *h = (const struct dapto_record *)(const void *)rec;
    const struct registry_event *e;
    uint16_t code, flags;
    uint32_t len, tid, off = 0;
    uint64_t time;

    if (size < DAPTO_RECORD_HEADER)
        return 0;
    /* (each field read once: the program may be writing them) */
    __builtin_memcpy(&code, &h->code, 2);
    __builtin_memcpy(&flags, &h->flags, 2);
    __builtin_memcpy(&len, &h->len, 4);
    if (code > DAPTO_EVENT_CODE_MAX || flags != 0 ||
        len > size - DAPTO_RECORD_HEADER ||
        ((DAPTO_RECORD_HEADER + (size_t)len + 7) & ~(size_t)7) != size ||
        (e = registry_event(r->reg, code)) == NULL || !e->scalar ||
        len != e->scalar_len)
        return 0;
    /* (len is the values' length by the declaration: each tag is in
     * the record) */
    for (unsigned int i = 0; i < e->nparams; i++) {
        unsigned char k = e->params[i].kind;

        if (rec[DAPTO_RECORD_HEADER + off] != k)
            return 0;
        off += k == DAPTO_K_INT ? 5 : 9;
    }
    __builtin_memcpy(&tid, &h->tid, 4);
    __builtin_memcpy(&time, &h->time, 8);
    ev->event = e;
    ev->values = rec + DAPTO_RECORD_HEADER;
    ev->len = len;
    ev->ns = reader_time_ns(t, time);
    ev->tid = (pid_t)tid;
    return 1;
}

void reader_record(struct reader *r, const void *rec, size_t size,
                   const void *iface, size_t iface_used,
                   struct reader_item *item)
{
    struct dapto_record h;
    struct decode_cursor c;
    char *why = NULL;

    if (size == READER_FN_SIZE) {
        /* The most frequent record of auto-instrumented programs, in its
         * only valid form: read it without the general decoder, into the
         * same item the general way makes (every field set). */
        const unsigned char *b = rec;

        memcpy(&h, rec, sizeof h);
        if ((h.code == DAPTO_REC_FNENTER || h.code == DAPTO_REC_FNLEAVE) &&
            h.flags == 0 && h.len == READER_FN_LEN &&
            b[DAPTO_RECORD_HEADER] == DAPTO_K_PTR &&
            b[DAPTO_RECORD_HEADER + 9] == DAPTO_K_PTR) {
            item->kind = READER_FUNCTION;
            item->code = h.code;
            item->tid = (pid_t)h.tid;
            item->ns = clock_ns(r->clock, h.time);
            item->stop = -1;
            item->event = NULL;
            item->nvalues = 0;
            item->values = NULL;
            item->truncated = 0;
            item->filtered = 0;
            item->clauses = 0;
            item->pid = 0;
            item->ring_mode = 0;
            item->aspect = NULL;
            item->lost = 0;
            memcpy(&item->function, b + DAPTO_RECORD_HEADER + 1, 8);
            memcpy(&item->call_site, b + DAPTO_RECORD_HEADER + 10, 8);
            item->enter = h.code == DAPTO_REC_FNENTER;
            item->message = NULL;
            return;
        }
    }
    memset(item, 0, sizeof *item);
    item->stop = -1;
    if (size < DAPTO_RECORD_HEADER) {
        free(r->message);
        r->message = xasprintf("protocol error: a record of %zu bytes is "
                               "shorter than its header", size);
        item->kind = READER_ERROR;
        item->message = r->message;
        return;
    }
    memcpy(&h, rec, sizeof h);
    item->code = h.code;
    item->tid = (pid_t)h.tid;
    item->ns = clock_ns(r->clock, h.time);
    if (h.flags & DAPTO_RECF_STOP) {
        if (h.aux >= r->mbox_count) {
            xcause(&why, "stop mailbox %u does not exist (%u mailboxes)",
                   h.aux, r->mbox_count);
            goto bad;
        }
        item->stop = (int)h.aux;
    }
    if (h.len > size - DAPTO_RECORD_HEADER ||
        ((DAPTO_RECORD_HEADER + (size_t)h.len + 7) & ~(size_t)7) != size) {
        xcause(&why, "%u bytes of values do not fit a record of %zu bytes",
               h.len, size);
        goto bad;
    }
    /* <protocol#filter>: clause bits only with FILTERED */
    if ((h.flags & ~(DAPTO_RECF_STOP | DAPTO_RECF_TRUNC | DAPTO_RECF_FILTERED |
                     (((1u << DAPTO_FILTER_CLAUSES) - 1)
                      << DAPTO_RECF_CLAUSE_SHIFT))) != 0 ||
        (!(h.flags & DAPTO_RECF_FILTERED) &&
         (h.flags >> DAPTO_RECF_CLAUSE_SHIFT) != 0)) {
        xcause(&why, "unknown flags 0x%x", h.flags);
        goto bad;
    }
    decode_init(&c, (const unsigned char *)rec + DAPTO_RECORD_HEADER, h.len);

    if (h.code <= DAPTO_EVENT_CODE_MAX) {
        reader_event(r, &h, &c, item);
        return;
    }
    if ((h.flags & DAPTO_RECF_STOP) && h.code != DAPTO_REC_FNENTER &&
        h.code != DAPTO_REC_FNLEAVE) {
        xcause(&why, "only events and function records may stop");
        goto bad;
    }
    switch (h.code) {
    case DAPTO_REC_HELLO: {
        static const unsigned char kinds[2] = {DAPTO_K_INT, DAPTO_K_INT};
        if (reader_fixed(r, &c, kinds, 2, &why) != 0)
            goto bad;
        item->kind = READER_HELLO;
        item->pid = r->values[0].u.i;
        item->ring_mode = r->values[1].u.i;
        return;
    }
    case DAPTO_REC_ASPECT:
        reader_aspect(r, &h, &c, iface, iface_used, item);
        return;
    case DAPTO_REC_INTERN:
        reader_intern_rec(r, &h, &c, item);
        return;
    case DAPTO_REC_LOST: {
        static const unsigned char kinds[1] = {DAPTO_K_LONG};
        if (reader_fixed(r, &c, kinds, 1, &why) != 0)
            goto bad;
        item->kind = READER_LOST;
        item->lost = (uint64_t)r->values[0].u.l;
        return;
    }
    case DAPTO_REC_FNENTER:
    case DAPTO_REC_FNLEAVE: {
        static const unsigned char kinds[2] = {DAPTO_K_PTR, DAPTO_K_PTR};
        if (reader_fixed(r, &c, kinds, 2, &why) != 0)
            goto bad;
        item->kind = READER_FUNCTION;
        item->function = r->values[0].u.p;
        item->call_site = r->values[1].u.p;
        item->enter = h.code == DAPTO_REC_FNENTER;
        return;
    }
    }
    if (h.code >= DAPTO_REC_FIRST) {
        /* a record kind of a newer minor version: skipped by its size */
        item->kind = READER_NONE;
        return;
    }
    xcause(&why, "code %u is neither an event nor a runtime record", h.code);

bad:
    reader_error(r, item, h.code, why);
    free(why);
}
