/* SPDX-License-Identifier: MIT */
/*
 * rtfilter.c - filters in the program <protocol#filter>: a filter read
 * from the area and its clauses evaluated on an event's encoded values
 * (the commonest shapes without the machine, which is rtfilter-run.c),
 * hit counting, the filter's and clauses' counters <protocol#counters>,
 * and the event path's entries on the attached runtime.
 *
 * Nothing read from the filter area is trusted: the program may have
 * written anything there.  Every field is copied once into a local and
 * checked there; every read of the area or of the values is bounded by
 * their sizes.  A clause whose program goes wrong does not hold.  No
 * allocation, no stdio, no system call; errno is untouched.
 *
 * A filter of the commonest shape, once checked, is kept by the thread
 * <protocol#filter-gen> and evaluated from what was kept for as long as
 * its directory entry and the area's generation stay the same: the hot
 * path of a false condition reads two words of the area.
 */
#include "config.h"

#include <string.h>

#include "dapto.h"
#include "intern.h"
#include "rtfilter-int.h"
#include "rtrelate.h"
#include "runtime.h"

/* The thread's counter slot; NULL until it first counts, and reset in a
 * forked child. */
RT_TLS __thread uint64_t *rt_cnt;

/* The thread's cache of filters <protocol#filter-gen>; whether an
 * evaluation uses it (a signal handler's evaluation then goes without);
 * the attach (runtime.epoch) the thread's slot and cache belong to.  One
 * variable, so that the event path finds all three at one address; reset
 * in a forked child (rtfilter_fork_child). */
static RT_TLS __thread struct {
    struct rtfilter_cache c;
    int busy;
    uint32_t epoch;
} rt_ft;

/* Attaches that had quick clauses so far (dapto_quick_epoch's values,
 * never 0; the clauses themselves are rtrail.c's). */
static unsigned int quick_attaches;

/* A filter's header and a clause, each read from the area as whole
 * 8-aligned words with single loads, so that the copy checked is the copy
 * used, whatever the program writes meanwhile. */
union fhead {
    uint64_t w;
    struct dapto_filter h;
};

union fclause {
    uint64_t w[3];
    struct dapto_clause c;
};

_Static_assert(sizeof(struct dapto_filter) == 8, "a filter header is a word");
_Static_assert(sizeof(struct dapto_clause) == 24, "a clause is three words");

/* Integer value K of the record (INT, LONG or PTR) into *V: 0, or -1 when
 * there is none. */
static inline __attribute__((always_inline)) int
arg_int(const struct run *r, unsigned int k, int64_t *v)
{
    const unsigned char *p;
    int32_t i32;
    size_t room;

    if (r->args != NULL) {
        if (k >= r->nargs || (r->params[k].kind != DAPTO_K_INT &&
                              r->params[k].kind != DAPTO_K_LONG &&
                              r->params[k].kind != DAPTO_K_PTR))
            return -1;
        *v = r->args[k].i;
        return 0;
    }
    p = k == 0 ? r->vals : rtfilter_value_at(r, k);
    if (p == NULL || p >= r->vend)
        return -1;
    room = (size_t)(r->vend - p);
    if (*p == DAPTO_K_INT && room >= 5) {
        memcpy(&i32, p + 1, 4);
        *v = i32;
        return 0;
    }
    if ((*p == DAPTO_K_LONG || *p == DAPTO_K_PTR) && room >= 9) {
        memcpy(v, p + 1, 8);
        return 0;
    }
    return -1;
}

/* The commonest program, `ARG k, CONST v, CMPI/CMPU c, END` (a parameter
 * against a constant): 0 and its parameter, comparison and constant in
 * *D when PC (N bytes) is one, -1 when it is not. */
struct cmp_arg {
    unsigned int arg, op;
    int64_t value;
};

static inline __attribute__((always_inline)) int
decode_cmp(const unsigned char *pc, uint32_t n, struct cmp_arg *d)
{
    if (n != 13 || pc[0] != DAPTO_FOP_ARG || pc[2] != DAPTO_FOP_CONST ||
        pc[12] != DAPTO_FOP_END)
        return -1;
    d->op = pc[11];
    if (d->op - DAPTO_FOP_CMPI > DAPTO_FCMP_GE &&
        d->op - DAPTO_FOP_CMPU > DAPTO_FCMP_GE)
        return -1;
    d->arg = pc[1];
    memcpy(&d->value, pc + 3, 8);
    return 0;
}

/* Whether such a comparison D holds on the record (not when the parameter
 * is not an integer), without the machine. */
static inline __attribute__((always_inline)) int
compare_arg(const struct run *r, const struct cmp_arg *d)
{
    int64_t a;

    if (arg_int(r, d->arg, &a) != 0)
        return 0;
    if (d->op - DAPTO_FOP_CMPI <= DAPTO_FCMP_GE)
        return cmp_result((int)(d->op & 7), a < d->value, a == d->value);
    return cmp_result((int)(d->op & 7), (uint64_t)a < (uint64_t)d->value,
                      a == d->value);
}

/* The prefix of a clause of -within or -outside <protocol#relate>:
 * `WITHIN c, [NOT,]` then `END` (ALONE: the clause is that alone) or
 * `JF 12` and a comparison (decode_cmp).  Returns the comparison's
 * offset in PC (N bytes), or 0 when PC is not of these shapes. */
static inline __attribute__((always_inline)) uint32_t
decode_within(const unsigned char *pc, uint32_t n, unsigned int *c, unsigned int *neg,
              int *alone)
{
    uint32_t k = 2;

    if (n < 3 || pc[0] != DAPTO_FOP_WITHIN || pc[1] >= DAPTO_REL_COMPS)
        return 0;
    *c = pc[1];
    *neg = pc[2] == DAPTO_FOP_NOT;
    k += *neg;
    if (k + 1 == n && pc[k] == DAPTO_FOP_END) {
        *alone = 1;
        return k;
    }
    if (k + 3 + 13 == n && pc[k] == DAPTO_FOP_JF && pc[k + 1] == 12 && pc[k + 2] == 0) {
        *alone = 0;
        return k + 3;
    }
    return 0;
}

/* Whether the thread's components MASK hold for -within (or, NEG,
 * -outside) component C. */
static inline int within_holds(uint64_t mask, unsigned int c, unsigned int neg)
{
    return (int)(((mask >> c) & 1) ^ neg);
}

