/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * registry.c - aspects, events and operations of the monitored program,
 * parsed from the descriptions it posts <protocol#iface>.  The program is
 * untrusted: counts are checked against the bytes that could hold them,
 * codes against the ranges already taken, kinds against the known set.
 * Lookups by code are direct; lookups by name scan (they are rare: the
 * hot path decodes by code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "decode.h"
#include "protocol.h"
#include "registry.h"
#include "xmalloc.h"

struct registry {
    struct registry_aspect **aspects;
    unsigned int naspects;
    struct registry_event **events; /* by code */
    unsigned int nevents;           /* entries in events[] */
    struct registry_op **ops;       /* by code */
    unsigned int nops;
};

/* Smallest encoding of one event and one operation in a description,
 * used to refuse counts that the bytes could not hold. */
#define REGISTRY_MIN_EVENT (6 + 6 + 5 + 9 + 5)
#define REGISTRY_MIN_OP (6 + 6 + 6 + 5 + 5)
#define REGISTRY_MIN_PARAM (6 + 6 + 5 + 6)
#define REGISTRY_MAX_PARAMS 255

struct registry *registry_create(void)
{
    return xcalloc(1, sizeof(struct registry));
}

static void registry_free_params(struct registry_param *p, unsigned int n)
{
    for (unsigned int i = 0; i < n; i++) {
        free(p[i].name);
        free(p[i].type);
        free(p[i].doc);
    }
    free(p);
}

static void registry_free_aspect(struct registry_aspect *a)
{
    if (a == NULL)
        return;
    free(a->desc);
    for (unsigned int i = 0; i < a->nevents; i++) {
        free(a->events[i].name);
        free(a->events[i].doc);
        free(a->events[i].role_format);
        registry_free_params(a->events[i].params, a->events[i].nparams);
    }
    for (unsigned int i = 0; i < a->nops; i++) {
        free(a->ops[i].name);
        free(a->ops[i].doc);
        free(a->ops[i].result_type);
        registry_free_params(a->ops[i].params, a->ops[i].nparams);
    }
    free(a->events);
    free(a->ops);
    free(a->name);
    free(a->file);
    free(a);
}

void registry_free(struct registry *reg)
{
    if (reg == NULL)
        return;
    for (unsigned int i = 0; i < reg->naspects; i++)
        registry_free_aspect(reg->aspects[i]);
    free(reg->aspects);
    free(reg->events);
    free(reg->ops);
    free(reg);
}

/* Read a string field into a new allocation; names (IS_NAME 1) must be
 * non-empty and printable without blanks, and so must types (IS_NAME 2)
 * but for single blanks inside ptr<...> (a C type: "ptr<struct node>");
 * docs may be empty. */
static int registry_str(struct decode_cursor *c, char **out, const char *what,
                        int is_name, char **cause)
{
    struct decode_value v;

    if (decode_expect(c, DAPTO_K_STR, &v, what, cause) != 0)
        return -1;
    if (is_name) {
        if (v.len == 0) {
            xcause(cause, "%s is empty", what);
            return -1;
        }
        int ctype = is_name == 2 && v.len > 5 &&
                    strncmp(v.s, "ptr<", 4) == 0 && v.s[v.len - 1] == '>';

        for (uint32_t i = 0; i < v.len; i++) {
            unsigned char ch = (unsigned char)v.s[i];
            if ((ch <= ' ' || ch == 0x7f) &&
                !(ctype && ch == ' ' && v.s[i - 1] != ' ')) {
                xcause(cause, "%s contains a blank or control character",
                       what);
                return -1;
            }
        }
    } else if (strlen(v.s) != v.len) {
        xcause(cause, "%s contains a NUL", what);
        return -1;
    }
    *out = xstrndup(v.s, v.len);
    return 0;
}

static int registry_int(struct decode_cursor *c, int32_t *out,
                        const char *what, char **cause)
{
    struct decode_value v;

    if (decode_expect(c, DAPTO_K_INT, &v, what, cause) != 0)
        return -1;
    *out = v.u.i;
    return 0;
}

/* Whether KIND may describe a parameter (or, with RESULT, a result). */
static int registry_kind_ok(int32_t kind, int result)
{
    switch (kind) {
    case 0:
        return result;
    case DAPTO_K_INT:
    case DAPTO_K_LONG:
    case DAPTO_K_DOUBLE:
    case DAPTO_K_STR:
    case DAPTO_K_PTR:
    case DAPTO_K_UNKNOWN:
    case DAPTO_K_USER:
        return 1;
    }
    return 0;
}

static int registry_params(struct decode_cursor *c, const char *owner,
                           struct registry_param **out, unsigned int *nout,
                           char **cause)
{
    int32_t n, kind;
    struct registry_param *p = NULL;
    unsigned int have = 0;
    char what[160];

    snprintf(what, sizeof what, "%s: parameter count", owner);
    if (registry_int(c, &n, what, cause) != 0)
        return -1;
    if (n < 0 || n > REGISTRY_MAX_PARAMS ||
        (size_t)n * REGISTRY_MIN_PARAM > c->end - c->off) {
        xcause(cause, "%s: bad parameter count %d (%zu bytes left)", owner,
               (int)n, c->end - c->off);
        return -1;
    }
    p = xcalloc((size_t)n + 1, sizeof *p);
    for (have = 0; have < (unsigned int)n; have++) {
        struct registry_param *q = &p[have];

        snprintf(what, sizeof what, "%s: parameter %u name", owner, have + 1);
        if (registry_str(c, &q->name, what, 1, cause) != 0)
            goto bad;
        snprintf(what, sizeof what, "%s: parameter %s type", owner, q->name);
        if (registry_str(c, &q->type, what, 2, cause) != 0)
            goto bad;
        snprintf(what, sizeof what, "%s: parameter %s kind", owner, q->name);
        if (registry_int(c, &kind, what, cause) != 0)
            goto bad;
        if (!registry_kind_ok(kind, 0)) {
            xcause(cause, "%s: parameter %s has bad kind %d", owner, q->name,
                   (int)kind);
            goto bad;
        }
        q->kind = (unsigned char)kind;
        snprintf(what, sizeof what, "%s: parameter %s doc", owner, q->name);
        if (registry_str(c, &q->doc, what, 0, cause) != 0)
            goto bad;
        for (unsigned int j = 0; j < have; j++) {
            if (strcmp(p[j].name, q->name) == 0) {
                xcause(cause, "%s: parameter %s declared twice", owner,
                       q->name);
                have++;
                goto bad;
            }
        }
    }
    *out = p;
    *nout = have;
    return 0;

bad:
    registry_free_params(p, have + 1);
    return -1;
}

void registry_event_kinds(struct registry_event *e)
{
    e->scalar = 1;
    e->scalar_len = 0;
    for (unsigned int j = 0; j < e->nparams; j++) {
        unsigned char k = e->params[j].kind;

        if (k == DAPTO_K_INT)
            e->scalar_len += 5;
        else if (k == DAPTO_K_LONG || k == DAPTO_K_DOUBLE || k == DAPTO_K_PTR)
            e->scalar_len += 9;
        else
            e->scalar = 0;
    }
}

static int registry_parse_event(struct decode_cursor *c,
                                struct registry_aspect *a, unsigned int i,
                                char **cause)
{
    struct registry_event *e = &a->events[i];
    struct decode_value v;
    int32_t visible;
    char what[160];

    e->code = a->event_base + i;
    e->aspect = a;
    snprintf(what, sizeof what, "aspect %s: event %u name", a->name, i + 1);
    if (registry_str(c, &e->name, what, 1, cause) != 0)
        return -1;
    snprintf(what, sizeof what, "aspect %s: event %s", a->name, e->name);
    if (registry_str(c, &e->doc, what, 0, cause) != 0)
        return -1;
    if (registry_int(c, &visible, what, cause) != 0)
        return -1;
    if (visible != 0 && visible != 1) {
        xcause(cause, "%s: bad visibility %d", what, (int)visible);
        return -1;
    }
    e->visible = visible;
    if (decode_expect(c, DAPTO_K_PTR, &v, what, cause) != 0)
        return -1;
    if (v.u.p == 0) {
        xcause(cause, "%s: state byte address is 0", what);
        return -1;
    }
    e->state_addr = v.u.p;
    if (registry_params(c, what, &e->params, &e->nparams, cause) != 0)
        return -1;
    registry_event_kinds(e);
    return 0;
}

static int registry_parse_op(struct decode_cursor *c,
                             struct registry_aspect *a, unsigned int i,
                             char **cause)
{
    struct registry_op *o = &a->ops[i];
    struct decode_value v;
    int32_t kind;
    char what[160];

    o->code = a->op_base + i;
    o->aspect = a;
    snprintf(what, sizeof what, "aspect %s: operation %u name", a->name,
             i + 1);
    if (registry_str(c, &o->name, what, 1, cause) != 0)
        return -1;
    snprintf(what, sizeof what, "aspect %s: operation %s", a->name, o->name);
    if (registry_str(c, &o->doc, what, 0, cause) != 0)
        return -1;
    if (decode_expect(c, DAPTO_K_STR, &v, what, cause) != 0)
        return -1;
    o->result_type = xstrndup(v.s, v.len);
    if (registry_int(c, &kind, what, cause) != 0)
        return -1;
    if (!registry_kind_ok(kind, 1) || (kind == 0) != (v.len == 0)) {
        xcause(cause, "%s: bad result kind %d for result type \"%s\"", what,
               (int)kind, o->result_type);
        return -1;
    }
    o->result_kind = (unsigned char)kind;
    return registry_params(c, what, &o->params, &o->nparams, cause);
}

/* Parse a whole description; the aspect is not yet in the registry. */
static struct registry_aspect *registry_parse(const void *buf, size_t len,
                                              char **cause)
{
    struct decode_cursor c;
    struct registry_aspect *a = xcalloc(1, sizeof *a);
    int32_t abi, ebase, nev, obase, nop;
    unsigned int i;

    decode_init(&c, buf, len);
    if (registry_str(&c, &a->name, "aspect name", 1, cause) != 0)
        goto bad;
    if (registry_str(&c, &a->file, "aspect file", 0, cause) != 0)
        goto bad;
    if (registry_int(&c, &abi, "aspect abi", cause) != 0 ||
        registry_int(&c, &ebase, "aspect event base", cause) != 0 ||
        registry_int(&c, &nev, "aspect event count", cause) != 0 ||
        registry_int(&c, &obase, "aspect operation base", cause) != 0 ||
        registry_int(&c, &nop, "aspect operation count", cause) != 0) {
        char *why = cause != NULL ? *cause : NULL;
        if (cause != NULL)
            *cause = NULL;
        xcause(cause, "aspect %s: %s", a->name, why != NULL ? why : "");
        free(why);
        goto bad;
    }
    if (abi != DAPTO_ABI_VERSION) {
        xcause(cause, "aspect %s: abi %d, expected %d", a->name, (int)abi,
               DAPTO_ABI_VERSION);
        goto bad;
    }
    if (nev < 0 || ebase < 0 || ebase > DAPTO_EVENT_CODE_MAX ||
        nev > DAPTO_EVENT_CODE_MAX + 1 - ebase ||
        (size_t)nev * REGISTRY_MIN_EVENT > c.end - c.off) {
        xcause(cause, "aspect %s: bad events (base %d, count %d)", a->name,
               (int)ebase, (int)nev);
        goto bad;
    }
    if (nop < 0 || obase < 0 || obase > 0xffff || nop > 0x10000 - obase ||
        (size_t)nop * REGISTRY_MIN_OP > c.end - c.off) {
        xcause(cause, "aspect %s: bad operations (base %d, count %d)",
               a->name, (int)obase, (int)nop);
        goto bad;
    }
    a->abi = (unsigned int)abi;
    a->event_base = (unsigned int)ebase;
    a->op_base = (unsigned int)obase;
    a->events = xcalloc((size_t)nev + 1, sizeof *a->events);
    a->ops = xcalloc((size_t)nop + 1, sizeof *a->ops);
    for (i = 0; i < (unsigned int)nev; i++) {
        a->nevents = i + 1;
        if (registry_parse_event(&c, a, i, cause) != 0)
            goto bad;
        for (unsigned int j = 0; j < i; j++) {
            if (strcmp(a->events[j].name, a->events[i].name) == 0) {
                xcause(cause, "aspect %s: event %s declared twice", a->name,
                       a->events[i].name);
                goto bad;
            }
        }
    }
    for (i = 0; i < (unsigned int)nop; i++) {
        a->nops = i + 1;
        if (registry_parse_op(&c, a, i, cause) != 0)
            goto bad;
        for (unsigned int j = 0; j < i; j++) {
            if (strcmp(a->ops[j].name, a->ops[i].name) == 0) {
                xcause(cause, "aspect %s: operation %s declared twice",
                       a->name, a->ops[i].name);
                goto bad;
            }
        }
    }
    if (!decode_at_end(&c)) {
        xcause(cause, "aspect %s: %zu bytes after the description", a->name,
               c.end - c.off);
        goto bad;
    }
    return a;

bad:
    registry_free_aspect(a);
    return NULL;
}

struct registry_aspect *registry_add(struct registry *reg, const void *buf,
                                     size_t len, char **cause)
{
    struct registry_aspect *a = registry_parse(buf, len, cause);
    unsigned int elim, olim;

    if (a == NULL)
        return NULL;
    for (unsigned int i = 0; i < reg->naspects; i++) {
        if (strcmp(reg->aspects[i]->name, a->name) == 0) {
            xcause(cause, "aspect %s registered twice", a->name);
            goto bad;
        }
    }
    for (unsigned int i = 0; i < a->nevents; i++) {
        unsigned int code = a->event_base + i;
        if (code < reg->nevents && reg->events[code] != NULL) {
            xcause(cause, "aspect %s: event code %u is already taken by %s",
                   a->name, code, reg->events[code]->name);
            goto bad;
        }
    }
    for (unsigned int i = 0; i < a->nops; i++) {
        unsigned int code = a->op_base + i;
        if (code < reg->nops && reg->ops[code] != NULL) {
            xcause(cause, "aspect %s: operation code %u is already taken by %s",
                   a->name, code, reg->ops[code]->name);
            goto bad;
        }
    }

    elim = a->event_base + a->nevents;
    if (elim > reg->nevents) {
        reg->events = xreallocarray(reg->events, elim, sizeof *reg->events);
        memset(reg->events + reg->nevents, 0,
               (elim - reg->nevents) * sizeof *reg->events);
        reg->nevents = elim;
    }
    olim = a->op_base + a->nops;
    if (olim > reg->nops) {
        reg->ops = xreallocarray(reg->ops, olim, sizeof *reg->ops);
        memset(reg->ops + reg->nops, 0, (olim - reg->nops) * sizeof *reg->ops);
        reg->nops = olim;
    }
    for (unsigned int i = 0; i < a->nevents; i++)
        reg->events[a->event_base + i] = &a->events[i];
    for (unsigned int i = 0; i < a->nops; i++)
        reg->ops[a->op_base + i] = &a->ops[i];
    reg->aspects = xreallocarray(reg->aspects, reg->naspects + 1,
                                 sizeof *reg->aspects);
    reg->aspects[reg->naspects++] = a;
    a->index = reg->naspects;
    a->desc = xmalloc(len);
    memcpy(a->desc, buf, len);
    a->desc_len = len;
    return a;

bad:
    registry_free_aspect(a);
    return NULL;
}

unsigned int registry_naspects(const struct registry *reg)
{
    return reg->naspects;
}

struct registry_aspect *registry_aspect_at(const struct registry *reg,
                                           unsigned int i)
{
    return i < reg->naspects ? reg->aspects[i] : NULL;
}

struct registry_aspect *registry_aspect_by_name(const struct registry *reg,
                                                const char *name)
{
    for (unsigned int i = 0; i < reg->naspects; i++) {
        if (strcmp(reg->aspects[i]->name, name) == 0)
            return reg->aspects[i];
    }
    return NULL;
}

struct registry_event *registry_event(const struct registry *reg,
                                      unsigned int code)
{
    return code < reg->nevents ? reg->events[code] : NULL;
}

unsigned int registry_event_limit(const struct registry *reg)
{
    return reg->nevents;
}

/* Split "ASPECT.NAME"; returns the aspect (or NULL) and the plain name. */
static const char *registry_split(const struct registry *reg, const char *name,
                                  struct registry_aspect **aspect)
{
    const char *dot = strchr(name, '.');

    *aspect = NULL;
    if (dot == NULL)
        return name;
    for (unsigned int i = 0; i < reg->naspects; i++) {
        const char *an = reg->aspects[i]->name;
        if (strlen(an) == (size_t)(dot - name) &&
            strncmp(an, name, (size_t)(dot - name)) == 0) {
            *aspect = reg->aspects[i];
            return dot + 1;
        }
    }
    return name;
}

struct registry_event *registry_event_by_name(const struct registry *reg,
                                              const char *name)
{
    struct registry_aspect *only;
    const char *plain = registry_split(reg, name, &only);

    for (unsigned int i = 0; i < reg->naspects; i++) {
        struct registry_aspect *a = reg->aspects[i];
        if (only != NULL && a != only)
            continue;
        for (unsigned int j = 0; j < a->nevents; j++) {
            if (strcmp(a->events[j].name, plain) == 0)
                return &a->events[j];
        }
    }
    return NULL;
}

void registry_param_set(struct registry_param *p, const char *name,
                        const char *type, unsigned char kind)
{
    if (name != NULL && strcmp(name, p->name) != 0) {
        free(p->name);
        p->name = xstrdup(name);
    }
    if (type != NULL && strcmp(type, p->type) != 0) {
        free(p->type);
        p->type = xstrdup(type);
    }
    if (kind != 0)
        p->kind = kind;
}

void registry_event_role(struct registry_event *ev, int role,
                         const char *format)
{
    free(ev->role_format);
    ev->role_format = role != 0 && format != NULL ? xstrdup(format) : NULL;
    ev->role = ev->role_format != NULL ? (unsigned char)role : 0;
}

struct registry_op *registry_op(const struct registry *reg, unsigned int code)
{
    return code < reg->nops ? reg->ops[code] : NULL;
}

struct registry_op *registry_op_by_name(const struct registry *reg,
                                        const char *name)
{
    struct registry_aspect *only;
    const char *plain = registry_split(reg, name, &only);

    for (unsigned int i = 0; i < reg->naspects; i++) {
        struct registry_aspect *a = reg->aspects[i];
        if (only != NULL && a != only)
            continue;
        for (unsigned int j = 0; j < a->nops; j++) {
            if (strcmp(a->ops[j].name, plain) == 0)
                return &a->ops[j];
        }
    }
    return NULL;
}

int registry_event_named(const struct registry_event *ev, const char *name)
{
    const char *dot = strchr(name, '.');

    if (dot == NULL)
        return strcmp(name, ev->name) == 0;
    return strcmp(dot + 1, ev->name) == 0 &&
           strlen(ev->aspect->name) == (size_t)(dot - name) &&
           strncmp(name, ev->aspect->name, (size_t)(dot - name)) == 0;
}
