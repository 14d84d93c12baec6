/* SPDX-License-Identifier: MIT */
/*
 * rtquestion.c - counting events into the thread's own tables of
 * questions <protocol#question>: the definition read and checked, the
 * table cleared when its question is new or was reset, the duration
 * marks (since a start event; enter to leave on a stack), the key hashed
 * into an open-addressing table, and the entry updated between two
 * stores of its sequence word so that the monitor can read it at any
 * time.
 *
 * The hot paths work from plans a thread keeps once the general path has
 * checked everything: for a question of the commonest shapes, its table
 * and the entry of no key (rtq_fire_vals() reads integer parameters
 * straight from the record's values); for the calling-context tree
 * <protocol#cct>, its table and geometry (rtq_function()).  A plan holds
 * while the area and the definition's epoch stay the same, and is only
 * ever about the thread's own table.
 */
#include "config.h"

#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "dapto.h"
#include "rtquestion.h"

/* The area's header at least, to read anything. */
#define QAREA_MIN_SIZE sizeof(struct dapto_question_area)

#define RT_QTLS __attribute__((tls_model("initial-exec")))

/* The thread's slot <protocol#question>; reset in a forked child. */
static RT_QTLS __thread unsigned char *rt_qslot;

void rtq_window(const struct rtq_env *env, int open)
{
    struct dapto_question_area *h = (struct dapto_question_area *)(void *)env->area;

    if (h != NULL && env->size >= sizeof *h)
        __atomic_store_n(&h->closed, open ? 0u : 1u, __ATOMIC_RELAXED);
}

void rtq_fork_child(void)
{
    rt_qslot = NULL;
    rtq_forget();
}


/* A definition as copied and checked. */
struct qdef {
    struct dapto_question d;
    uint32_t nstr; /* string keys */
    /* The plan of the fast path (count_fast), once the general path has
     * found the table in SLOT: NULL until then. */
    unsigned char *slot;
    struct dapto_qtable *t;
    unsigned char *ents;
    uint64_t check;
    unsigned char *e0; /* the entry of no key (at its first probe) */
    int fast;      /* the shape count_fast() counts */
};

#define hash_bytes rtq_hash_bytes
#define mix rtq_mix

/* Copy definition Q of the area into *QD and check it against a slot of
 * SLOT_SIZE bytes: 0, or -1 when it is none or not sound. */
static int read_def(const unsigned char *defs, unsigned int q, uint32_t slot_size,
                    struct qdef *qd)
{
    const struct dapto_question *w =
        (const struct dapto_question *)(const void *)(defs + (size_t)q * 64);
    struct dapto_question *d = &qd->d;
    unsigned int i;