/* The components on the thread's stack, as ENV (or, NULL, the
 * runtime) finds them. */
static uint64_t within_mask(const struct rtfilter_env *env)
{
    if (env == NULL)
        return rt_rel_mask();
    return env->within != NULL ? env->within() : 0;
}

/* The program that always holds: `CONST 1, END`. */
static const unsigned char always_prog[] = {DAPTO_FOP_CONST, 1, 0, 0, 0, 0, 0, 0, 0,
                                            DAPTO_FOP_END};

/* Add 1 to counter ID of ENV's slots. */
static inline void count(const struct rtfilter_env *env, unsigned int id)
{
    uint64_t *c;

    if (id >= DAPTO_CNT_PER_SLOT || env->mine == NULL)
        return;
    c = &env->mine[id];
    if (env->mine == env->shared)
        __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
    else /* <protocol#counters>: the slot's only writer */
        dapto_own_add1(c);
}

/* Whether clause CL, whose program held, fires on this hit. */
static int hit_fires(const struct rtfilter_env *env, const struct dapto_clause *cl)
{
    uint64_t h, k;

    if (cl->hits < DAPTO_CNT_PER_SLOT && env->shared != NULL)
        h = __atomic_add_fetch(&env->shared[cl->hits], 1, __ATOMIC_RELAXED);
    else if (cl->flags & DAPTO_CL_HITS)
        return 0; /* nothing to count hits in */
    else
        return 1;
    if (!(cl->flags & DAPTO_CL_HITS))
        return 1;
    if (cl->every == 0 || h <= cl->after)
        return 0;
    k = h - cl->after;
    return k % cl->every == 0 && (cl->count == 0 || k / cl->every <= cl->count);
}

/* The end of an evaluation that read a filter: the clauses that fired
 * FIRED, the state OUT it goes on with; counts in PASSED (the filter's). */
static unsigned int eval_done(const struct rtfilter_env *env, unsigned int out,
                              unsigned int fired, unsigned int passed,
                              uint16_t *flags)
{
    if (out != 0) {
        count(env, passed);
        *flags |= (uint16_t)(DAPTO_RECF_FILTERED | fired << DAPTO_RECF_CLAUSE_SHIFT);
    }
    return out;
}

/* Add 1 to counter C of a cached filter (its sink when it has none),
 * atomically when ATOMIC (slot 0) <protocol#counters>. */
static inline __attribute__((always_inline)) void bump(uint64_t *c, int atomic)
{
    if (atomic)
        __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
    else
        dapto_own_add1(c);
}

/* The rest of a cached filter's evaluation once its clause held (HELD) or
 * not, with counter slots SHARED and MINE. */
static const char *istr_name(uint32_t id, uint32_t *len);

static __attribute__((noinline)) unsigned int
cached_rest(uint64_t *shared, uint64_t *mine, const struct rtfilter_cached *ce,
            int held, uint16_t *flags, const struct rtfilter_env *outer,
            uint32_t tid, const struct run *rv)
{
    struct rtfilter_env env;
    unsigned int out = ce->uncond, fired = 0;

    env.shared = shared;
    env.mine = mine;
    if (ce->question) {
        /* <protocol#question>: counted, sent nowhere */
        const struct rtq_env *q = outer != NULL ? outer->q
                                  : runtime.q.area != NULL ? &runtime.q : NULL;
        struct run r = *rv;
        unsigned int qi = ce->cl.c.every - 1u;

        if (held && q != NULL &&
            (ce->cl.c.flags != DAPTO_CL_QUESTION || rtq_open(q))) {
            if (tid == 0)
                tid = rt_thread();
            bump(ce->cpassed, ce->atomic);
            /* the commonest shapes straight from the values */
            if ((r.args != NULL
                     ? rtq_fire_args(q, qi, ce->cl.c.flags, tid, r.args, r.params, r.nargs)
                     : rtq_fire_vals(q, qi, ce->cl.c.flags, tid, r.vals,
                                     (uint32_t)(r.vend - r.vals))) != 0) {
                env.tid = tid;
                env.istr = outer != NULL ? outer->istr : istr_name;
                r.env = &env;
                rtq_fire(q, qi, ce->cl.c.flags, tid, rtfilter_question_arg, &r);
            }
        }
        /* as the filter read from the area says (eval_read) */
        return eval_done(&env, out, 0, ce->passed, flags);
    }
    if (ce->part) {
        /* <protocol#relate>: handed to the derived event, sent nowhere */
        void (*part)(unsigned int, unsigned int, rtq_arg_fn, const void *) =
            outer != NULL ? outer->part : rt_rel_part;
        struct run r = *rv;

        if (held && part != NULL) {
            bump(ce->cpassed, ce->atomic);
            env.tid = tid != 0 ? tid : rt_thread();
            env.istr = outer != NULL ? outer->istr : istr_name;
            r.env = &env;
            part(ce->cl.c.every - 1u, ce->cl.c.count, rtfilter_question_arg, &r);
        }
        return eval_done(&env, out, 0, ce->passed, flags);
    }
    if (held && hit_fires(&env, &ce->cl.c)) {
        count(&env, ce->cl.c.passed);
        fired = 1;
        out |= ce->cl.c.bits & (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP);
    }
    return eval_done(&env, out, fired, ce->passed, flags);
}

/* Evaluate cached filter CE (its directory entry and the area's
 * generation unchanged since it was checked) on values VALS (LEN bytes)
 * <protocol#filter-gen>: no byte of the area is read. */
static inline __attribute__((always_inline)) unsigned int
eval_cached(uint64_t *shared, uint64_t *mine, const struct rtfilter_cached *ce,
            const unsigned char *vals, uint32_t len, uint16_t *flags,
            const struct rtfilter_env *outer, uint32_t tid)
{
    /* all of it first: the counters might alias it for all the compiler
     * knows */
    uint64_t *c0 = ce->checked[0], *c1 = ce->checked[1];
    uint64_t lo = ce->lo, span = ce->span;
    unsigned int arg = ce->arg, neg = ce->neg, uncond = ce->uncond;
    int atomic = ce->atomic, held;
    struct run r;
    int64_t a;

    bump(c0, atomic);
    bump(c1, atomic);
    r.vals = vals;
    r.vend = vals + len;
    r.args = NULL;
    held = ce->always ||
           (arg_int(&r, arg, &a) == 0 && (((uint64_t)a - lo <= span) ^ neg));
    if (DAPTO_UNLIKELY(ce->wbit != 0) && held)
        held = ((within_mask(outer) & ce->wbit) != 0) ^ ce->wneg;
    if (DAPTO_LIKELY(!held && uncond == 0))
        return 0;
    return cached_rest(shared, mine, ce, held, flags, outer, tid, &r);
}

