/* SPDX-License-Identifier: MIT */
/*
 * rtquestion.c - counting events into the thread's own tables of
 * questions <protocol#question>: the definition read and checked, the
 * table cleared when its question is new or was reset, the duration
 * marks (since a start event; enter to leave on a stack), the key hashed
 * into an open-addressing table, and the entry updated between two
 * stores of its sequence word so that the monitor can read it at any
 * time.
 */
#include "config.h"

#include <string.h>

#include "dapto.h"
#include "rtquestion.h"

/* The area's header at least, to read anything. */
#define QAREA_MIN_SIZE sizeof(struct dapto_question_area)

/* The thread's slot <protocol#question>; reset in a forked child. */
static __attribute__((tls_model("initial-exec"))) __thread unsigned char *rt_qslot;

void rtq_fork_child(void)
{
    rt_qslot = NULL;
}

/* A definition as copied and checked. */
struct qdef {
    struct dapto_question d;
    uint32_t nstr; /* string keys */
};

/* FNV-1a over N bytes at S. */
static uint64_t hash_bytes(const unsigned char *s, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t i;

    for (i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

unsigned int rtq_bucket(int64_t v)
{
    uint64_t m;

    if (v == 0)
        return 64;
    if (v > 0)
        return 64 + (unsigned int)(64 - __builtin_clzll((uint64_t)v));
    m = (uint64_t)0 - (uint64_t)v;
    return 64 - (unsigned int)(64 - __builtin_clzll(m));
}

/* Copy definition Q of the area into *QD and check it against a slot of
 * SLOT_SIZE bytes: 0, or -1 when it is none or not sound. */
static int read_def(const unsigned char *defs, unsigned int q, uint32_t slot_size,
                    struct qdef *qd)
{
    const uint64_t *w = (const uint64_t *)(const void *)(defs + (size_t)q * 64);
    struct dapto_question *d = &qd->d;
    uint64_t words[8];
    unsigned int i;

    words[0] = __atomic_load_n(&w[0], __ATOMIC_ACQUIRE);
    for (i = 1; i < 8; i++)
        words[i] = __atomic_load_n(&w[i], __ATOMIC_RELAXED);
    memcpy(d, words, sizeof *d);
    if (d->epoch == 0 || d->value > DAPTO_QV_NEST || d->nkeys > 2 ||
        d->tab_off % 8 != 0 || d->tab_size < sizeof(struct dapto_qtable) ||
        d->tab_off > slot_size || d->tab_size > slot_size - d->tab_off ||
        d->nent == 0 || (d->nent & (d->nent - 1)) != 0 ||
        d->ent_size < sizeof(struct dapto_qentry) || d->ent_size % 8 != 0 ||
        (uint64_t)d->nent * d->ent_size > d->tab_size - sizeof(struct dapto_qtable))
        return -1;
    qd->nstr = 0;
    for (i = 0; i < d->nkeys; i++) {
        if (d->key[i] > DAPTO_QK_TID || d->key[i] == DAPTO_QK_NONE)
            return -1;
        qd->nstr += d->key[i] == DAPTO_QK_STR;
    }
    if (qd->nstr != 0 && (d->text_off < sizeof(struct dapto_qentry) ||
                          d->text_off > d->ent_size ||
                          qd->nstr * DAPTO_Q_TEXT > d->ent_size - d->text_off))
        return -1;
    if ((d->flags & DAPTO_QF_HIST) &&
        (d->hist_off < sizeof(struct dapto_qentry) || d->hist_off % 8 != 0 ||
         d->hist_off > d->ent_size || DAPTO_Q_HIST * 8 > d->ent_size - d->hist_off))
        return -1;
    return 0;
}

/* The thread's slot, taken at its first question event; NULL when there
 * is none. */
static unsigned char *thread_slot(const struct rtq_env *env,
                                  struct dapto_question_area *h, uint32_t nthreads,
                                  uint32_t slot_size, uint32_t tabs_off)
{
    unsigned char **where = env->slot != NULL ? env->slot : &rt_qslot;
    unsigned char *s = *where;
    uint32_t n;

    if (s == NULL) {
        n = __atomic_fetch_add(&h->next, 1, __ATOMIC_RELAXED);
        s = n < nthreads ? env->area + tabs_off + (size_t)n * slot_size : RTQ_NO_SLOT;
        *where = s;
    }
    if (s == RTQ_NO_SLOT) {
        __atomic_fetch_add(&h->no_slot, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    return s;
}

/* A key's value: its word and, for a string, its hash and text. */
struct kv {
    uint64_t word;
    uint64_t hash;
    const unsigned char *s; /* string keys */
    uint32_t n;
};

static int key_value(const struct dapto_question *d, unsigned int i, uint32_t tid,
                     rtq_arg_fn arg, const void *ctx, struct kv *kv)
{
    int kind;
    int64_t iv;
    double dv;
    struct rtq_str s;

    kv->s = NULL;
    if (d->key[i] == DAPTO_QK_TID) {
        kv->word = kv->hash = tid;
        return 0;
    }
    if (arg(ctx, d->key_arg[i], &kind, &iv, &dv, &s) != 0)
        return -1;
    if (d->key[i] == DAPTO_QK_INT) {
        if (kind != DAPTO_K_INT && kind != DAPTO_K_LONG && kind != DAPTO_K_PTR)
            return -1;
        kv->word = kv->hash = (uint64_t)iv;
        return 0;
    }
    if (kind != DAPTO_K_STR && kind != DAPTO_K_ISTR)
        return -1;
    kv->s = s.s;
    kv->n = s.n;
    kv->word = s.n;
    kv->hash = hash_bytes(s.s, s.n);
    return 0;
}

/* Whether entry E holds keys K (N of them). */
static int same_keys(const unsigned char *e, const struct dapto_question *d,
                     const struct kv *k, unsigned int n, uint64_t hash)
{
    const struct dapto_qentry *qe = (const struct dapto_qentry *)(const void *)e;
    unsigned int i, t = 0;
    uint32_t m;

    if (qe->hash != hash)
        return 0;
    for (i = 0; i < n; i++) {
        if (qe->key[i] != k[i].word)
            return 0;
        if (k[i].s != NULL) {
            m = k[i].n < DAPTO_Q_TEXT ? k[i].n : DAPTO_Q_TEXT;
            if (memcmp(e + d->text_off + t * DAPTO_Q_TEXT, k[i].s, m) != 0)
                return 0;
            t++;
        }
    }
    return 1;
}

/* The value the question aggregates, as an integer or a double: 0, or -1
 * when the event gives none (or a duration has no start, counted). */
static int the_value(const struct dapto_question *d, struct dapto_qtable *t,
                     const struct rtq_env *env, rtq_arg_fn arg, const void *ctx,
                     const struct kv *key0, int64_t *iv, double *dv)
{
    struct rtq_str s;
    uint64_t now, start;
    int kind;
    uint32_t depth, i;

    switch (d->value) {
    case DAPTO_QV_NONE:
        *iv = 0;
        return 0;
    case DAPTO_QV_INT:
        if (arg(ctx, d->value_arg, &kind, iv, dv, &s) != 0 ||
            (kind != DAPTO_K_INT && kind != DAPTO_K_LONG && kind != DAPTO_K_PTR))
            return -1;
        return 0;
    case DAPTO_QV_DOUBLE:
        if (arg(ctx, d->value_arg, &kind, iv, dv, &s) != 0)
            return -1;
        if (kind == DAPTO_K_INT || kind == DAPTO_K_LONG)
            *dv = (double)*iv;
        else if (kind != DAPTO_K_DOUBLE)
            return -1;
        return 0;
    case DAPTO_QV_SINCE:
        start = t->since;
        if (start == 0 || env->now == NULL) {
            t->unmatched++;
            return -1;
        }
        now = env->now();
        t->since = 0;
        break;
    default: /* DAPTO_QV_NEST: the innermost start of the same key */
        depth = t->depth;
        if (depth == 0 || depth > DAPTO_Q_STACK || env->now == NULL || key0 == NULL) {
            if (depth > DAPTO_Q_STACK)
                t->depth = depth - 1;
            t->unmatched++;
            return -1;
        }
        for (i = depth; i-- > 0;)
            if (t->stack[i].key == key0->hash)
                break;
        if (i == UINT32_MAX) {
            t->unmatched++;
            return -1;
        }
        start = t->stack[i].time;
        t->depth = i; /* the starts above it were left without their end */
        now = env->now();
        break;
    }
    *iv = now > start
              ? (int64_t)(((unsigned __int128)(now - start) * d->mult) >> 32)
              : 0;
    return 0;
}

static void update(unsigned char *e, const struct dapto_question *d, int64_t iv,
                   double dv, int fresh)
{
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)e;
    uint64_t *hist = (uint64_t *)(void *)(e + d->hist_off);
    int64_t si, mi, ma;
    double sd, md, xd;

    if (d->value == DAPTO_QV_DOUBLE) {
        memcpy(&sd, &qe->sum, 8);
        memcpy(&md, &qe->min, 8);
        memcpy(&xd, &qe->max, 8);
        sd += dv;
        if (fresh || dv < md)
            md = dv;
        if (fresh || dv > xd)
            xd = dv;
        memcpy(&qe->sum, &sd, 8);
        memcpy(&qe->min, &md, 8);
        memcpy(&qe->max, &xd, 8);
        if (d->flags & DAPTO_QF_HIST)
            iv = dv >= 9.2e18 ? INT64_MAX : dv <= -9.2e18 ? INT64_MIN
                 : dv != dv ? 0 : (int64_t)dv;
    } else {
        si = (int64_t)((uint64_t)qe->sum + (uint64_t)iv);
        mi = (int64_t)qe->min;
        ma = (int64_t)qe->max;
        qe->sum = (uint64_t)si;
        if (fresh || iv < mi)
            qe->min = (uint64_t)iv;
        if (fresh || iv > ma)
            qe->max = (uint64_t)iv;
    }
    qe->count++;
    if (d->flags & DAPTO_QF_HIST)
        hist[rtq_bucket(iv)]++;
}

void rtq_fire(const struct rtq_env *env, unsigned int q, unsigned int flags,
              uint32_t tid, rtq_arg_fn arg, const void *ctx)
{
    struct dapto_question_area *h = (struct dapto_question_area *)(void *)env->area;
    uint32_t nq, nthreads, slot_size, defs_off, tabs_off, idx, n, t_i;
    struct qdef qd;
    const struct dapto_question *d = &qd.d;
    struct dapto_qtable *t;
    unsigned char *slot, *ents, *e;
    struct kv k[2];
    uint64_t hash, check;
    int64_t iv = 0;
    double dv = 0;
    unsigned int i;
    int fresh;

    if (h == NULL || env->size < QAREA_MIN_SIZE)
        return;
    nq = __atomic_load_n(&h->nquestions, __ATOMIC_RELAXED);
    nthreads = __atomic_load_n(&h->nthreads, __ATOMIC_RELAXED);
    slot_size = __atomic_load_n(&h->slot_size, __ATOMIC_RELAXED);
    defs_off = __atomic_load_n(&h->defs_off, __ATOMIC_RELAXED);
    tabs_off = __atomic_load_n(&h->tabs_off, __ATOMIC_RELAXED);
    if (q >= nq || q >= DAPTO_Q_MAX || defs_off % 64 != 0 ||
        defs_off < sizeof *h || defs_off > env->size ||
        (uint64_t)nq * 64 > env->size - defs_off || tabs_off % 64 != 0 ||
        slot_size % 64 != 0 || slot_size == 0 || tabs_off > env->size ||
        (uint64_t)nthreads * slot_size > env->size - tabs_off)
        return;
    if (read_def(env->area + defs_off, q, slot_size, &qd) != 0)
        return;
    slot = thread_slot(env, h, nthreads, slot_size, tabs_off);
    if (slot == NULL)
        return;
    t = (struct dapto_qtable *)(void *)(slot + d->tab_off);
    ents = slot + d->tab_off + sizeof *t;
    check = DAPTO_Q_CHECK(d->epoch, d->tab_off);
    if (t->check != check) {
        /* a new question, or reset: start from nothing */
        __atomic_store_n(&t->check, 0, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        memset((unsigned char *)t + sizeof t->check, 0, d->tab_size - sizeof t->check);
        t->tid = tid;
        __atomic_store_n(&t->check, check, __ATOMIC_RELEASE);
    }
    for (i = 0; i < d->nkeys; i++)
        if (key_value(d, i, tid, arg, ctx, &k[i]) != 0)
            return; /* the event gives no such key: not this question's */
    if (flags & DAPTO_CL_QSTART) {
        if (d->value == DAPTO_QV_SINCE && env->now != NULL) {
            t->since = env->now();
        } else if (d->value == DAPTO_QV_NEST && env->now != NULL && d->nkeys > 0) {
            n = t->depth;
            if (n < DAPTO_Q_STACK) {
                t->stack[n].key = k[0].hash;
                t->stack[n].time = env->now();
            }
            t->depth = n + 1;
        }
        return;
    }
    if (the_value(d, t, env, arg, ctx, d->nkeys > 0 ? &k[0] : NULL, &iv, &dv) != 0)
        return;
    hash = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < d->nkeys; i++)
        hash = mix(hash ^ k[i].hash) + i;
    hash |= 1;
    idx = (uint32_t)(mix(hash) & (d->nent - 1));
    for (n = 0; n < d->nent; n++, idx = (idx + 1) & (d->nent - 1)) {
        e = ents + (size_t)idx * d->ent_size;
        if (((struct dapto_qentry *)(void *)e)->hash == 0 ||
            same_keys(e, d, k, d->nkeys, hash))
            break;
    }
    if (n == d->nent) {
        t->overflow++;
        return;
    }
    {
        struct dapto_qentry *qe = (struct dapto_qentry *)(void *)e;
        uint32_t seq = qe->seq;

        __atomic_store_n(&qe->seq, seq + 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        fresh = qe->hash == 0;
        if (fresh) {
            for (i = 0, t_i = 0; i < d->nkeys; i++) {
                qe->key[i] = k[i].word;
                if (k[i].s != NULL) {
                    memcpy(e + d->text_off + t_i * DAPTO_Q_TEXT, k[i].s,
                           k[i].n < DAPTO_Q_TEXT ? k[i].n : DAPTO_Q_TEXT);
                    t_i++;
                }
            }
            qe->hash = hash;
        }
        update(e, d, iv, dv, fresh);
        __atomic_store_n(&qe->seq, seq + 2, __ATOMIC_RELEASE);
    }
}
