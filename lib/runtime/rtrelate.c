/* SPDX-License-Identifier: MIT */
/*
 * rtrelate.c - relations in the program <protocol#relate>: the thread's
 * component stack and the derived events detected on it.  See
 * rtrelate.h.
 *
 * A frame is pushed at an enter and popped at its leave.  A frame of a
 * component (a name the monitor listed) counts in the thread's mask,
 * which is what a filter's DAPTO_FOP_WITHIN reads.  A frame that is the
 * A of a `contains` or `calls`, or the C of a `before`, also gets a
 * pending record: its start and what it has seen, judged when it is
 * popped (SmartMonitor's rule: what is kept for an execution goes with
 * it).  Parts that are events come from their clauses (rtrel_part).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "intern.h"
#include "rtfilter.h"
#include "rtrelate.h"
#include "runtime.h"

static struct dapto_rel_area *head(const struct rtrel_env *e)
{
    return (struct dapto_rel_area *)(void *)e->area;
}

int rtrel_env_init(struct rtrel_env *e, unsigned char *area, uint32_t size)
{
    const struct dapto_rel_area *h = (const struct dapto_rel_area *)(const void *)area;
    uint32_t n, slot, tabs, comps, fns, defs;

    e->area = NULL;
    if (area == NULL || size < sizeof *h)
        return -1;
    n = __atomic_load_n(&h->nthreads, __ATOMIC_RELAXED);
    slot = __atomic_load_n(&h->slot_size, __ATOMIC_RELAXED);
    tabs = __atomic_load_n(&h->tabs_off, __ATOMIC_RELAXED);
    comps = __atomic_load_n(&h->comps_off, __ATOMIC_RELAXED);
    fns = __atomic_load_n(&h->fns_off, __ATOMIC_RELAXED);
    defs = __atomic_load_n(&h->defs_off, __ATOMIC_RELAXED);
    if (slot % 64 != 0 || slot < sizeof(struct dapto_rel_thread) || tabs % 64 != 0 ||
        comps % 8 != 0 || fns % 8 != 0 || defs % 8 != 0 || tabs > size ||
        (uint64_t)n * slot > size - tabs ||
        comps < sizeof *h || comps > size ||
        (uint64_t)DAPTO_REL_COMPS * sizeof(struct dapto_rel_comp) > size - comps ||
        fns < sizeof *h || fns > size ||
        (uint64_t)DAPTO_REL_FNS * sizeof(struct dapto_rel_fn) > size - fns ||
        defs < sizeof *h || defs > size ||
        (uint64_t)DAPTO_REL_DERIVED * sizeof(struct dapto_rel_def) > size - defs)
        return -1;
    e->nthreads = n;
    e->slot_size = slot;
    e->tabs_off = tabs;
    e->comps_off = comps;
    e->fns_off = fns;
    e->defs_off = defs;
    e->size = size;
    e->area = area;
    return 0;
}

struct dapto_rel_thread *rtrel_take(const struct rtrel_env *e, uint32_t tid)
{
    struct dapto_rel_area *h = head(e);
    struct dapto_rel_thread *t;
    uint32_t n = __atomic_fetch_add(&h->next, 1, __ATOMIC_RELAXED);

    if (n >= e->nthreads) {
        __atomic_fetch_add(&h->no_slot, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    t = (struct dapto_rel_thread *)(void *)(e->area + e->tabs_off + (size_t)n * e->slot_size);
    /* a slot is never given twice in a process: the memfd's zeros, or
     * what an earlier process of the same image wrote (not this one's) */
    t->tid = tid;
    t->epoch = 0;
    t->gen = 0;
    t->depth = 0;
    t->mask = 0;
    t->npend = 0;
    t->busy = 0;
    return t;
}

/* ---- keeping up with the monitor ---- */

/* Forget the stack: it is of another epoch (or T is new). */
static void reset(struct dapto_rel_thread *t, uint32_t epoch)
{
    unsigned int i;

    t->depth = 0;
    t->mask = 0;
    t->npend = 0;
    t->deep = 0;
    memset(t->count, 0, sizeof t->count);
    memset(t->nb, 0, sizeof t->nb);
    for (i = 0; i < DAPTO_REL_DERIVED; i++)
        t->last[i].has = 0;
    t->epoch = epoch;
    t->gen = 0; /* copies and frames' components again */
}