/* eval_cached() on the arguments ARGS of event EV (CE's plan made for EV:
 * plan_args), which the record would hold whole: the same answer. */
static inline __attribute__((always_inline)) unsigned int
eval_cached_args(uint64_t *shared, uint64_t *mine, const struct rtfilter_cached *ce,
                 const struct dapto_event *ev, const union dapto_arg *args,
                 uint16_t *flags, const struct rtfilter_env *outer, uint32_t tid)
{
    uint64_t *c0 = ce->checked[0], *c1 = ce->checked[1];
    uint64_t lo = ce->lo, span = ce->span;
    unsigned int neg = ce->neg, uncond = ce->uncond, amode = ce->amode;
    int atomic = ce->atomic, held;
    struct run r;

    bump(c0, atomic);
    bump(c1, atomic);
    held = amode == 0 ? (((uint64_t)args[ce->arg].i - lo <= span) ^ neg) : amode == 1;
    if (DAPTO_UNLIKELY(ce->wbit != 0) && held)
        held = ((within_mask(outer) & ce->wbit) != 0) ^ ce->wneg;
    if (DAPTO_LIKELY(!held && uncond == 0))
        return 0;
    r.vals = r.vend = NULL;
    r.args = args;
    r.params = ev->params;
    r.nargs = ev->nparams;
    return cached_rest(shared, mine, ce, held, flags, outer, tid, &r);
}

/* Plan kept filter CE for the arguments of event EV: how its clause reads
 * them (amode), and whether EV is one whose arguments the entry is
 * evaluated on directly (HOT; its clause reads no string, whose record
 * might be cut; STRS when EV has one, which a question's counting may
 * read).  Returns 1 for an event without strings, 0 for one with strings
 * (then, in the general path, rtfilter_args_fit decides each time), -1
 * for one with a user type (never on its arguments). */
static int plan_args(struct rtfilter_cached *ce, const struct dapto_event *ev)
{
    const struct dapto_param *pa = ev->params;
    unsigned int k, n = ev->nparams, kind;
    int str = 0;

    ce->hot = NULL;
    ce->strs = 0;
    ce->quick = 0;
    for (k = 0; k < n; k++) {
        kind = pa[k].kind;
        if (kind == DAPTO_K_STR)
            str = 1;
        else if (kind != DAPTO_K_INT && kind != DAPTO_K_LONG &&
                 kind != DAPTO_K_DOUBLE && kind != DAPTO_K_PTR)
            return -1;
    }
    kind = ce->arg < n ? pa[ce->arg].kind : 0;
    ce->amode = ce->always ? 1
                : kind == DAPTO_K_INT || kind == DAPTO_K_LONG || kind == DAPTO_K_PTR ? 0
                : 2;
    ce->hot = ev;
    ce->strs = (uint8_t)str;
    ce->quick = ce->amode == 0 && !ce->question && !ce->part && ce->wbit == 0 &&
                !ce->atomic && (ce->uncond & ~(unsigned int)DAPTO_STATE_TRAIL) == 0;
    return str ? 0 : 1;
}

/* Keep filter D of event CODE, read at OFF in generation GEN with header
 * FH and clause CL, in CE for ENV's thread. */
static void cache_keep(const struct rtfilter_env *env, struct rtfilter_cached *ce,
                       uint32_t code, uint32_t off, uint32_t gen,
                       const union fhead *fh, const union fclause *cl,
                       const struct cmp_arg *d, int always, uint64_t wbit,
                       unsigned int wneg)
{
    uint64_t v = (uint64_t)d->value, lo, hi;
    int sgn = d->op - DAPTO_FOP_CMPI <= DAPTO_FCMP_GE, empty = 0;
    /* the least and greatest values, as unsigned (offset for signed) */
    uint64_t min = sgn ? (uint64_t)1 << 63 : 0, max = min - 1;

    ce->key = 0;
    ce->neg = 0;
    ce->hot = NULL;
    ce->quick = 0;
    switch (d->op & 7) {
    case DAPTO_FCMP_EQ:
    case DAPTO_FCMP_NE:
        lo = hi = v;
        ce->neg = (d->op & 7) == DAPTO_FCMP_NE;
        break;
    case DAPTO_FCMP_LT:
        empty = v == min;
        lo = min;
        hi = v - 1;
        break;
    case DAPTO_FCMP_LE:
        lo = min;
        hi = v;
        break;
    case DAPTO_FCMP_GT:
        empty = v == max;
        lo = v + 1;
        hi = max;
        break;
    default:
        lo = v;
        hi = max;
        break;
    }
    if (empty) {
        /* nothing is in it: everything is outside the whole range */
        lo = 0;
        hi = UINT64_MAX;
        ce->neg = 1;
    }
    ce->lo = lo;
    ce->span = hi - lo;
    ce->always = (uint8_t)(always != 0);
    ce->wbit = wbit;
    ce->wneg = (uint8_t)(wneg != 0);
    ce->question = (cl->c.flags & (DAPTO_CL_QUESTION | DAPTO_CL_QSTART)) != 0;
    ce->part = (cl->c.flags & DAPTO_CL_PART) != 0;
    ce->off = off;
    ce->gen = gen;
    ce->uncond = (uint8_t)(fh->h.uncond & (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD |
                                           DAPTO_STATE_STOP));
    ce->arg = (uint8_t)d->arg;
    ce->atomic = env->mine == env->shared;
    ce->checked[0] = fh->h.checked < DAPTO_CNT_PER_SLOT && env->mine != NULL
                         ? env->mine + fh->h.checked : &ce->sink;
    ce->checked[1] = cl->c.checked < DAPTO_CNT_PER_SLOT && env->mine != NULL
                         ? env->mine + cl->c.checked : &ce->sink;
    ce->fpassed = fh->h.passed < DAPTO_CNT_PER_SLOT && env->mine != NULL
                      ? env->mine + fh->h.passed : &ce->sink;
    ce->cpassed = cl->c.passed < DAPTO_CNT_PER_SLOT && env->mine != NULL
                      ? env->mine + cl->c.passed : &ce->sink;
    ce->qh.epoch_at = NULL;
    ce->passed = fh->h.passed;
    memcpy(&ce->cl, cl, sizeof ce->cl);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    ce->key = code + 1;
}