    /* field by field, each read once: the copy checked is the copy used */
    d->epoch = __atomic_load_n(&w->epoch, __ATOMIC_ACQUIRE);
    d->value = __atomic_load_n(&w->value, __ATOMIC_RELAXED);
    d->value_arg = __atomic_load_n(&w->value_arg, __ATOMIC_RELAXED);
    d->flags = __atomic_load_n(&w->flags, __ATOMIC_RELAXED);
    d->nkeys = __atomic_load_n(&w->nkeys, __ATOMIC_RELAXED);
    for (i = 0; i < 2; i++) {
        d->key[i] = __atomic_load_n(&w->key[i], __ATOMIC_RELAXED);
        d->key_arg[i] = __atomic_load_n(&w->key_arg[i], __ATOMIC_RELAXED);
    }
    d->tab_off = __atomic_load_n(&w->tab_off, __ATOMIC_RELAXED);
    d->tab_size = __atomic_load_n(&w->tab_size, __ATOMIC_RELAXED);
    d->nent = __atomic_load_n(&w->nent, __ATOMIC_RELAXED);
    d->ent_size = __atomic_load_n(&w->ent_size, __ATOMIC_RELAXED);
    d->hist_off = __atomic_load_n(&w->hist_off, __ATOMIC_RELAXED);
    d->text_off = __atomic_load_n(&w->text_off, __ATOMIC_RELAXED);
    d->mult = __atomic_load_n(&w->mult, __ATOMIC_RELAXED);
    if (d->epoch == 0 || d->value > DAPTO_QV_CCT || d->nkeys > 2 ||
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

/* What an event gives a question: its keys, and its value when that is
 * a parameter. */
struct qread {
    struct kv k[2];
    int64_t iv;
    double dv;
};

static int key_value(const struct dapto_question *d, unsigned int i, uint32_t tid,
                     rtq_arg_fn arg, const void *ctx, struct kv *kv)
{
    int kind;
    int64_t iv;
    double dv;
    struct rtq_str s = {NULL, 0};

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
    if ((kind != DAPTO_K_STR && kind != DAPTO_K_ISTR) || s.s == NULL)
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

/* The histogram's value of double DV: its integer part, within range. */
static int64_t hist_int(double dv)
{
    return dv >= 9.2e18 ? INT64_MAX : dv <= -9.2e18 ? INT64_MIN : dv != dv ? 0 : (int64_t)dv;
}

/* Events of one entry a signal handler kept together, beyond the first
 * (see defer): how many, their values' sum, least and greatest (integers,
 * or doubles in the same bits), and histogram. */
struct qmore {
    uint64_t n;
    uint64_t sum, min, max;
    uint64_t hist[DAPTO_Q_HIST];
};

/* Add events M (of question D) to entry E (FRESH: they are its first),
 * as update() would add them one by one. */
static void update_more(unsigned char *e, const struct dapto_question *d,
                        const struct qmore *m, int fresh)
{
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)e;
    uint64_t *hist = (uint64_t *)(void *)(e + d->hist_off);
    double sd, md, xd, ms, mm, mx;
    unsigned int b;

    if (d->value == DAPTO_QV_DOUBLE) {
        memcpy(&sd, &qe->sum, 8);
        memcpy(&md, &qe->min, 8);
        memcpy(&xd, &qe->max, 8);
        memcpy(&ms, &m->sum, 8);
        memcpy(&mm, &m->min, 8);
        memcpy(&mx, &m->max, 8);
        sd += ms;
        md = fresh || mm < md ? mm : md;
        xd = fresh || mx > xd ? mx : xd;
        memcpy(&qe->sum, &sd, 8);
        memcpy(&qe->min, &md, 8);
        memcpy(&qe->max, &xd, 8);
    } else if (d->value == DAPTO_QV_INT) {
        qe->sum += m->sum;
        if (fresh || (int64_t)m->min < (int64_t)qe->min)
            qe->min = m->min;
        if (fresh || (int64_t)m->max > (int64_t)qe->max)
            qe->max = m->max;
    }
    /* (one instruction: a quick count may nest in this <protocol#quick>) */
    __atomic_fetch_add(&qe->count, m->n, __ATOMIC_RELAXED);
    if (d->flags & DAPTO_QF_HIST)
        for (b = 0; b < DAPTO_Q_HIST; b++)
            hist[b] += m->hist[b];
}

/* Add an event to entry E (FRESH: its first).  Signal handlers' events
 * wait while the thread counts (rt_qt.busy); the program's own quick count
 * of an entry of no key does not, so the count changes in one
 * instruction. */
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
            iv = hist_int(dv);
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
    dapto_own_add1(&qe->count); /* (a quick count may nest in this: <protocol#question>) */
    if (d->flags & DAPTO_QF_HIST)
        hist[rtq_bucket(iv)]++;
}

/* The area's header as a thread checked it (read once per area). */
struct geom {
    uint32_t nq, nthreads, slot_size, defs_off, tabs_off;
};

static int read_geom(const struct rtq_env *env, struct geom *g)
{
    const struct dapto_question_area *h =
        (const struct dapto_question_area *)(const void *)env->area;

    g->nq = __atomic_load_n(&h->nquestions, __ATOMIC_RELAXED);
    g->nthreads = __atomic_load_n(&h->nthreads, __ATOMIC_RELAXED);
    g->slot_size = __atomic_load_n(&h->slot_size, __ATOMIC_RELAXED);
    g->defs_off = __atomic_load_n(&h->defs_off, __ATOMIC_RELAXED);
    g->tabs_off = __atomic_load_n(&h->tabs_off, __ATOMIC_RELAXED);
    if (g->nq > DAPTO_Q_MAX || g->defs_off % 64 != 0 || g->defs_off < sizeof *h ||
        g->defs_off > env->size || (uint64_t)g->nq * 64 > env->size - g->defs_off ||
        g->tabs_off % 64 != 0 || g->slot_size % 64 != 0 || g->slot_size == 0 ||
        g->tabs_off > env->size ||
        (uint64_t)g->nthreads * g->slot_size > env->size - g->tabs_off)
        return -1;
    return 0;
}

/* The thread's checked copies of the header and of a few definitions,
 * used while the definition's epoch stays the same (epochs are not
 * reused <protocol#question>); a program scribbling on the area meanwhile
 * only changes what its own tables count, never where they are. */
#define RTQ_CACHED 4

static RT_QTLS __thread struct {
    const unsigned char *area; /* the area they are from */
    struct geom g;
    unsigned int qi[RTQ_CACHED];
    struct qdef e[RTQ_CACHED];
} rt_qc;
/* The thread's counting state (rtquestion.h). */
RT_QTLS __thread struct rtq_thread rt_qt;

static void cct_forget(void);

/* Forget the slot and copies of an earlier attach (not inside another
 * evaluation of this thread). */
static inline void check_epoch(const struct rtq_env *env)
{
    uint32_t e;

    if (env->epoch == NULL || rt_qt.busy)
        return;
    e = __atomic_load_n(env->epoch, __ATOMIC_ACQUIRE);
    if (DAPTO_UNLIKELY(e != rt_qt.epoch)) {
        rt_qslot = NULL;
        memset(&rt_qc, 0, sizeof rt_qc);
        cct_forget();
        rt_qt.epoch = e;
    }
}

static void forget_deferred(void);

void rtq_forget(void)
{
    memset(&rt_qc, 0, sizeof rt_qc);
    rt_qt.busy = 0;
    rt_qt.ndef = 0;
    forget_deferred();
    cct_forget();
}

static void count_event(const struct rtq_env *env, const struct geom *g,
                        struct qdef *qd, unsigned int flags, uint32_t tid,
                        rtq_arg_fn arg, const void *ctx);
static int count_fast(const struct qdef *qd, uint32_t tid, rtq_arg_fn arg,
                      const void *ctx);
static void defer(const struct rtq_env *env, const struct geom *g, struct qdef *qd,
                  unsigned int q, unsigned int flags, uint32_t tid, rtq_arg_fn arg,
                  const void *ctx);
static inline void let_go(void);

/* The thread's checked copy of definition Q (read again when its epoch
 * changed), with the area's header in *G; NULL when Q is none or not
 * sound.  The caller holds rt_qt.busy. */
static struct qdef *cached_def(const struct rtq_env *env, unsigned int q,
                               const struct geom **g)
{
    const struct dapto_question *w;
    unsigned int c = q % RTQ_CACHED;
    uint32_t epoch;

    if (rt_qc.area != env->area) {
        memset(&rt_qc, 0, sizeof rt_qc);
        if (read_geom(env, &rt_qc.g) != 0)
            return NULL;
        rt_qc.area = env->area;
    }
    *g = &rt_qc.g;
    if (q >= rt_qc.g.nq)
        return NULL;
    w = (const struct dapto_question *)(const void *)(env->area + rt_qc.g.defs_off) + q;
    epoch = __atomic_load_n(&w->epoch, __ATOMIC_ACQUIRE);
    if (epoch == 0)
        return NULL;
    if (rt_qc.qi[c] != q + 1 || rt_qc.e[c].d.epoch != epoch) {
        rt_qc.qi[c] = 0;
        rt_qc.e[c].t = NULL;
        if (read_def(env->area + rt_qc.g.defs_off, q, rt_qc.g.slot_size, &rt_qc.e[c]) != 0)
            return NULL;
        rt_qc.qi[c] = q + 1;
    }
    return &rt_qc.e[c];
}

/* Definition D's table in SLOT, cleared first when it is of another
 * question or epoch (a new question, or reset) <protocol#question>; its
 * entries in *ENTS. */
static struct dapto_qtable *table_of(unsigned char *slot, const struct dapto_question *d,
                                     uint32_t tid, unsigned char **ents)
{
    struct dapto_qtable *t = (struct dapto_qtable *)(void *)(slot + d->tab_off);
    uint64_t check = DAPTO_Q_CHECK(d->epoch, d->tab_off);

    if (t->check != check) {
        __atomic_store_n(&t->check, 0, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        memset((unsigned char *)t + sizeof t->check, 0, d->tab_size - sizeof t->check);
        t->tid = tid;
        __atomic_store_n(&t->check, check, __ATOMIC_RELEASE);
    }
    *ents = slot + d->tab_off + sizeof *t;
    return t;
}

void rtq_fire(const struct rtq_env *env, unsigned int q, unsigned int flags,
              uint32_t tid, rtq_arg_fn arg, const void *ctx)
{
    struct geom gl;
    struct qdef ql;
    const struct geom *g = &gl;
    struct qdef *qd = &ql;

    if (env->area == NULL || env->size < QAREA_MIN_SIZE || q >= DAPTO_Q_MAX)
        return;
    check_epoch(env);
    if (rt_qt.busy) {
        /* a signal handler's event inside another: no cache */
        memset(&ql, 0, sizeof ql);
        if (read_geom(env, &gl) != 0 || q >= gl.nq ||
            read_def(env->area + gl.defs_off, q, gl.slot_size, &ql) != 0 ||
            ql.d.value == DAPTO_QV_CCT)
            return;
        defer(env, g, qd, q, flags, tid, arg, ctx);
        return;
    }
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    qd = cached_def(env, q, &g);
    if (qd == NULL)
        goto out;
    if (qd->d.value == DAPTO_QV_CCT)
        goto out; /* the call tree is counted by rtq_function() alone */
    if (qd->t != NULL && flags == DAPTO_CL_QUESTION &&
        *(env->slot != NULL ? env->slot : &rt_qslot) == qd->slot &&
        count_fast(qd, tid, arg, ctx) == 0)
        goto out;
    count_event(env, g, qd, flags, tid, arg, ctx);
out:
    let_go();
}

/* The hash of no key at all. */
#define HASH0 (0x9e3779b97f4a7c15ull | 1)

/* Count an event with key word KW (none: ignored) and integer value IV
 * (none: ignored) into the entry that holds its key at the first probe,
 * from the plan QD keeps: 0, or -1 when the general path must (a new
 * key, a collision, a table cleared). */
static inline int count_plan(const struct qdef *qd, uint64_t kw, int64_t iv)
{
    const struct dapto_question *d = &qd->d;
    struct dapto_qentry *e;
    uint64_t hash = HASH0;

    if (__atomic_load_n(&qd->t->check, __ATOMIC_RELAXED) != qd->check)
        return -1;
    if (d->nkeys == 1) {
        hash = mix(0x9e3779b97f4a7c15ull ^ kw) | 1;
        e = (struct dapto_qentry *)(void *)(qd->ents + (size_t)(mix(hash) & (d->nent - 1)) *
                                                           d->ent_size);
    } else {
        e = (struct dapto_qentry *)(void *)qd->e0;
    }
    if (e->hash != hash || (d->nkeys == 1 && e->key[0] != kw))
        return -1;
    rtq_entry_add(e, d->value == DAPTO_QV_INT, d->flags & DAPTO_QF_HIST ? d->hist_off : 0,
                  iv);
    return 0;
}

int rtq_hot_plan(const struct rtq_env *env, unsigned int q,
                 const struct dapto_param *params, unsigned int n, struct rtq_hot *h)
{
    const struct dapto_question *d;
    const struct geom *g;
    struct qdef *qd;
    unsigned int kind;
    /* (the table planned before, whose entries by address hold while the
     * plan is of the same) */
    const unsigned char *was = h->epoch_at != NULL ? h->ents : NULL;
    uint64_t was_check = was != NULL ? h->check : 0;
    int rc = -1;

    h->epoch_at = NULL;
    if (rt_qt.busy || env->area == NULL || env->size < QAREA_MIN_SIZE || q >= DAPTO_Q_MAX)
        return -1;
    check_epoch(env);
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    qd = cached_def(env, q, &g);
    if (qd == NULL || qd->t == NULL || qd->d.nkeys > 1 ||
        (qd->d.value != DAPTO_QV_NONE && qd->d.value != DAPTO_QV_INT) ||
        *(env->slot != NULL ? env->slot : &rt_qslot) != qd->slot ||
        __atomic_load_n(&qd->t->check, __ATOMIC_RELAXED) != qd->check ||
        (qd->d.nkeys == 0 && ((struct dapto_qentry *)(void *)qd->e0)->hash != HASH0))
        goto out;
    d = &qd->d;
    h->key = d->nkeys == 0 ? DAPTO_QK_NONE : d->key[0];
    if (h->key == DAPTO_QK_INT || h->key == DAPTO_QK_STR) {
        kind = d->key_arg[0] < n ? params[d->key_arg[0]].kind : 0;
        if (h->key == DAPTO_QK_INT ? kind != DAPTO_K_INT && kind != DAPTO_K_LONG &&
                                         kind != DAPTO_K_PTR
                                   : kind != DAPTO_K_STR)
            goto out; /* no such key: the general path counts nothing */
        h->key_arg = d->key_arg[0];
    } else if (h->key != DAPTO_QK_NONE && h->key != DAPTO_QK_TID) {
        goto out;
    }
    if (h->key == DAPTO_QK_STR) {
        /* the record would hold the string whole: the room less the other
         * parameters' (another string: not this plan's) */
        uint32_t used = 6, k;

        for (k = 0; k < n; k++) {
            kind = params[k].kind;
            if (k == h->key_arg)
                continue;
            if (kind == DAPTO_K_INT)
                used += 5;
            else if (kind == DAPTO_K_LONG || kind == DAPTO_K_DOUBLE || kind == DAPTO_K_PTR)
                used += 9;
            else
                goto out;
        }
        if (used >= DAPTO_EVENT_MAX - DAPTO_EVENT_HEADER)
            goto out;
        h->str_room = DAPTO_EVENT_MAX - DAPTO_EVENT_HEADER - used;
    }
    h->ents = qd->ents;
    h->mask = d->nent - 1;
    h->ent_size = d->ent_size;
    h->text_off = d->text_off;
    if (d->value == DAPTO_QV_INT) {
        kind = d->value_arg < n ? params[d->value_arg].kind : 0;
        if (kind != DAPTO_K_INT && kind != DAPTO_K_LONG && kind != DAPTO_K_PTR)
            goto out; /* no such value: the general path counts nothing */
        h->value_arg = d->value_arg;
    } else {
        h->value_arg = UINT32_MAX;
    }
    h->hist_off = d->value == DAPTO_QV_INT && (d->flags & DAPTO_QF_HIST) ? d->hist_off : 0;
    h->e = (struct dapto_qentry *)(void *)qd->e0;
    h->check_at = &qd->t->check;
    h->check = qd->check;
    h->epoch = d->epoch;
    h->epoch_at = &((const struct dapto_question *)(const void *)(env->area + g->defs_off) +
                    q)->epoch;
    rc = 0;
out:
    if (rc != 0 || was != h->ents || was_check != h->check)
        memset(h->by_addr, 0, sizeof h->by_addr);
    let_go();
    return rc;
}

/* count_plan() for an event of a question of the commonest shapes (no
 * key, or one integer or thread key; no value, or an integer one), its
 * parameters read through ARG. */
static int count_fast(const struct qdef *qd, uint32_t tid, rtq_arg_fn arg,
                      const void *ctx)
{
    const struct dapto_question *d = &qd->d;
    struct rtq_str s;
    uint64_t kw = 0;
    int64_t iv = 0, v;
    double dv;
    int kind;

    if (!qd->fast)
        return -1;
    if (d->nkeys == 1) {
        if (d->key[0] == DAPTO_QK_TID) {
            kw = tid;
        } else if (arg(ctx, d->key_arg[0], &kind, &v, &dv, &s) != 0 ||
                   (kind != DAPTO_K_INT && kind != DAPTO_K_LONG && kind != DAPTO_K_PTR)) {
            return -1;
        } else {
            kw = (uint64_t)v;
        }
    }
    if (d->value == DAPTO_QV_INT &&
        (arg(ctx, d->value_arg, &kind, &iv, &dv, &s) != 0 ||
         (kind != DAPTO_K_INT && kind != DAPTO_K_LONG && kind != DAPTO_K_PTR)))
        return -1;
    return count_plan(qd, kw, iv);
}

/* Integer parameter K of encoded values P..END <protocol#record>: 0, or
 * -1 when it is absent, not an integer, or behind a value of variable
 * size (the general path reads those). */
static inline int int_at(const unsigned char *p, const unsigned char *end, unsigned int k,
                         int64_t *v)
{
    int32_t i32;

    for (;; k--) {
        if (p >= end)
            return -1;
        switch (*p) {
        case DAPTO_K_INT:
            if (end - p < 5)
                return -1;
            if (k == 0) {
                memcpy(&i32, p + 1, 4);
                *v = i32;
                return 0;
            }
            p += 5;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_PTR:
            if (end - p < 9)
                return -1;
            if (k == 0) {
                memcpy(v, p + 1, 8);
                return 0;
            }
            p += 9;
            break;
        case DAPTO_K_DOUBLE:
            if (k == 0)
                return -1;
            p += 9;
            break;
        case DAPTO_K_ISTR:
            if (k == 0)
                return -1;
            p += 5;
            break;
        default:
            return -1;
        }
    }
}

/* The parameters rtq_fire_vals() read, for the general path when the
 * entry is not at its first probe. */
struct read_ints {
    unsigned int key_arg, value_arg;
    int64_t kw, iv;
};

static int ints_arg(const void *ctx, unsigned int k, int *kind, int64_t *i, double *d,
                    struct rtq_str *s)
{
    const struct read_ints *r = ctx;

    (void)d;
    (void)s;
    *kind = DAPTO_K_LONG;
    if (k == r->value_arg)
        *i = r->iv;
    else if (k == r->key_arg)
        *i = r->kw;
    else
        return -1;
    return 0;
}

/* Where rtq_fire_vals() and rtq_fire_args() read integer parameters. */
struct ints_src {
    const unsigned char *vals, *vend; /* encoded values */
    const union dapto_arg *args;      /* or arguments, of kinds PARAMS */
    const struct dapto_param *params;
    unsigned int nargs;
};

/* Integer parameter K of SRC into *V: 0, or -1 (see int_at). */
static inline __attribute__((always_inline)) int src_int(const struct ints_src *src,
                                                         unsigned int k, int64_t *v)
{
    unsigned int kind;

    if (src->args == NULL)
        return int_at(src->vals, src->vend, k, v);
    if (k >= src->nargs)
        return -1;
    kind = src->params[k].kind;
    if (kind != DAPTO_K_INT && kind != DAPTO_K_LONG && kind != DAPTO_K_PTR)
        return -1;
    *v = src->args[k].i;
    return 0;
}

static inline __attribute__((always_inline)) int
fire_ints(const struct rtq_env *env, unsigned int q, unsigned int flags, uint32_t tid,
          const struct ints_src *src);

int rtq_fire_vals(const struct rtq_env *env, unsigned int q, unsigned int flags,
                  uint32_t tid, const unsigned char *vals, uint32_t len)
{
    struct ints_src src = {vals, vals + len, NULL, NULL, 0};

    return fire_ints(env, q, flags, tid, &src);
}

int rtq_fire_args(const struct rtq_env *env, unsigned int q, unsigned int flags,
                  uint32_t tid, const union dapto_arg *args,
                  const struct dapto_param *params, unsigned int nargs)
{
    struct ints_src src = {NULL, NULL, args, params, nargs};

    return fire_ints(env, q, flags, tid, &src);
}

/* rtq_fire_vals() and rtq_fire_args() */
static inline __attribute__((always_inline)) int
fire_ints(const struct rtq_env *env, unsigned int q, unsigned int flags, uint32_t tid,
          const struct ints_src *src)
{
    struct read_ints ri;
    const struct dapto_question *d;
    const struct geom *g;
    struct qdef *qd;
    uint64_t kw = 0;
    int64_t iv = 0;
    int rc = -1;

    if (flags != DAPTO_CL_QUESTION || rt_qt.busy || env->area == NULL ||
        env->size < QAREA_MIN_SIZE || q >= DAPTO_Q_MAX)
        return -1;
    check_epoch(env);
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    qd = cached_def(env, q, &g);
    if (qd == NULL) {
        rc = 0; /* none, or not sound: nothing to count, as rtq_fire() finds */
        goto out;
    }
    d = &qd->d;
    if (qd->t == NULL || !qd->fast ||
        *(env->slot != NULL ? env->slot : &rt_qslot) != qd->slot)
        goto out;
    if (d->nkeys == 1) {
        if (d->key[0] == DAPTO_QK_TID)
            kw = tid;
        else if (src_int(src, d->key_arg[0], (int64_t *)&kw) != 0)
            goto out;
    }
    if (d->value == DAPTO_QV_INT && src_int(src, d->value_arg, &iv) != 0)
        goto out;
    rc = 0;
    if (count_plan(qd, kw, iv) != 0) {
        /* a new key or a collision: the general path, with what was read
         * (the key is the thread's or one of those two) */
        ri.key_arg = d->nkeys == 1 && d->key[0] != DAPTO_QK_TID ? d->key_arg[0] : UINT32_MAX;
        ri.value_arg = d->value == DAPTO_QV_INT ? d->value_arg : UINT32_MAX;
        ri.kw = (int64_t)kw;
        ri.iv = iv;
        count_event(env, g, qd, flags, tid, ints_arg, &ri);
    }
out:
    let_go();
    return rc;
}

/* Count an event whose keys and parameter value R holds (NULL: it is
 * not question QD's) in the thread's table, unless it is counted already
 * (ONCE 0), and MORE events of the same keys (NULL: none; only of a
 * DAPTO_CL_QUESTION clause of an integer or double value, or none). */
static void count_read(const struct rtq_env *env, const struct geom *g,
                       struct qdef *qd, unsigned int flags, uint32_t tid,
                       const struct qread *r, int once, const struct qmore *more)
{
    struct dapto_question_area *h = (struct dapto_question_area *)(void *)env->area;
    const struct dapto_question *d = &qd->d;
    struct dapto_qtable *t;
    unsigned char *slot, *ents, *e;
    const struct kv *k = r != NULL ? r->k : NULL;
    uint64_t hash;
    int64_t iv = 0;
    double dv = 0;
    uint32_t idx, n, t_i;
    unsigned int i;
    int fresh;

    slot = thread_slot(env, h, g->nthreads, g->slot_size, g->tabs_off);
    if (slot == NULL)
        return;
    t = table_of(slot, d, tid, &ents);
    /* the plan of the fast path */
    qd->slot = slot;
    qd->t = t;
    qd->ents = ents;
    qd->check = t->check;
    qd->e0 = ents + (size_t)(mix(HASH0) & (d->nent - 1)) * d->ent_size;
    qd->fast = d->nkeys <= 1 && (d->nkeys == 0 || d->key[0] != DAPTO_QK_STR) &&
               (d->value == DAPTO_QV_NONE || d->value == DAPTO_QV_INT);
    if (r == NULL)
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
    if (d->value == DAPTO_QV_SINCE || d->value == DAPTO_QV_NEST) {
        if (the_value(d, t, env, NULL, NULL, d->nkeys > 0 ? &k[0] : NULL, &iv, &dv) != 0)
            return;
    } else {
        iv = r->iv;
        dv = r->dv;
    }
    hash = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < d->nkeys; i++)
        hash = mix(hash ^ k[i].hash) + i;
    hash |= 1; /* HASH0 without keys, as count_fast() has it */
    idx = (uint32_t)(mix(hash) & (d->nent - 1));
    for (n = 0; n < d->nent; n++, idx = (idx + 1) & (d->nent - 1)) {
        e = ents + (size_t)idx * d->ent_size;
        if (((struct dapto_qentry *)(void *)e)->hash == 0 ||
            same_keys(e, d, k, d->nkeys, hash))
            break;
    }
    if (n == d->nent) {
        t->overflow += (uint64_t)(once != 0) + (more != NULL ? more->n : 0);
        return;
    }
    {
        struct dapto_qentry *qe = (struct dapto_qentry *)(void *)e;

        rtq_seq_step(&qe->seq);
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
        if (once) {
            update(e, d, iv, dv, fresh);
            fresh = 0;
        }
        if (more != NULL)
            update_more(e, d, more, fresh);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        rtq_seq_step(&qe->seq);
    }
}

/* The keys of question D an event gives, and its value when that is a
 * parameter (not for a start, FLAGS QSTART), read through ARG into *R:
 * 0, or -1 when it gives none (not the question's, or not counted). */
static int read_event(const struct dapto_question *d, unsigned int flags, uint32_t tid,
                      rtq_arg_fn arg, const void *ctx, struct qread *r)
{
    unsigned int i;

    for (i = 0; i < d->nkeys; i++)
        if (key_value(d, i, tid, arg, ctx, &r->k[i]) != 0)
            return -1;
    r->iv = 0;
    r->dv = 0;
    if (!(flags & DAPTO_CL_QSTART) &&
        (d->value == DAPTO_QV_INT || d->value == DAPTO_QV_DOUBLE) &&
        the_value(d, NULL, NULL, arg, ctx, NULL, &r->iv, &r->dv) != 0)
        return -1;
    return 0;
}

static void count_event(const struct rtq_env *env, const struct geom *g,
                        struct qdef *qd, unsigned int flags, uint32_t tid,
                        rtq_arg_fn arg, const void *ctx)
{
    struct qread r;

    count_read(env, g, qd, flags, tid,
               read_event(&qd->d, flags, tid, arg, ctx, &r) == 0 ? &r : NULL, 1, NULL);
}

/* ---- a signal handler's events while its thread counts ---- */

/* A signal handler's event of question Q that came while its thread was
 * counting (rt_qt.busy): what it gives, copied, to be counted once the
 * thread lets go, as if it came right after the event the thread was
 * counting.  Counting it at once could undo the thread's update, or be
 * undone by it (a table cleared, an entry taken for another key).  When
 * every place is taken (the thread holds on long: its table's first
 * clearing faults the table's pages in, a millisecond or more), the event
 * is added to a kept one of the same keys (MORE), or counted at once when
 * the thread is between two kept events, else counted as lost
 * <protocol#question>. */
struct qdeferred {
    const struct rtq_env *env;
    unsigned int q, flags;
    uint32_t tid, epoch; /* (of the definition: a reset drops it) */
    /* rt_qdq.gen when written whole, events may be added to it (0: never);
     * whether the event itself is counted (MORE may be yet) */
    unsigned int gen;
    int counted;
    struct qread r;
    unsigned char text[2][DAPTO_Q_TEXT];
    struct qmore more;
};
#define RTQ_DEFERRED 8
static __thread struct qdeferred rt_qdefer[RTQ_DEFERRED];

/* How the thread counts the kept events: their generation (one more each
 * time all are counted), whether it is counting them (DRAIN), the one it
 * is counting (CUR, its index + 1; RTQ_DEFERRED + 1 for the lost ones; 0:
 * none, between two), whether a handler is adding to one (ADDING: one
 * interrupting it adds none), and each question's events that no handler
 * could keep (in LOST_ENV, of thread TID), until the thread adds them to
 * its table's count of lost events. */
static __thread struct {
    unsigned int gen, cur;
    int drain, adding;
    uint32_t tid;
    uint64_t lost[DAPTO_Q_MAX];
    const struct rtq_env *lost_env[DAPTO_Q_MAX];
} rt_qdq = {1, 0, 0, 0, 0, {0}, {NULL}};

/* Whether kept event R holds the same keys of question D as event K. */
static int same_read(const struct dapto_question *d, const struct qread *r,
                     const struct qread *k)
{
    unsigned int i;

    for (i = 0; i < d->nkeys; i++) {
        if (r->k[i].word != k->k[i].word || r->k[i].hash != k->k[i].hash ||
            (r->k[i].s == NULL) != (k->k[i].s == NULL))
            return 0;
        if (r->k[i].s != NULL &&
            memcmp(r->k[i].s, k->k[i].s, r->k[i].n < DAPTO_Q_TEXT ? r->k[i].n : DAPTO_Q_TEXT) != 0)
            return 0;
    }
    return 1;
}

/* Add event R of question QD (Q, in ENV, of thread TID; a
 * DAPTO_CL_QUESTION clause's) to a kept event of the same keys that the
 * thread is not counting: 0, or -1 when there is none. */
static int defer_more(const struct rtq_env *env, const struct qdef *qd, unsigned int q,
                      uint32_t tid, const struct qread *r)
{
    const struct dapto_question *d = &qd->d;
    struct qdeferred *w = NULL;
    struct qmore *m;
    unsigned int i;
    int64_t v = r->iv;
    double dv = r->dv, x;

    for (i = 0; i < RTQ_DEFERRED; i++) {
        w = &rt_qdefer[i];
        if (w->gen == rt_qdq.gen && i + 1 != rt_qdq.cur && w->env == env && w->q == q &&
            w->flags == DAPTO_CL_QUESTION && w->tid == tid && w->epoch == d->epoch &&
            same_read(d, &w->r, r))
            break;
    }
    if (i == RTQ_DEFERRED)
        return -1;
    m = &w->more;
    if (m->n == 0) {
        memset(m, 0, sizeof *m);
        memcpy(&m->min, d->value == DAPTO_QV_DOUBLE ? (const void *)&dv : (const void *)&v, 8);
        m->max = m->min;
    }
    if (d->value == DAPTO_QV_DOUBLE) {
        memcpy(&x, &m->sum, 8);
        x += dv;
        memcpy(&m->sum, &x, 8);
        memcpy(&x, &m->min, 8);
        if (dv < x)
            memcpy(&m->min, &dv, 8);
        memcpy(&x, &m->max, 8);
        if (dv > x)
            memcpy(&m->max, &dv, 8);
        v = hist_int(dv);
    } else {
        m->sum += (uint64_t)v;
        if (v < (int64_t)m->min)
            m->min = (uint64_t)v;
        if (v > (int64_t)m->max)
            m->max = (uint64_t)v;
    }
    if (d->flags & DAPTO_QF_HIST)
        m->hist[rtq_bucket(v)]++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    m->n++; /* (last: the thread counts M once N says so) */
    return 0;
}

/* No place left for an event of question QD (Q, in ENV, of thread TID):
 * added to a kept one of the same keys, or counted at once when the
 * thread is between two kept ones (it holds nothing then), else counted
 * as lost. */
static __attribute__((noinline)) void defer_full(const struct rtq_env *env,
                                                 const struct geom *g, struct qdef *qd,
                                                 unsigned int q, unsigned int flags,
                                                 uint32_t tid, rtq_arg_fn arg,
                                                 const void *ctx)
{
    struct qread r;
    int rc;

    if (rt_qdq.drain && rt_qdq.cur == 0) {
        count_event(env, g, qd, flags, tid, arg, ctx);
        return;
    }
    if (read_event(&qd->d, flags, tid, arg, ctx, &r) != 0)
        return; /* not the question's: nothing to count */
    /* (an integer, a double or no value: as the event gives it) */
    if (flags == DAPTO_CL_QUESTION && qd->d.value <= DAPTO_QV_DOUBLE && !rt_qdq.adding) {
        rt_qdq.adding = 1;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        rc = defer_more(env, qd, q, tid, &r);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        rt_qdq.adding = 0;
        if (rc == 0)
            return;
    }
    rt_qdq.lost_env[q] = env;
    rt_qdq.tid = tid;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_fetch_add(&rt_qdq.lost[q], 1, __ATOMIC_RELAXED);
}

/* Keep the event for later (see qdeferred). */
static void defer(const struct rtq_env *env, const struct geom *g, struct qdef *qd,
                  unsigned int q, unsigned int flags, uint32_t tid, rtq_arg_fn arg,
                  const void *ctx)
{
    struct qdeferred *w;
    unsigned int n, i;

    /* (one instruction: a handler nested in this one takes another) */
    n = __atomic_fetch_add(&rt_qt.ndef, 1, __ATOMIC_RELAXED);
    if (n >= RTQ_DEFERRED) {
        defer_full(env, g, qd, q, flags, tid, arg, ctx);
        return;
    }
    w = &rt_qdefer[n];
    w->gen = 0;
    w->counted = 0;
    w->more.n = 0;
    w->env = env;
    w->q = q;
    w->flags = flags;
    w->tid = tid;
    w->epoch = qd->d.epoch;
    if (read_event(&qd->d, flags, tid, arg, ctx, &w->r) != 0) {
        w->flags = 0; /* not the question's: nothing to count */
        return;
    }
    for (i = 0; i < qd->d.nkeys; i++) {
        if (w->r.k[i].s != NULL) {
            memcpy(w->text[i], w->r.k[i].s,
                   w->r.k[i].n < DAPTO_Q_TEXT ? w->r.k[i].n : DAPTO_Q_TEXT);
            w->r.k[i].s = w->text[i];
        }
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    w->gen = rt_qdq.gen;
}

/* Add the events no handler could keep to their questions' tables' count
 * of lost events (the thread holds rt_qt.busy). */
static __attribute__((noinline)) void count_lost(void)
{
    struct dapto_question_area *h;
    const struct rtq_env *env;
    const struct geom *g;
    struct dapto_qtable *t;
    unsigned char *slot, *ents;
    struct qdef *qd;
    uint64_t n;
    unsigned int q;

    for (q = 0; q < DAPTO_Q_MAX; q++) {
        if (__atomic_load_n(&rt_qdq.lost[q], __ATOMIC_RELAXED) == 0)
            continue;
        env = rt_qdq.lost_env[q];
        n = __atomic_exchange_n(&rt_qdq.lost[q], 0, __ATOMIC_RELAXED);
        qd = cached_def(env, q, &g);
        if (qd == NULL)
            continue;
        h = (struct dapto_question_area *)(void *)env->area;
        slot = thread_slot(env, h, g->nthreads, g->slot_size, g->tabs_off);
        if (slot == NULL)
            continue;
        t = table_of(slot, &qd->d, rt_qdq.tid, &ents);
        t->lost += n;
    }
}

/* Count the events kept while the thread counted (it holds rt_qt.busy);
 * more may come meanwhile, from handlers interrupting this: a handler's
 * event taking a place makes ndef change, one added to a kept event makes
 * it counted again (its MORE). */
static __attribute__((noinline)) void count_deferred(void)
{
    unsigned int k, n;

    rt_qdq.drain = 1;
    for (;;) {
        n = __atomic_load_n(&rt_qt.ndef, __ATOMIC_RELAXED);
        for (k = 0; k < n && k < RTQ_DEFERRED; k++) {
            struct qdeferred *w = &rt_qdefer[k];
            const struct geom *g;
            struct qdef *qd;

            if (w->flags == 0 || (w->counted && w->more.n == 0))
                continue;
            /* (nothing is added to it meanwhile) */
            rt_qdq.cur = k + 1;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            qd = cached_def(w->env, w->q, &g);
            if (qd != NULL && qd->d.epoch == w->epoch)
                count_read(w->env, g, qd, w->flags, w->tid, &w->r, !w->counted,
                           w->more.n != 0 ? &w->more : NULL);
            w->counted = 1;
            w->more.n = 0;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            rt_qdq.cur = 0;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
        }
        if (n > RTQ_DEFERRED) {
            rt_qdq.cur = RTQ_DEFERRED + 1;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            count_lost();
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            rt_qdq.cur = 0;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
        }
        /* (a handler's event since N was read changed ndef) */
        if (__atomic_compare_exchange_n(&rt_qt.ndef, &n, 0, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            break;
    }
    /* the places taken from here on are of the next generation */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_qdq.gen = rt_qdq.gen + 1 != 0 ? rt_qdq.gen + 1 : 1;
    rt_qdq.drain = 0;
}

/* No kept event, none lost (a forked child's, or the area forgotten). */
static void forget_deferred(void)
{
    unsigned int k;

    for (k = 0; k < RTQ_DEFERRED; k++)
        rt_qdefer[k].gen = 0;
    memset(&rt_qdq, 0, sizeof rt_qdq);
    rt_qdq.gen = 1;
}

void rtq_let_go_slow(void)
{
    while (__atomic_load_n(&rt_qt.ndef, __ATOMIC_RELAXED) != 0) {
        rt_qt.busy = 1;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        count_deferred();
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        rt_qt.busy = 0;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
}

/* The thread stops counting: what handlers kept meanwhile is counted
 * now (and what they keep while that is counted). */
static inline void let_go(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_qt.busy = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (DAPTO_UNLIKELY(__atomic_load_n(&rt_qt.ndef, __ATOMIC_RELAXED) != 0))
        rtq_let_go_slow();
}

/* ---- the calling-context tree of functions <protocol#cct> ---- */

static void cct_forget(void)
{
    memset(&rt_qt.cct, 0, sizeof rt_qt.cct);
}

/* Entry NODE - 1 of the planned table, or NULL for the root (0) and
 * anything out of range (a table the program scribbled on). */
static inline struct dapto_qentry *plan_entry(uint64_t node)
{
    if (node - 1 >= rt_qt.cct.nent)
        return NULL;
    return (struct dapto_qentry *)(void *)(rt_qt.cct.ents + (size_t)(node - 1) * rt_qt.cct.ent_size);
}

/* Check the tree's definition and find (or clear) the thread's table, as
 * every question's is; keep the plan in rt_qt.cct.  0, or -1 when there is
 * no sound tree or no slot.  The caller holds rt_qt.busy. */
static __attribute__((noinline)) int cct_plan(const struct rtq_env *env, uint32_t tid)
{
    struct dapto_question_area *h = (struct dapto_question_area *)(void *)env->area;
    const struct geom *g;
    struct qdef *qd;
    unsigned char *slot, *ents;
    struct dapto_qtable *t;

    rt_qt.cct.area = NULL;
    rt_qt.cct.env = NULL;
    if (env->area == NULL || env->size < QAREA_MIN_SIZE || env->now == NULL)
        return -1;
    qd = cached_def(env, DAPTO_Q_CCT, &g);
    if (qd == NULL || qd->d.value != DAPTO_QV_CCT)
        return -1;
    slot = thread_slot(env, h, g->nthreads, g->slot_size, g->tabs_off);
    if (slot == NULL)
        return -1;
    t = table_of(slot, &qd->d, tid, &ents);
    rt_qt.cct.epoch_at = &((const struct dapto_question *)(const void *)(env->area + g->defs_off) +
                        DAPTO_Q_CCT)->epoch;
    rt_qt.cct.epoch = qd->d.epoch;
    rt_qt.cct.nent = qd->d.nent;
    rt_qt.cct.ent_size = qd->d.ent_size;
    rt_qt.cct.mult = qd->d.mult;
    rt_qt.cct.t = t;
    rt_qt.cct.ents = ents;
    rt_qt.cct.cur = plan_entry(t->depth);
    rt_qt.cct.since = t->since;
    rt_qt.cct.slotp = env->slot;
    rt_qt.cct.area = env->area;
    rt_qt.cct.env = env->tsc ? env : NULL;
    return 0;
}

static inline uint64_t plan_now(const struct rtq_env *env)
{
    if (rt_qt.cct.mult == 0)
        return 0; /* no time kept: no clock read */
#if defined(__x86_64__) || defined(__i386__)
    if (env->tsc)
        return __rdtsc();
#endif
    return env->now();
}

/* The time since the last entry or exit, NOW - SINCE, added to the self
 * time of the current path CUR. */
static inline __attribute__((always_inline)) void charge(struct dapto_qentry *cur,
                                                          uint64_t now, uint64_t since)
{
    uint32_t seq;

    if (cur == NULL || since == 0 || now <= since)
        return;
    seq = cur->seq;
    __atomic_store_n(&cur->seq, seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    cur->sum += (uint64_t)(((unsigned __int128)(now - since) * rt_qt.cct.mult) >> 32);
    __atomic_store_n(&cur->seq, seq + 2, __ATOMIC_RELEASE);
}

/* An exit of FN that is not the current path's: back to the caller of
 * the innermost FN above it (its callees were left without their exits,
 * a longjmp); none: counted unmatched, the path stays. */
static __attribute__((noinline)) void cct_unwind(struct dapto_qtable *t,
                                                 struct dapto_qentry *e, uint64_t fn)
{
    uint32_t n;

    for (n = 0; n < DAPTO_Q_CCT_DEPTH && e != NULL; n++) {
        if (e->key[1] == fn) {
            t->depth = (uint32_t)e->key[0];
            rt_qt.cct.cur = plan_entry(e->key[0]);
            return;
        }
        e = plan_entry(e->key[0]);
    }
    t->unmatched++;
}

/* An entry of FN: the child path of the current one, found or made
 * (from the probe at IDX on), counted, and the current path when ENTER
 * (an event's entry is never entered). */
static __attribute__((noinline)) void cct_child(struct dapto_qtable *t, uint64_t node,
                                                uint64_t fn, uint64_t hash, uint32_t idx,
                                                int enter)
{
    struct dapto_qentry *e;
    uint32_t n, seq, mask = rt_qt.cct.nent - 1;

    for (n = 0;; n++, idx = (idx + 1) & mask) {
        if (n > mask) {
            t->overflow++;
            return;
        }
        e = (struct dapto_qentry *)(void *)(rt_qt.cct.ents + (size_t)idx * rt_qt.cct.ent_size);
        if (e->hash == hash && e->key[0] == node && e->key[1] == fn)
            break;
        if (e->hash == 0)
            break;
    }
    seq = e->seq;
    __atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (e->hash == 0) {
        e->key[0] = node;
        e->key[1] = fn;
        e->hash = hash;
    }
    e->count++;
    __atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
    if (enter) {
        t->depth = idx + 1;
        rt_qt.cct.cur = e;
    }
}

/* rtq_function() on the thread's plan, which holds, at time NOW; the
 * caller holds rt_qt.busy. */
static inline __attribute__((always_inline)) void cct_count(uint64_t now, int enter,
                                                             uint64_t fn)
{
    struct dapto_qtable *t = rt_qt.cct.t;
    struct dapto_qentry *e, *cur = rt_qt.cct.cur;
    uint64_t hash, node;
    uint32_t idx, seq;

    /* the time since the last entry or exit is the current path's */
    charge(cur, now, rt_qt.cct.since);
    rt_qt.cct.since = now;
    t->since = now;
    if (!enter) {
        /* back to the caller of the current path, when it is FN's */
        if (DAPTO_LIKELY(cur != NULL && cur->key[1] == fn)) {
            node = cur->key[0];
            t->depth = (uint32_t)node;
            rt_qt.cct.cur = plan_entry(node);
        } else {
            cct_unwind(t, cur, fn);
        }
        return;
    }
    /* the child FN of the current node: at its first probe, or found or
     * made further */
    node = t->depth;
    hash = mix(node * 0x9e3779b97f4a7c15ull ^ fn) | 1;
    idx = (uint32_t)hash & (rt_qt.cct.nent - 1);
    e = (struct dapto_qentry *)(void *)(rt_qt.cct.ents + (size_t)idx * rt_qt.cct.ent_size);
    if (DAPTO_LIKELY(e->hash == hash && e->key[0] == node && e->key[1] == fn)) {
        seq = e->seq;
        __atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        e->count++;
        __atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
        t->depth = idx + 1;
        rt_qt.cct.cur = e;
    } else {
        cct_child(t, node, fn, hash, idx, 1);
    }
}

/* rtq_event() on the thread's plan, which holds; the caller holds
 * rt_qt.busy.  No time is charged: the path stays. */
static inline __attribute__((always_inline)) void cct_event(uint64_t key)
{
    struct dapto_qtable *t = rt_qt.cct.t;
    struct dapto_qentry *e;
    uint64_t node = t->depth, hash = mix(node * 0x9e3779b97f4a7c15ull ^ key) | 1;
    uint32_t idx = (uint32_t)hash & (rt_qt.cct.nent - 1), seq;

    e = (struct dapto_qentry *)(void *)(rt_qt.cct.ents + (size_t)idx * rt_qt.cct.ent_size);
    if (DAPTO_LIKELY(e->hash == hash && e->key[0] == node && e->key[1] == key)) {
        seq = e->seq;
        __atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        e->count++;
        __atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
    } else {
        cct_child(t, node, key, hash, idx, 0);
    }
}

/* rtq_function() when the thread's plan may not hold: the attach
 * checked, the plan made again. */
static __attribute__((noinline)) void cct_slow(const struct rtq_env *env, int enter,
                                               uint64_t fn, uint32_t tid)
{
    if (rt_qt.busy)
        return; /* a signal handler's call inside another: not counted */
    check_epoch(env);
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if ((rt_qt.cct.area == env->area && rt_qt.cct.area != NULL &&
         rt_qt.cct.slotp == env->slot &&
         __atomic_load_n(rt_qt.cct.epoch_at, __ATOMIC_ACQUIRE) == rt_qt.cct.epoch) ||
        cct_plan(env, tid) == 0)
        cct_count(plan_now(env), enter, fn);
    let_go();
}

void rtq_function(const struct rtq_env *env, int enter, uint64_t fn, uint32_t tid)
{
#if defined(__x86_64__) || defined(__i386__)
    /* the plan holds while the thread is not counting already, and the
     * attach, the area, the slot and the definition are those it was
     * made for; the TSC read inline, other clocks on the way of
     * cct_slow() */
    if (DAPTO_UNLIKELY(rt_qt.busy || rt_qt.cct.env != env || rt_qt.cct.area != env->area ||
                       rt_qt.cct.slotp != env->slot ||
                       (env->epoch != NULL &&
                        __atomic_load_n(env->epoch, __ATOMIC_ACQUIRE) != rt_qt.epoch) ||
                       __atomic_load_n(rt_qt.cct.epoch_at, __ATOMIC_ACQUIRE) !=
                           rt_qt.cct.epoch)) {
        cct_slow(env, enter, fn, tid);
        return;
    }
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* (a tree that keeps no time, mult 0, reads no clock: the monitor
     * samples its current path) */
    cct_count(DAPTO_LIKELY(rt_qt.cct.mult != 0) ? __rdtsc() : 0, enter, fn);
    let_go();
#else
    cct_slow(env, enter, fn, tid);
#endif
}

void rtq_event(const struct rtq_env *env, uint32_t code, uint32_t tid)
{
    if (rt_qt.busy)
        return; /* a signal handler's event inside another: not counted */
    check_epoch(env);
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* the plan as the hooks last left it, when it is this area's and its
     * definition's (else made: a thread that entered nothing the tree
     * holds, or not since it was defined, counts at the top) */
    if ((rt_qt.cct.area == env->area && rt_qt.cct.area != NULL &&
         rt_qt.cct.slotp == env->slot &&
         __atomic_load_n(rt_qt.cct.epoch_at, __ATOMIC_ACQUIRE) == rt_qt.cct.epoch) ||
        cct_plan(env, tid) == 0)
        cct_event(DAPTO_CCT_EVENT | code);
    let_go();
}