static const struct dapto_rel_comp *comp_at(const struct rtrel_env *e, unsigned int c)
{
    return (const struct dapto_rel_comp *)(const void *)(e->area + e->comps_off) + c;
}

/* The component of function ADDR, or DAPTO_REL_NONE. */
static unsigned int comp_of_fn(const struct rtrel_env *e, uint64_t addr)
{
    const struct dapto_rel_fn *fns =
        (const struct dapto_rel_fn *)(const void *)(e->area + e->fns_off);
    uint32_t h = (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 54), k, c;
    uint64_t a;

    for (k = 0; k < DAPTO_REL_PROBES; k++) {
        const struct dapto_rel_fn *f = &fns[(h + k) & (DAPTO_REL_FNS - 1)];

        a = __atomic_load_n(&f->addr, __ATOMIC_ACQUIRE);
        if (a == addr) {
            c = __atomic_load_n(&f->comp, __ATOMIC_RELAXED);
            return c < DAPTO_REL_COMPS ? c : DAPTO_REL_NONE;
        }
        if (a == 0)
            break;
    }
    return DAPTO_REL_NONE;
}

/* The component of the named component at NAME, or DAPTO_REL_NONE: T's
 * cache by address, else the components' names. */
static unsigned int comp_of_name(const struct rtrel_env *e, struct dapto_rel_thread *t,
                                 const char *name)
{
    uint64_t key = (uint64_t)(uintptr_t)name;
    unsigned int i = (unsigned int)((key * 0x9e3779b97f4a7c15ull) >> 58), c, found;
    size_t n;

    if (t->names[i].key == key && t->names[i].gen == t->gen)
        return t->names[i].comp < DAPTO_REL_COMPS ? t->names[i].comp : DAPTO_REL_NONE;
    found = DAPTO_REL_NONE;
    n = name != NULL ? strnlen(name, DAPTO_REL_NAME) : DAPTO_REL_NAME;
    for (c = 0; n < DAPTO_REL_NAME && c < DAPTO_REL_COMPS; c++) {
        const struct dapto_rel_comp *p = comp_at(e, c);

        /* <protocol#relate>: len last (release), and a component is
         * never written again once it is there */
        if (__atomic_load_n(&p->len, __ATOMIC_ACQUIRE) == n && n != 0 &&
            memcmp(p->name, name, n) == 0) {
            found = c;
            break;
        }
    }
    t->names[i].key = key;
    t->names[i].gen = t->gen;
    t->names[i].comp = found;
    return found;
}

static unsigned int comp_of(const struct rtrel_env *e, struct dapto_rel_thread *t,
                            const struct dapto_rel_frame *f)
{
    return f->fn ? comp_of_fn(e, f->key) : comp_of_name(e, t, (const char *)(uintptr_t)f->key);
}

/* Drop what T keeps for definition D: its pending records, counts, its
 * last A. */
static void drop_def(struct dapto_rel_thread *t, unsigned int d)
{
    uint32_t i, j = 0, n = t->npend < DAPTO_REL_PENDING ? t->npend : DAPTO_REL_PENDING;

    for (i = 0; i < n; i++) {
        if (t->pend[i].def == d)
            continue;
        if (i != j)
            memcpy(&t->pend[j], &t->pend[i], sizeof t->pend[j]);
        j++;
    }
    t->npend = j;
    t->nb[d] = 0;
    t->last[d].has = 0;
}

/* Whether definition D is sound: a kind, its parts components or events
 * as the kind wants. */
static int def_ok(const struct dapto_rel_def *d)
{
    int comp_a = d->a < DAPTO_REL_COMPS, comp_b = d->b < DAPTO_REL_COMPS;

    if ((!comp_a && d->a != DAPTO_REL_NONE) || (!comp_b && d->b != DAPTO_REL_NONE) ||
        (d->c >= DAPTO_REL_COMPS && d->c != DAPTO_REL_NONE))
        return 0;
    switch (d->kind) {
    case DAPTO_REL_CONTAINS:
    case DAPTO_REL_CALLS:
        return comp_a && d->c == DAPTO_REL_NONE;
    case DAPTO_REL_BEFORE:
        return 1;
    default:
        return 0;
    }
}