/* The filter of event CODE read from the area, checked and evaluated, as
 * rtfilter_eval() says; kept in CE when it can be and CE is not NULL. */
static __attribute__((noinline)) unsigned int
eval_read(const struct rtfilter_env *env, uint32_t code, const struct run *rp,
          unsigned int st, uint16_t *flags, struct rtfilter_cached *ce)
{
    const unsigned char *area = env->area, *f;
    const struct dapto_filter_area *fa = (const struct dapto_filter_area *)(const void *)area;
    union fhead fh;
    union fclause cl;
    struct run r = *rp;
    struct cmp_arg d = {0, 0, 0};
    uint32_t ncodes, off, fsize, i, gen = 0;
    unsigned int out, fired = 0;
    const unsigned char *p;
    int held, fast = 0, always = 0, walone = 0;
    unsigned int wc = 0, wneg = 0;
    uint32_t wrest = 0;

    ncodes = __atomic_load_n(&fa->ncodes, __ATOMIC_RELAXED);
    if (code >= ncodes || code >= (env->size - 8) / 4)
        goto none;
    /* <protocol#filter>: the directory entry last, with acquire */
    off = __atomic_load_n(&fa->dir[code], __ATOMIC_ACQUIRE);
    /* <protocol#filter-gen>: the generation before the filter's bytes */
    if (ce != NULL)
        gen = __atomic_load_n(&fa->gen, __ATOMIC_ACQUIRE);
    if (off == 0 || off % 8 != 0 || off > env->size - sizeof fh)
        goto none;
    f = area + off;
    fh.w = __atomic_load_n((const uint64_t *)(const void *)f, __ATOMIC_RELAXED);
    fsize = fh.h.size;
    if (fsize > DAPTO_FILTER_MAX || fsize > env->size - off ||
        fh.h.nclauses > DAPTO_FILTER_CLAUSES ||
        sizeof fh + (size_t)fh.h.nclauses * sizeof cl > fsize)
        goto none;

    out = fh.h.uncond & (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP);
    count(env, fh.h.checked);
    for (i = 0; i < fh.h.nclauses; i++) {
        const uint64_t *w = (const uint64_t *)(const void *)(f + sizeof fh + i * sizeof cl);

        cl.w[0] = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
        cl.w[1] = __atomic_load_n(&w[1], __ATOMIC_RELAXED);
        cl.w[2] = __atomic_load_n(&w[2], __ATOMIC_RELAXED);
        count(env, cl.c.checked);
        if ((uint32_t)cl.c.prog_off + cl.c.prog_len > fsize)
            continue;
        p = f + cl.c.prog_off;
        wc = wneg = 0;
        wrest = decode_within(p, cl.c.prog_len, &wc, &wneg, &walone);
        if (wrest != 0 && walone) {
            /* -within or -outside alone */
            held = within_holds(within_mask(env), wc, wneg);
            always = 1;
            fast = fh.h.nclauses == 1;
        } else if (decode_cmp(p + wrest, cl.c.prog_len - wrest, &d) == 0) {
            held = (wrest == 0 || within_holds(within_mask(env), wc, wneg)) &&
                   compare_arg(&r, &d);
            fast = fh.h.nclauses == 1;
        } else if (wrest == 0 && cl.c.prog_len == sizeof always_prog &&
                   memcmp(p, always_prog, sizeof always_prog) == 0) {
            /* a clause without a condition (a question's) */
            held = 1;
            always = 1;
            fast = fh.h.nclauses == 1;
        } else {
            wrest = 0;
            held = rtfilter_run(&r, p, p + cl.c.prog_len);
        }
        if (cl.c.flags & DAPTO_CL_PART) {
            /* <protocol#relate>: the event is a part of a derived event */
            if (held && env->part != NULL && cl.c.every >= 1) {
                count(env, cl.c.passed);
                env->part(cl.c.every - 1u, cl.c.count, rtfilter_question_arg, &r);
            }
            continue;
        }
        if (cl.c.flags & DAPTO_CL_WINDOW) {
            /* <protocol#question>: the measurement window */
            fast = 0;
            if (held && env->q != NULL) {
                count(env, cl.c.passed);
                rtq_window(env->q, cl.c.count != 0);
            }
            continue;
        }
        if (cl.c.flags & (DAPTO_CL_QUESTION | DAPTO_CL_QSTART)) {
            /* <protocol#question>: counted in the program, sent nowhere
             * (while the window is open) */
            if (held && env->q != NULL && cl.c.every >= 1 &&
                (cl.c.flags != DAPTO_CL_QUESTION || rtq_open(env->q))) {
                count(env, cl.c.passed);
                rtq_fire(env->q, cl.c.every - 1u, cl.c.flags, env->tid,
                         rtfilter_question_arg, &r);
            }
            continue;
        }
        if (!held || !hit_fires(env, &cl.c))
            continue;
        count(env, cl.c.passed);
        fired |= 1u << i;
        out |= cl.c.bits & (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP);
    }
    if (fast && ce != NULL && gen != 0 && gen % 2 == 0) {
        /* checked whole while the generation stayed even: keep it for
         * the next events of CODE */
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&fa->gen, __ATOMIC_RELAXED) == gen)
            cache_keep(env, ce, code, off, gen, &fh, &cl, &d, always,
                       wrest != 0 ? 1ull << wc : 0, wneg);
    }
    return eval_done(env, out, fired, fh.h.passed, flags);

none:
    return st & ~(unsigned int)DAPTO_STATE_FILTER;
}

/* rtfilter_eval(), with the cached filters inline: the event path's hot
 * part. */