/* Copy the definitions of generation GEN into T (0 when the copy is
 * whole, -1 when the monitor wrote meanwhile), drop what T keeps for
 * those that changed, and give every frame kept its component again. */
static int take_defs(const struct rtrel_env *e, struct dapto_rel_thread *t, uint32_t gen)
{
    const struct dapto_rel_def *defs =
        (const struct dapto_rel_def *)(const void *)(e->area + e->defs_off);
    struct dapto_rel_def nd[DAPTO_REL_DERIVED];
    uint32_t i, depth;
    unsigned int c;

    for (i = 0; i < DAPTO_REL_DERIVED; i++) {
        const uint64_t *w = (const uint64_t *)(const void *)&defs[i];
        uint64_t *to = (uint64_t *)(void *)&nd[i];
        unsigned int k;

        for (k = 0; k < sizeof nd[i] / 8; k++)
            to[k] = __atomic_load_n(&w[k], __ATOMIC_RELAXED);
        if (!def_ok(&nd[i]))
            memset(&nd[i], 0, sizeof nd[i]);
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&head(e)->gen, __ATOMIC_RELAXED) != gen)
        return -1;
    memset(t->a_of, 0, sizeof t->a_of);
    memset(t->b_of, 0, sizeof t->b_of);
    memset(t->c_of, 0, sizeof t->c_of);
    for (i = 0; i < DAPTO_REL_DERIVED; i++) {
        if (memcmp(&nd[i], &t->defs[i], sizeof nd[i]) != 0) {
            drop_def(t, i);
            t->defs[i] = nd[i];
        }
        if (nd[i].kind == 0)
            continue;
        if (nd[i].a < DAPTO_REL_COMPS)
            t->a_of[nd[i].a] |= 1u << i;
        if (nd[i].b < DAPTO_REL_COMPS)
            t->b_of[nd[i].b] |= 1u << i;
        if (nd[i].c < DAPTO_REL_COMPS)
            t->c_of[nd[i].c] |= 1u << i;
    }
    t->gen = gen;
    /* the frames' components, counts and mask anew (components are only
     * ever added) */
    memset(t->count, 0, sizeof t->count);
    t->mask = 0;
    depth = t->depth < DAPTO_REL_DEPTH ? t->depth : DAPTO_REL_DEPTH;
    for (i = 0; i < depth; i++) {
        c = comp_of(e, t, &t->frame[i]);
        t->frame[i].comp = (uint8_t)c;
        if (c < DAPTO_REL_COMPS) {
            t->count[c]++;
            t->mask |= 1ull << c;
        }
    }
    return 0;
}

/* Bring T up to the area's epoch and generation. */
static inline void rel_sync(const struct rtrel_env *e, struct dapto_rel_thread *t)
{
    const struct dapto_rel_area *h = head(e);
    uint32_t epoch = __atomic_load_n(&h->epoch, __ATOMIC_ACQUIRE);
    uint32_t gen = __atomic_load_n(&h->gen, __ATOMIC_ACQUIRE);

    if (DAPTO_UNLIKELY(t->epoch != epoch))
        reset(t, epoch);
    if (DAPTO_UNLIKELY(t->gen != gen) && gen % 2 == 0 && gen != 0)
        (void)take_defs(e, t, gen);
}

/* ---- values ---- */

/* Append parameters of an event (ARG with CTX, until it has no more)
 * to OUT (ROOM bytes) as a record's values <protocol#record>, strings
 * cut to fit (flagged in *TRUNC).  Returns the bytes written. */
static uint32_t put_args(unsigned char *out, uint32_t room, rtq_arg_fn arg, const void *ctx,
                         int *trunc)
{
    uint32_t n = 0, len;
    unsigned int k;
    struct rtq_str s;
    int kind;
    int64_t i;
    double d;
    int32_t i32;

    for (k = 0; arg != NULL && k < 255; k++) {
        if (arg(ctx, k, &kind, &i, &d, &s) != 0)
            break;
        switch (kind) {
        case DAPTO_K_INT:
            if (room - n < 5)
                goto full;
            out[n] = DAPTO_K_INT;
            i32 = (int32_t)i;
            memcpy(out + n + 1, &i32, 4);
            n += 5;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_PTR:
        case DAPTO_K_DOUBLE:
            if (room - n < 9)
                goto full;
            out[n] = (unsigned char)kind;
            if (kind == DAPTO_K_DOUBLE)
                memcpy(out + n + 1, &d, 8);
            else
                memcpy(out + n + 1, &i, 8);
            n += 9;
            break;
        case DAPTO_K_STR:
        case DAPTO_K_ISTR:
            if (room - n < 6)
                goto full;
            len = s.n < room - n - 6 ? s.n : room - n - 6;
            out[n] = (unsigned char)(DAPTO_K_STR | (len < s.n ? DAPTO_K_TRUNC : 0));
            if (len < s.n)
                *trunc = 1;
            memcpy(out + n + 1, &len, 4);
            memcpy(out + n + 5, s.s, len);
            out[n + 5 + len] = '\0';
            n += 6 + len;
            break;
        default:
            goto full;
        }
    }
    return n;
full:
    *trunc = 1;
    return n;
}

/* Keep an event's values in pending record P. */
static void keep(struct dapto_rel_pend *p, rtq_arg_fn arg, const void *ctx)
{
    int trunc = 0;

    p->len = (uint16_t)put_args(p->data, DAPTO_REL_DATA, arg, ctx, &trunc);
    p->has = (uint8_t)(1 | (trunc ? 2 : 0));
}

static void count_id(const struct rtrel_env *e, unsigned int id)
{
    if (e->count != NULL && id < DAPTO_CNT_PER_SLOT)
        e->count(id);
}

/* Ticks to ns with definition D's multiplier. */
static uint64_t ns_of(const struct dapto_rel_def *d, uint64_t ticks)
{
    return (uint64_t)(((unsigned __int128)ticks * d->mult) >> 32);
}

/* Emit derived event DEF at NOW: the long V0, the long V1 (unless
 * NO_V1), values A (LA bytes), then the event's own values (ARG). */
static void fire(const struct rtrel_env *e, struct dapto_rel_thread *t, unsigned int def,
                 uint64_t now, int64_t v0, int64_t v1, int no_v1, const unsigned char *a,
                 uint32_t la, int a_trunc, rtq_arg_fn arg, const void *ctx)
{
    union {
        struct dapto_record rec;
        unsigned char b[DAPTO_EVENT_MAX];
    } u;
    unsigned char *v = u.b + DAPTO_RECORD_HEADER;
    uint32_t n = 0, room = DAPTO_EVENT_MAX - DAPTO_RECORD_HEADER;
    int trunc = a_trunc;

    count_id(e, t->defs[def].recorded);
    if (e->emit == NULL)
        return;
    v[n] = DAPTO_K_LONG;
    memcpy(v + n + 1, &v0, 8);
    n += 9;
    if (!no_v1) {
        v[n] = DAPTO_K_LONG;
        memcpy(v + n + 1, &v1, 8);
        n += 9;
    }
    if (la > DAPTO_REL_DATA)
        la = DAPTO_REL_DATA;
    memcpy(v + n, a, la);
    n += la;
    n += put_args(v + n, room - n, arg, ctx, &trunc);
    memset(&u.rec, 0, sizeof u.rec);
    u.rec.len = n;
    u.rec.flags = trunc ? DAPTO_RECF_TRUNC : 0;
    u.rec.time = now;
    /* the record's words past its values are zero: the ring copies whole
     * words <ring.h> */
    memset(v + n, 0, (size_t)(((n + 7) & ~7u) - n));
    e->emit(e, &u.rec, def);
}

/* ---- pending executions ---- */

static struct dapto_rel_pend *pend_push(struct dapto_rel_thread *t, unsigned int def,
                                        uint32_t frame)
{
    struct dapto_rel_pend *p;

    if (t->npend >= DAPTO_REL_PENDING) {
        t->lost++;
        return NULL;
    }
    p = &t->pend[t->npend++];
    p->def = (uint8_t)def;
    p->has = 0;
    p->len = 0;
    p->frame = frame;
    p->t0 = 0;
    p->n0 = 0;
    return p;
}