static inline __attribute__((always_inline)) unsigned int
eval_inline(const struct rtfilter_env *env, uint32_t code, const unsigned char *vals,
            uint32_t len, unsigned int st, uint16_t *flags)
{
    const struct dapto_filter_area *fa = (const struct dapto_filter_area *)(const void *)env->area;
    struct rtfilter_cache *cache = env->cache;
    struct rtfilter_cached *ce = NULL;
    struct run r;
    uint32_t off, gen;

    if (fa == NULL || env->size < sizeof(struct dapto_filter_area))
        return st & ~(unsigned int)DAPTO_STATE_FILTER;
    r.vals = vals;
    r.vend = vals + len;
    r.args = NULL;
    r.env = env;
    if (cache != NULL && code < (env->size - 8) / 4) {
        ce = &cache->e[code % RTFILTER_CACHED];
        if (DAPTO_LIKELY(cache->area == env->area && ce->key == code + 1)) {
            /* <protocol#filter-gen>: the entry, then the generation */
            off = __atomic_load_n(&fa->dir[code], __ATOMIC_ACQUIRE);
            gen = __atomic_load_n(&fa->gen, __ATOMIC_RELAXED);
            if (DAPTO_LIKELY(off == ce->off && gen == ce->gen))
                return eval_cached(env->shared, env->mine, ce, vals, len, flags,
                                   env, env->tid);
        } else if (cache->area != env->area) {
            memset(cache, 0, sizeof *cache);
            cache->area = env->area;
        }
    }
    return eval_read(env, code, &r, st, flags, ce);
}

unsigned int rtfilter_eval(const struct rtfilter_env *env, uint32_t code,
                           const unsigned char *vals, uint32_t len,
                           unsigned int st, uint16_t *flags)
{
    return eval_inline(env, code, vals, len, st, flags);
}

/* The filter of event CODE read from the area and evaluated on the
 * arguments ARGS of event EV, as eval_read() does on a record (and kept
 * in CE with its plan for EV); ST when the record must decide. */
static __attribute__((noinline)) unsigned int
args_read(const struct rtfilter_env *env, uint32_t code, const struct dapto_event *ev,
          const union dapto_arg *args, unsigned int st, uint16_t *flags,
          struct rtfilter_cached *ce)
{
    struct run r;

    if (!rtfilter_args_fit(ev->params, args, ev->nparams))
        return st;
    r.vals = r.vend = NULL;
    r.args = args;
    r.params = ev->params;
    r.nargs = ev->nparams;
    r.env = env;
    st = eval_read(env, code, &r, st, flags, ce);
    if (ce != NULL && ce->key == code + 1)
        (void)plan_args(ce, ev); /* kept (now or before): plan it for EV */
    return st;
}

/* rtfilter_eval_args(), with the cached filters inline. */
static inline __attribute__((always_inline)) unsigned int
eval_args_inline(const struct rtfilter_env *env, uint32_t code, const struct dapto_event *ev,
                 const union dapto_arg *args, unsigned int st, uint16_t *flags)
{
    const struct dapto_filter_area *fa = (const struct dapto_filter_area *)(const void *)env->area;
    struct rtfilter_cache *cache = env->cache;
    struct rtfilter_cached *ce = NULL;
    uint32_t off, gen;

    if (fa == NULL || env->size < sizeof(struct dapto_filter_area))
        return st & ~(unsigned int)DAPTO_STATE_FILTER;
    if (cache != NULL && code < (env->size - 8) / 4) {
        ce = &cache->e[code % RTFILTER_CACHED];
        if (cache->area == env->area && ce->key == code + 1) {
            /* <protocol#filter-gen>: the entry, then the generation */
            off = __atomic_load_n(&fa->dir[code], __ATOMIC_ACQUIRE);
            gen = __atomic_load_n(&fa->gen, __ATOMIC_RELAXED);
            if (off == ce->off && gen == ce->gen) {
                if (ce->hot != ev && plan_args(ce, ev) < 0)
                    return st;
                if (ce->strs && !rtfilter_args_fit(ev->params, args, ev->nparams))
                    return st;
                return eval_cached_args(env->shared, env->mine, ce, ev, args, flags,
                                        env, env->tid);
            }
        } else if (cache->area != env->area) {
            memset(cache, 0, sizeof *cache);
            cache->area = env->area;
        }
    }
    return args_read(env, code, ev, args, st, flags, ce);
}

unsigned int rtfilter_eval_args(const struct rtfilter_env *env, uint32_t code,
                                const struct dapto_event *ev,
                                const union dapto_arg *args, unsigned int st,
                                uint16_t *flags)
{
    return eval_args_inline(env, code, ev, args, st, flags);
}

uint64_t *rtfilter_take_slot(struct dapto_region *h, uint64_t *cnt,
                             uint32_t nslots)
{
    uint32_t n = __atomic_fetch_add(&h->cnt_next, 1, __ATOMIC_RELAXED) + 1;

    return cnt + (size_t)(n < nslots ? n : 0) * DAPTO_CNT_PER_SLOT;
}

/* The text of intern id ID <protocol#intern>: the name the program gave. */
static const char *istr_name(uint32_t id, uint32_t *len)
{
    const char *s = intern_name(id);
    size_t n;

    if (s == NULL)
        return NULL;
    n = strlen(s);
    if (n > DAPTO_EVENT_MAX)
        return NULL;
    *len = (uint32_t)n;
    return s;
}

/* The environment of an evaluation in the calling thread, for event
 * CODE of thread TID, with the thread's cache when CACHED; the thread's
 * counter slot taken at its first count. */
static void event_env(struct rtfilter_env *env, uint32_t tid, int cached)
{
    env->area = runtime.filt;
    env->size = runtime.filt_size;
    env->shared = runtime.cnt;
    if (runtime.cnt != NULL && rt_cnt == NULL)
        rt_cnt = rtfilter_take_slot(runtime.region.hdr, runtime.cnt,
                                    runtime.cnt_slots);
    env->mine = rt_cnt;
    env->tid = tid;
    env->istr = istr_name;
    env->cache = cached ? &rt_ft.c : NULL;
    env->q = runtime.q.area != NULL ? &runtime.q : NULL;
    env->within = rt_rel_mask;
    env->part = rt_rel_part;
}

/* A new attach <protocol#attach>: forget the calling thread's slot and
 * cache of an earlier one (unless an evaluation it interrupted uses
 * them). */