/* The innermost pending record of DEF below index BELOW, or NULL. */
static struct dapto_rel_pend *pend_top(struct dapto_rel_thread *t, unsigned int def,
                                       uint32_t below)
{
    uint32_t i = below < DAPTO_REL_PENDING ? below : DAPTO_REL_PENDING;

    while (i-- > 0)
        if (t->pend[i].def == def)
            return &t->pend[i];
    return NULL;
}

static uint32_t npend(const struct dapto_rel_thread *t)
{
    return t->npend < DAPTO_REL_PENDING ? t->npend : DAPTO_REL_PENDING;
}

/* A B of `contains` DEF (whose values ARG reads; none for a
 * component): every pending A sees it; those without a B yet keep its
 * values (they are the innermost ones: an A begun before the last B has
 * one). */
static void b_contains(struct dapto_rel_thread *t, unsigned int def, rtq_arg_fn arg,
                       const void *ctx)
{
    uint32_t i = npend(t);

    t->nb[def]++;
    while (i-- > 0) {
        struct dapto_rel_pend *p = &t->pend[i];

        if (p->def != def)
            continue;
        if (p->has)
            break;
        keep(p, arg, ctx);
    }
}

/* A B of `calls` DEF: the innermost A sees it when its frame is the
 * innermost frame (PARENT). */
static void b_calls(struct dapto_rel_thread *t, unsigned int def, uint32_t parent,
                    rtq_arg_fn arg, const void *ctx)
{
    struct dapto_rel_pend *p = pend_top(t, def, t->npend);

    if (p == NULL || p->frame != parent)
        return;
    p->n0++;
    if (!p->has)
        keep(p, arg, ctx);
}

/* A B of `before` DEF: emitted when an A precedes it (in the same
 * execution of C, the innermost one that had an A). */
static void b_before(const struct rtrel_env *e, struct dapto_rel_thread *t, unsigned int def,
                     rtq_arg_fn arg, const void *ctx)
{
    const struct dapto_rel_def *d = &t->defs[def];
    struct dapto_rel_pend *p = NULL;
    uint32_t i;
    uint64_t now;

    count_id(e, d->checked);
    if (d->c == DAPTO_REL_NONE) {
        if (t->last[def].has)
            p = &t->last[def];
    } else {
        for (i = npend(t); i-- > 0;) {
            if (t->pend[i].def == def && t->pend[i].has) {
                p = &t->pend[i];
                break;
            }
        }
    }
    if (p == NULL)
        return;
    now = e->now != NULL ? e->now() : 0;
    fire(e, t, def, now, (int64_t)ns_of(d, now - p->t0), 0, 1, p->data, p->len,
         (p->has & 2) != 0, arg, ctx);
}

/* An A of `before` DEF: kept as the last one (in the innermost execution
 * of C; outside every C it is no A of DEF). */
static void a_before(const struct rtrel_env *e, struct dapto_rel_thread *t, unsigned int def,
                     rtq_arg_fn arg, const void *ctx)
{
    struct dapto_rel_pend *p;

    if (t->defs[def].c == DAPTO_REL_NONE)
        p = &t->last[def];
    else
        p = pend_top(t, def, t->npend);
    if (p == NULL)
        return;
    keep(p, arg, ctx);
    p->t0 = e->now != NULL ? e->now() : 0;
}

/* The execution whose pending record P is ends at NOW: a `contains` or
 * `calls` is judged, a `before`'s C hands its last A to the C around it
 * (the later A). */
static void pend_end(const struct rtrel_env *e, struct dapto_rel_thread *t,
                     struct dapto_rel_pend *p, uint32_t at, uint64_t *now)
{
    unsigned int def = p->def % DAPTO_REL_DERIVED;
    const struct dapto_rel_def *d = &t->defs[def];
    struct dapto_rel_pend *q;
    uint64_t n;

    switch (d->kind) {
    case DAPTO_REL_CONTAINS:
    case DAPTO_REL_CALLS:
        count_id(e, d->checked);
        n = d->kind == DAPTO_REL_CONTAINS ? t->nb[def] - p->n0 : p->n0;
        if (n == 0)
            return;
        if (*now == 0 && e->now != NULL)
            *now = e->now();
        fire(e, t, def, *now, (int64_t)ns_of(d, *now - p->t0), (int64_t)n, 0, p->data,
             p->len, (p->has & 2) != 0, NULL, NULL);
        return;
    case DAPTO_REL_BEFORE:
        if (p->has && (q = pend_top(t, def, at)) != NULL) {
            q->has = p->has;
            q->len = p->len;
            q->t0 = p->t0;
            memcpy(q->data, p->data, p->len <= DAPTO_REL_DATA ? p->len : DAPTO_REL_DATA);
        }
        return;
    default:
        return;
    }
}

/* ---- the stack ---- */

/* Bits of DEFS whose definitions in T are of KIND (0: any but BEFORE). */
static uint32_t of_kind(const struct dapto_rel_thread *t, uint32_t defs, int before)
{
    uint32_t out = 0;

    while (defs != 0) {
        unsigned int i = (unsigned int)__builtin_ctz(defs);

        defs &= defs - 1;
        if ((t->defs[i].kind == DAPTO_REL_BEFORE) == (before != 0))
            out |= 1u << i;
    }
    return out;
}

static void push(const struct rtrel_env *e, struct dapto_rel_thread *t, uint64_t key, int fn)
{
    uint32_t d = t->depth, defs;
    struct dapto_rel_frame *f;
    struct dapto_rel_pend *p;
    unsigned int c, i;
    uint64_t now = 0;

    if (d >= DAPTO_REL_DEPTH) {
        t->deep++;
        t->depth = d + 1;
        return;
    }
    f = &t->frame[d];
    f->key = key;
    f->fn = (uint8_t)(fn != 0);
    c = fn ? comp_of_fn(e, key) : comp_of_name(e, t, (const char *)(uintptr_t)key);
    f->comp = (uint8_t)c;
    if (c < DAPTO_REL_COMPS) {
        t->count[c]++;
        t->mask |= 1ull << c;
        /* a B first (the execution it begins is not inside itself) */
        for (defs = t->b_of[c]; defs != 0; defs &= defs - 1) {
            i = (unsigned int)__builtin_ctz(defs);
            if (t->defs[i].kind == DAPTO_REL_CONTAINS)
                b_contains(t, i, NULL, NULL);
            else if (t->defs[i].kind == DAPTO_REL_CALLS)
                b_calls(t, i, d - 1, NULL, NULL);
            else
                b_before(e, t, i, NULL, NULL);
        }
        /* then the executions it begins: A of contains/calls, C of before */
        for (defs = of_kind(t, t->a_of[c], 0) | t->c_of[c]; defs != 0; defs &= defs - 1) {
            i = (unsigned int)__builtin_ctz(defs);
            if ((p = pend_push(t, i, d)) == NULL)
                continue;
            if (t->defs[i].kind == DAPTO_REL_CONTAINS)
                p->n0 = t->nb[i];
            if (t->defs[i].kind != DAPTO_REL_BEFORE) {
                if (now == 0 && e->now != NULL)
                    now = e->now();
                p->t0 = now;
            }
        }
    }
    t->depth = d + 1;
}

/* Pop the innermost frame. */
static void pop(const struct rtrel_env *e, struct dapto_rel_thread *t)
{
    uint32_t d = --t->depth, defs;
    unsigned int c, i;
    uint64_t now = 0;

    if (d >= DAPTO_REL_DEPTH) {
        if (t->deep > 0)
            t->deep--;
        return;
    }
    /* its executions' records are the innermost: judged in the order of
     * their definitions */
    if (t->npend <= DAPTO_REL_PENDING) {
        uint32_t first = t->npend, k;

        while (first > 0 && t->pend[first - 1].frame >= d)
            first--;
        for (k = first; k < t->npend; k++)
            pend_end(e, t, &t->pend[k], first, &now);
        t->npend = first;
    }
    c = t->frame[d].comp;
    if (c >= DAPTO_REL_COMPS)
        return;
    if (t->count[c] > 0 && --t->count[c] == 0)
        t->mask &= ~(1ull << c);
    /* the end of an execution of A is an A of before */
    for (defs = of_kind(t, t->a_of[c], 1); defs != 0; defs &= defs - 1) {
        i = (unsigned int)__builtin_ctz(defs);
        a_before(e, t, i, NULL, NULL);
    }
}