static inline void event_epoch(void)
{
    if (DAPTO_UNLIKELY(rt_ft.epoch !=
                       __atomic_load_n(&runtime.epoch, __ATOMIC_ACQUIRE)) &&
        !rt_ft.busy) {
        rt_cnt = NULL;
        memset(&rt_ft.c, 0, sizeof rt_ft.c);
        rt_ft.epoch = runtime.epoch;
    }
}

/* rtfilter_event() reading the filter from the area, with the thread's
 * cache when CACHED (keeping the filter there if it can). */
static __attribute__((noinline)) unsigned int
event_read(struct dapto_record *rec, uint32_t code, unsigned int st, int cached)
{
    struct rtfilter_env env;

    event_env(&env, rec->tid, cached);
    return eval_inline(&env, code, (const unsigned char *)rec + DAPTO_RECORD_HEADER,
                       rec->len, st, &rec->flags);
}

unsigned int rtfilter_bits(uint32_t code)
{
    const unsigned char *area = runtime.filt;
    const struct dapto_filter_area *fa =
        (const struct dapto_filter_area *)(const void *)area;
    uint32_t size = runtime.filt_size, off, i;
    unsigned int out;
    union fhead fh;
    union fclause cl;

    if (area == NULL || size < 8 ||
        code >= __atomic_load_n(&fa->ncodes, __ATOMIC_RELAXED) ||
        code >= (size - 8) / 4)
        return 0;
    off = __atomic_load_n(&fa->dir[code], __ATOMIC_ACQUIRE);
    if (off == 0 || off % 8 != 0 || off > size - sizeof fh)
        return 0;
    fh.w = __atomic_load_n((const uint64_t *)(const void *)(area + off),
                           __ATOMIC_RELAXED);
    if (fh.h.size > DAPTO_FILTER_MAX || fh.h.size > size - off ||
        fh.h.nclauses > DAPTO_FILTER_CLAUSES ||
        sizeof fh + (size_t)fh.h.nclauses * sizeof cl > fh.h.size)
        return 0;
    out = fh.h.uncond;
    for (i = 0; i < fh.h.nclauses; i++) {
        const uint64_t *w = (const uint64_t *)(const void *)(area + off +
                                                              sizeof fh +
                                                              i * sizeof cl);

        cl.w[0] = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
        if (!(cl.c.flags & (DAPTO_CL_QUESTION | DAPTO_CL_QSTART)))
            out |= cl.c.bits;
    }
    return out & (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP);
}