static int frame_is(const struct dapto_rel_frame *f, uint64_t key, int fn)
{
    if (f->fn != (fn != 0))
        return 0;
    if (f->key == key)
        return 1;
    /* named components match by their text, as noosa's stacks do */
    return !fn && f->key != 0 && key != 0 &&
           strcmp((const char *)(uintptr_t)f->key, (const char *)(uintptr_t)key) == 0;
}

/* Enter and leave begin and end with T busy: a signal handler's events
 * meanwhile are left out. */
static int begin(const struct rtrel_env *e, struct dapto_rel_thread *t)
{
    if (t->busy) {
        t->lost++;
        return -1;
    }
    t->busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rel_sync(e, t);
    return 0;
}

static void end(struct dapto_rel_thread *t)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->busy = 0;
}

void rtrel_enter(const struct rtrel_env *e, struct dapto_rel_thread *t, uint64_t key, int fn)
{
    if (begin(e, t) != 0)
        return;
    push(e, t, key, fn);
    end(t);
}

void rtrel_leave(const struct rtrel_env *e, struct dapto_rel_thread *t, uint64_t key, int fn)
{
    uint32_t top, i;

    if (begin(e, t) != 0)
        return;
    if (t->depth > DAPTO_REL_DEPTH) {
        /* a frame not kept: taken to be this one */
        pop(e, t);
    } else if (t->depth > 0) {
        top = t->depth - 1;
        for (i = top + 1; i-- > 0;)
            if (frame_is(&t->frame[i], key, fn))
                break;
        /* i wrapped: not on the stack, nothing to pop */
        if (i <= top)
            while (t->depth > i)
                pop(e, t);
    }
    end(t);
}

void rtrel_unwind(const struct rtrel_env *e, struct dapto_rel_thread *t, uint32_t depth)
{
    struct dapto_rel_frame f;

    /* (a thread that faulted inside an update is not inside it any more) */
    t->busy = 0;
    if (begin(e, t) != 0)
        return;
    while (t->depth > depth) {
        int kept = t->depth <= DAPTO_REL_DEPTH;

        if (kept)
            f = t->frame[t->depth - 1];
        pop(e, t);
        if (kept && e->unwound != NULL) {
            /* the leave, as if the program had made it: outside the
             * update (it may be recorded, and so seen by noosa's
             * stacks) */
            end(t);
            e->unwound(&f);
            if (begin(e, t) != 0)
                return;
        }
    }
    end(t);
}

void rtrel_part(const struct rtrel_env *e, struct dapto_rel_thread *t, unsigned int def,
                unsigned int role, rtq_arg_fn arg, const void *ctx)
{
    const struct dapto_rel_def *d;

    if (def >= DAPTO_REL_DERIVED || begin(e, t) != 0)
        return;
    d = &t->defs[def];
    switch (d->kind) {
    case DAPTO_REL_CONTAINS:
        if (role == DAPTO_REL_PART_B && d->b == DAPTO_REL_NONE)
            b_contains(t, def, arg, ctx);
        break;
    case DAPTO_REL_CALLS:
        if (role == DAPTO_REL_PART_B && d->b == DAPTO_REL_NONE && t->depth > 0 &&
            t->depth <= DAPTO_REL_DEPTH)
            b_calls(t, def, t->depth - 1, arg, ctx);
        break;
    case DAPTO_REL_BEFORE:
        if (role == DAPTO_REL_PART_B && d->b == DAPTO_REL_NONE)
            b_before(e, t, def, arg, ctx);
        else if (role == DAPTO_REL_PART_A && d->a == DAPTO_REL_NONE)
            a_before(e, t, def, arg, ctx);
        break;
    default:
        break;
    }
    end(t);
}