unsigned int rtfilter_event(struct dapto_record *rec, uint32_t code,
                            unsigned int st)
{
    const struct dapto_filter_area *fa =
        (const struct dapto_filter_area *)(const void *)runtime.filt;
    struct rtfilter_cached *ce;
    uint32_t off, gen;

    if (fa == NULL)
        return st & ~(unsigned int)DAPTO_STATE_FILTER;
    event_epoch();
    if (rt_ft.busy)
        return event_read(rec, code, st, 0);
    rt_ft.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    ce = &rt_ft.c.e[code % RTFILTER_CACHED];
    if (DAPTO_LIKELY(ce->key == code + 1 && rt_ft.c.area == runtime.filt)) {
        /* <protocol#filter-gen>: the entry, then the generation (the
         * code is below the area's directory since it was kept) */
        off = __atomic_load_n(&fa->dir[code], __ATOMIC_ACQUIRE);
        gen = __atomic_load_n(&fa->gen, __ATOMIC_RELAXED);
        if (DAPTO_LIKELY(off == ce->off && gen == ce->gen))
            st = eval_cached(runtime.cnt, rt_cnt, ce,
                             (const unsigned char *)rec + DAPTO_RECORD_HEADER,
                             rec->len, &rec->flags, NULL, rec->tid);
        else
            st = event_read(rec, code, st, 1);
    } else {
        st = event_read(rec, code, st, 1);
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_ft.busy = 0;
    return st;
}

/* dapto_event_filter() reading the filter from the area (keeping it in the
 * thread's cache if it can). */
static __attribute__((noinline)) unsigned int
args_event_read(const struct dapto_event *ev, uint32_t code, const union dapto_arg *args,
                unsigned int st, uint16_t *flags)
{
    struct rtfilter_env env;

    event_env(&env, rt_thread(), 1);
    return eval_args_inline(&env, code, ev, args, st, flags);
}

/* dapto_event_filter() when the thread has no plan for the event at hand
 * (or a signal handler's event interrupted an evaluation): the filter
 * read from the area (kept if it can be), or the record decides. */
static __attribute__((noinline)) unsigned int
args_slow(const struct dapto_event *ev, uint32_t code, const union dapto_arg *args,
          unsigned int st)
{
    uint16_t flags = 0;
    unsigned int v;

    if (runtime.filt == NULL)
        return st & ~(unsigned int)DAPTO_STATE_FILTER;
    event_epoch();
    if (rt_ft.busy)
        return st; /* a signal handler's event: the record decides */
    rt_ft.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    v = args_event_read(ev, code, args, st, &flags);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_ft.busy = 0;
    if (v == 0 || (v & DAPTO_STATE_FILTER))
        return v;
    return RTF_VERDICT(v, flags);
}

/* dapto_event_filter() once kept filter CE held (HELD) on the arguments
 * ARGS of event EV, or wants the event anyway: the rest, then the
 * thread's cache let go. */
static __attribute__((noinline)) unsigned int
args_fired(struct rtfilter_cached *ce, const struct dapto_event *ev,
           const union dapto_arg *args, int held)
{
    struct run r;
    uint16_t flags = 0;
    unsigned int v;

    r.vals = r.vend = NULL;
    r.args = args;
    r.params = ev->params;
    r.nargs = ev->nparams;
    r.env = NULL;
    v = cached_rest(runtime.cnt, rt_cnt, ce, held, &flags, NULL, 0, &r);
    /* a question's clause: count the next ones from the arguments */
    if (ce->question && held && ce->qh.epoch_at == NULL && ce->cl.c.flags == DAPTO_CL_QUESTION &&
        runtime.q.area != NULL &&
        rtq_hot_plan(&runtime.q, ce->cl.c.every - 1u, ev->params, ev->nparams, &ce->qh) == 0)
        /* a count of no key and no value, of no condition, in the
         * thread's own slot: the next ones counted by the encoder itself
         * <protocol#quick> */
        ce->quick = ce->qh.key == DAPTO_QK_NONE && ce->qh.value_arg == UINT32_MAX &&
                    ce->qh.hist_off == 0 && ce->amode == 1 && ce->wbit == 0 && !ce->atomic &&
                    (ce->uncond & ~(unsigned int)DAPTO_STATE_TRAIL) == 0 &&
                    runtime.q.size >= sizeof(struct dapto_question_area);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_ft.busy = 0;
    return v == 0 ? 0 : RTF_VERDICT(v, flags);
}

/* dapto_event_filter() for kept filter CE of a question's clause: the
 * event counted from its arguments when the clause holds and the
 * question's plan does (else args_fired(), or the record when it would
 * not hold the arguments whole: ST), the thread's cache then let go. */
static inline __attribute__((always_inline)) unsigned int
args_question(struct rtfilter_cached *ce, const struct dapto_event *ev,
              const union dapto_arg *args, unsigned int st)
{
    uint64_t *c0, *c1, *cp, *fp;
    unsigned int out;
    int atomic, held;

    held = ce->amode == 0 ? ((uint64_t)args[ce->arg].i - ce->lo <= ce->span) ^ ce->neg
                          : ce->amode == 1;
    if (DAPTO_UNLIKELY(ce->wbit != 0) && held)
        held = ((rt_rel_mask() & ce->wbit) != 0) ^ ce->wneg;
    /* the counters read from the cache while the thread holds it (a
     * signal handler's event may use it once let go), but only once the
     * event is counted: held across the count, they took registers its
     * key's lookup wanted (0.5 ns an event, make bench-defaults) */
#define ARGS_QUESTION_COUNTERS()                                               \
    (c0 = ce->checked[0], c1 = ce->checked[1], cp = ce->cpassed, fp = ce->fpassed, \
     out = ce->uncond, atomic = ce->atomic)
    if (!held) {
        ARGS_QUESTION_COUNTERS();
        /* as args_fired() would say of it, without its call */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        rt_ft.busy = 0;
        bump(c0, atomic);
        bump(c1, atomic);
        if (out == 0)
            return 0;
        bump(fp, atomic);
        return RTF_VERDICT(out, DAPTO_RECF_FILTERED);
    }
    if (ce->qh.epoch_at == NULL || !rtq_open(&runtime.q) ||
        !rtq_hot_count(&ce->qh, args, rt_thread())) {
        ARGS_QUESTION_COUNTERS();
        if (ce->strs && !rtfilter_args_fit(ev->params, args, ev->nparams)) {
            /* (counted from the record, as it holds them) */
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            rt_ft.busy = 0;
            return st;
        }
        bump(c0, atomic);
        bump(c1, atomic);
        return args_fired(ce, ev, args, held);
    }
    ARGS_QUESTION_COUNTERS();
#undef ARGS_QUESTION_COUNTERS
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_ft.busy = 0;
    bump(c0, atomic);
    bump(c1, atomic);
    bump(cp, atomic);
    if (out == 0)
        return 0;
    bump(fp, atomic);
    return RTF_VERDICT(out, DAPTO_RECF_FILTERED);
}

/* dapto_event_filter() for kept filter CE of a part's clause
 * <protocol#relate>: the event handed to its derived event when the
 * clause holds, with the thread's cache let go first (the derived events
 * it completes are filtered with it). */
static __attribute__((noinline)) unsigned int
args_part(struct rtfilter_cached *ce, const struct dapto_event *ev,
          const union dapto_arg *args, unsigned int st)
{
    uint64_t *c0 = ce->checked[0], *c1 = ce->checked[1], *cp = ce->cpassed, *fp = ce->fpassed;
    unsigned int out = ce->uncond, def = ce->cl.c.every - 1u, role = ce->cl.c.count;
    int atomic = ce->atomic, held;
    struct run r;

    held = ce->amode == 0 ? ((uint64_t)args[ce->arg].i - ce->lo <= ce->span) ^ ce->neg
                          : ce->amode == 1;
    if (DAPTO_UNLIKELY(ce->wbit != 0) && held)
        held = ((rt_rel_mask() & ce->wbit) != 0) ^ ce->wneg;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_ft.busy = 0;
    if (held && ce->strs && !rtfilter_args_fit(ev->params, args, ev->nparams))
        return st; /* (the part read from the record, as it holds them) */
    bump(c0, atomic);
    bump(c1, atomic);
    if (held) {
        bump(cp, atomic);
        r.vals = r.vend = NULL;
        r.args = args;
        r.params = ev->params;
        r.nargs = ev->nparams;
        r.env = NULL; /* (arguments are never interned) */
        rt_rel_part(def, role, rtfilter_question_arg, &r);
    }
    if (out == 0)
        return 0;
    bump(fp, atomic);
    return RTF_VERDICT(out, DAPTO_RECF_FILTERED);
}

/* Make kept filter CE (planned for the arguments of event CODE, its
 * directory entry and the generation of area FA unchanged) the calling
 * thread's quick clause for CODE <protocol#quick>: its entry emptied
 * first, its tag new last, so that a generated encoder (a signal
 * handler's among them) never uses half of it. */
_Static_assert(offsetof(struct dapto_qentry, count) == 32, "dapto.h's quick count");
_Static_assert(sizeof(struct dapto_quick) == 128, "a quick clause is two lines");

static __attribute__((noinline)) void quick_publish(struct rtfilter_cached *ce,
                                                    const struct dapto_filter_area *fa,
                                                    uint32_t code)
{
    const struct dapto_question_area *qa =
        (const struct dapto_question_area *)(const void *)runtime.q.area;
    struct dapto_quick_thread *t = &dapto_quick_self;
    struct dapto_quick *q = &t->e[code % DAPTO_QUICK_ENTRIES];
    unsigned int e = __atomic_load_n(&dapto_quick_epoch, __ATOMIC_RELAXED);
    unsigned long long writes = (q->tag >> 32) + 1;
    unsigned int k;

    /* once (an encoder whose state has the frequency profile, say, asks
     * every time; a new entry's plan publishes it again) */
    ce->quick = 2;

    /* (the cache is this attach's: event_filter() looked) */
    if (e == 0)
        return;
    if (t->epoch != e) {
        for (k = 0; k < DAPTO_QUICK_ENTRIES; k++)
            t->e[k].tag = 0;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t->epoch = e;
    }
    q->tag = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    q->dir = &fa->dir[code];
    q->gen = &fa->gen;
    q->dir_was = ce->off;
    q->gen_was = ce->gen;
    q->lo = ce->lo;
    q->span = ce->span;
    q->arg = ce->arg;
    q->neg = ce->neg;
    q->out = ce->uncond;
    q->count[0] = (unsigned long long *)ce->checked[0];
    q->count[1] = (unsigned long long *)ce->checked[1];
    q->count[2] = ce->uncond != 0 ? (unsigned long long *)ce->fpassed : &t->sink;
    q->mode = DAPTO_QUICK_COMPARE;
    if (ce->question) {
        /* (planned: the encoder checks that QH still holds) */
        q->mode = DAPTO_QUICK_COUNT;
        q->count[3] = (unsigned long long *)ce->cpassed;
        q->qentry = &ce->qh.e->seq;
        q->qepoch_at = ce->qh.epoch_at;
        q->arg = ce->qh.epoch;
        q->qcheck_at = (const unsigned long long *)ce->qh.check_at;
        q->lo = ce->qh.check;
        q->qclosed = &qa->closed;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    q->tag = (writes & 0xffffffffu) << 32 | (code + 1ull);
}

void rtfilter_quick_attach(void)
{
    if (++quick_attaches == 0)
        quick_attaches = 1;
    __atomic_store_n(&dapto_quick_epoch, quick_attaches, __ATOMIC_RELEASE);
}

void rtfilter_quick_release(void)
{
    __atomic_store_n(&dapto_quick_epoch, 0, __ATOMIC_RELEASE);
}

/* The event path's entry before encoding (dapto.h): a kept filter
 * <protocol#filter-gen> of the event, planned for its arguments, is
 * evaluated here; anything else goes to args_slow().  The thread's cache
 * was emptied at the attach of runtime.filt (its epoch), so the cache's
 * area is not checked again. */
static inline __attribute__((always_inline)) unsigned int
event_filter(const struct dapto_aspect *a, unsigned int index, const union dapto_arg *args,
             unsigned int st)
{
    const struct dapto_filter_area *fa =
        (const struct dapto_filter_area *)(const void *)runtime.filt;
    const struct dapto_event *ev;
    struct rtfilter_cached *ce;
    uint32_t code;
    int held;

    if (DAPTO_UNLIKELY(a == NULL || index >= a->nevents || !rt_is_attached()))
        return 0;
    ev = &a->events[index];
    code = a->event_base + index;
    st &= ~(unsigned int)(DAPTO_STATE_PROFILE | DAPTO_STATE_STACK);
    if (DAPTO_UNLIKELY(fa == NULL || rt_ft.busy ||
                       rt_ft.epoch != __atomic_load_n(&runtime.epoch, __ATOMIC_ACQUIRE)))
        return args_slow(ev, code, args, st);
    rt_ft.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    ce = &rt_ft.c.e[code % RTFILTER_CACHED];
    /* in a register from here on (the compiler would compute it anew at
     * each use) */
    __asm__("" : "+r"(ce));
    /* <protocol#filter-gen>: the entry, then the generation (HOT is EV
     * only in an entry of EV's code, below the directory since it was
     * kept) */
    if (DAPTO_UNLIKELY(ce->hot != ev) ||
        DAPTO_UNLIKELY(__atomic_load_n(&fa->dir[code], __ATOMIC_ACQUIRE) != ce->off ||
                       __atomic_load_n(&fa->gen, __ATOMIC_RELAXED) != ce->gen)) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        rt_ft.busy = 0;
        return args_slow(ev, code, args, st);
    }
    if (ce->question) {
        /* a plain count: the next ones counted by the encoder itself (it
         * checks the question as the plan would) */
        if (DAPTO_UNLIKELY(ce->quick == 1))
            quick_publish(ce, fa, code);
        return args_question(ce, ev, args, st);
    }
    if (ce->part)
        return args_part(ce, ev, args, st);
    /* the clause, read before the counters are written (they might alias
     * it for all the compiler knows) */
    if (DAPTO_LIKELY(ce->amode == 0))
        held = ((uint64_t)args[ce->arg].i - ce->lo <= ce->span) ^ ce->neg;
    else
        held = ce->amode == 1;
    if (DAPTO_UNLIKELY(ce->wbit != 0) && held)
        held = ((rt_rel_mask() & ce->wbit) != 0) ^ ce->wneg;
    if (DAPTO_LIKELY(!held)) {
        uint64_t *c0 = ce->checked[0], *c1 = ce->checked[1], *fp = ce->fpassed;
        unsigned int out = ce->uncond;
        int atomic = ce->atomic;

        /* the next ones decided by the encoder itself */
        if (DAPTO_UNLIKELY(ce->quick == 1))
            quick_publish(ce, fa, code);
        /* the counters are the thread's slot's, not the cache's */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        rt_ft.busy = 0;
        bump(c0, atomic);
        bump(c1, atomic);
        if (DAPTO_LIKELY(out == 0))
            return 0;
        /* where the filter sends every event (the trail, say): as
         * eval_done() says, no clause fired */
        bump(fp, atomic);
        return RTF_VERDICT(out, DAPTO_RECF_FILTERED);
    }
    bump(ce->checked[0], ce->atomic);
    bump(ce->checked[1], ce->atomic);
    return args_fired(ce, ev, args, held > 0);
}

DAPTO_API unsigned int dapto_event_filter(const struct dapto_aspect *a, unsigned int index,
                                          const union dapto_arg *args, unsigned int st)
{
    /* <protocol#cct>: counted in the thread's call tree whatever the
     * filter says */
    if (DAPTO_UNLIKELY(st & DAPTO_STATE_PROFILE))
        dapto_event_count(a, index);
    return event_filter(a, index, args, st);
}

void rtfilter_count(unsigned int id)
{
    struct rtfilter_env env;

    if (runtime.cnt == NULL || id >= DAPTO_CNT_PER_SLOT)
        return;
    event_env(&env, 0, 0);
    count(&env, id);
}

void rtfilter_fork_child(void)
{
    rtq_fork_child();
    memset(&dapto_quick_self, 0, sizeof dapto_quick_self);
    memset(&rt_ft.c, 0, sizeof rt_ft.c);
    rt_ft.epoch = runtime.epoch;
    rt_ft.busy = 0;
}