uint64_t rtrel_mask(const struct rtrel_env *e, struct dapto_rel_thread *t)
{
    const struct dapto_rel_area *h = head(e);

    if (DAPTO_LIKELY(t->epoch == __atomic_load_n(&h->epoch, __ATOMIC_RELAXED) &&
                     t->gen == __atomic_load_n(&h->gen, __ATOMIC_RELAXED)))
        return t->mask;
    if (t->busy)
        return t->mask;
    t->busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rel_sync(e, t);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->busy = 0;
    /* another epoch: no frame seen yet */
    return t->epoch == __atomic_load_n(&h->epoch, __ATOMIC_RELAXED) ? t->mask : 0;
}

/* ---- the runtime's ---- */

/* The thread's slot (or RTREL_NO_SLOT), the attach it is of, and the
 * depth of its stack at each of its recovery points (index: the point's
 * depth - 1). */
#define RT_REL_TRIES 64

static RT_TLS __thread struct {
    struct dapto_rel_thread *slot;
    uint32_t epoch;
    uint32_t tries[RT_REL_TRIES];
} rt_rel;

/* The calling thread's slot on the attached runtime, taken at its first
 * need when TAKE; NULL without one. */
static struct dapto_rel_thread *thread_slot(int take)
{
    uint32_t epoch;

    if (runtime.rel.area == NULL)
        return NULL;
    epoch = __atomic_load_n(&runtime.epoch, __ATOMIC_ACQUIRE);
    if (DAPTO_UNLIKELY(rt_rel.epoch != epoch)) {
        /* <protocol#attach>: a slot of an earlier attach is not ours */
        rt_rel.slot = NULL;
        rt_rel.epoch = epoch;
    }
    if (rt_rel.slot == NULL && take)
        rt_rel.slot = rtrel_take(&runtime.rel, rt_thread());
    if (rt_rel.slot == NULL && take)
        rt_rel.slot = RTREL_NO_SLOT;
    return rt_rel.slot == RTREL_NO_SLOT ? NULL : rt_rel.slot;
}

/* Component KEY (a function's address when FN) entered or left (ENTER)
 * by the calling thread. */
static void rel_step(int enter, uint64_t key, int fn)
{
    struct dapto_rel_thread *t;
    int saved = errno;

    if (rt_is_attached() && (t = thread_slot(1)) != NULL) {
        if (enter)
            rtrel_enter(&runtime.rel, t, key, fn);
        else
            rtrel_leave(&runtime.rel, t, key, fn);
    }
    errno = saved;
}

void rt_rel_name(int enter, const char *name)
{
    rel_step(enter, (uint64_t)(uintptr_t)name, 0);
}

void rt_rel_fn(int enter, void *fn)
{
    rel_step(enter, (uint64_t)(uintptr_t)fn, 1);
}

void rt_rel_part(unsigned int def, unsigned int role, rtq_arg_fn arg, const void *ctx)
{
    struct dapto_rel_thread *t;

    if (!rt_is_attached() || (t = thread_slot(1)) == NULL)
        return;
    rtrel_part(&runtime.rel, t, def, role, arg, ctx);
}

uint64_t rt_rel_mask(void)
{
    struct dapto_rel_thread *t;

    if (!rt_is_attached() || (t = thread_slot(0)) == NULL)
        return 0;
    return rtrel_mask(&runtime.rel, t);
}

void rt_rel_try(unsigned int rdepth)
{
    struct dapto_rel_thread *t;

    if (rdepth == 0 || rdepth > RT_REL_TRIES)
        return;
    t = rt_is_attached() ? thread_slot(0) : NULL;
    /* a stack of another epoch has no frame of ours yet */
    rt_rel.tries[rdepth - 1] =
        t != NULL && t->epoch == __atomic_load_n(&((struct dapto_rel_area *)(void *)
                                                       runtime.rel.area)->epoch,
                                                 __ATOMIC_RELAXED)
            ? t->depth : 0;
}

void rt_rel_resume(unsigned int rdepth)
{
    struct dapto_rel_thread *t;

    if (rdepth == 0 || rdepth > RT_REL_TRIES || !rt_is_attached() ||
        (t = thread_slot(0)) == NULL)
        return;
    rtrel_unwind(&runtime.rel, t, rt_rel.tries[rdepth - 1]);
}

void rt_rel_fork_child(void)
{
    memset(&rt_rel, 0, sizeof rt_rel);
}
