/* SPDX-License-Identifier: MIT */
/*
 * profile-program.c - the time profile kept by the program itself
 * <protocol#cct> (`profile time in program`): functions of a program
 * built with -finstrument-functions are counted, by each thread, into a
 * calling-context tree in its own table (calls and self time per call
 * path), and no record crosses to noosa for them.  noosa reads the
 * tables when a view is asked for and turns them into the same threads,
 * nodes, self times and calls that the records path builds
 * (profile-time.c), names through the program's symbols, excluded
 * functions charged to their callers as the records path does, so every
 * view and export of the time profile works on them.
 *
 * The frequency profile kept in the program (`profile freq in program`)
 * is the calls of the same trees, read into its calls per call path; the
 * two share the program's one tree.
 *
 * `profile time in sampled` keeps the calls exact and the time
 * statistical, as gprof does: the tree is defined to keep no time (its
 * hooks read no clock, the dearest part of an exact profile), and noosa
 * looks at each thread's current call path in the shared tables every
 * PSAMPLE_US from its loop, charging the time since its last look to it
 * (the sampler below).  Like the exact tree's, that is wall time: a
 * thread blocked or stopped is charged where it waits.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cct.h"
#include "channel.h"
#include "dapto.h"
#include "dispatch.h"
#include "loop.h"
#include "profile-int.h"
#include "qarea.h"
#include "session.h"
#include "stacks.h"
#include "symnames.h"
#include "target.h"
#include "xmalloc.h"

/* Call paths a thread's table holds. */
#define PROGRAM_NODES 8192

int pprogram_event(const struct registry_event *ev)
{
    return ev->aspect != NULL && ev->aspect->event_base == 0 &&
           strcmp(ev->aspect->name, "dapto") == 0 &&
           (ev->code == DAPTO_EV_ENTER || ev->code == DAPTO_EV_LEAVE);
}

/* The question area of CH when the program's tree is defined there. */
static struct qarea *tree_area(struct channel *ch)
{
    struct qarea *qa = ch != NULL ? channel_questions(ch, NULL) : NULL;

    return qa != NULL && qa->def[DAPTO_Q_CCT].epoch != 0 ? qa : NULL;
}

int pprogram_can(struct profile *p, const char **why)
{
    struct channel *ch = session_channel(p->session);
    const char *no = NULL;

    if (ch == NULL)
        no = "the program does not run";
    else
        channel_questions(ch, &no);
    if (why != NULL)
        *why = no;
    return no == NULL;
}

int ptime_program(struct profile *p, const char **why)
{
    struct channel *ch = session_channel(p->session);
    struct dapto_question d;
    struct qarea *qa;
    const char *no = NULL;
    /* time kept only for the exact time profile */
    int timeless = p->time.in_program != PTIME_IN_PROGRAM;

    /* (defined in each process of the run as the dispatcher writes its
     * states: <design#processes>) */
    if (ch == NULL) {
        no = "the program does not run";
    } else if ((qa = channel_questions(ch, &no)) != NULL &&
               (tree_area(ch) == NULL ||
                (qa->def[DAPTO_Q_CCT].mult == 0) != timeless)) {
        /* (a tree that keeps time, or one that keeps none, as asked:
         * defined again when that changes) */
        memset(&d, 0, sizeof d);
        d.value = DAPTO_QV_CCT;
        qarea_shape(&d, PROGRAM_NODES);
        d.mult = timeless ? 0 : (uint64_t)(channel_ns_per_tick(ch) * 4294967296.0 + 0.5);
        qarea_define(qa, DAPTO_Q_CCT, &d, &no);
    }
    if (why != NULL)
        *why = no;
    return no == NULL && tree_area(ch) != NULL;
}

/* ---- the sampler of `profile time in sampled` ---- */

/* How often each thread's current call path is looked at. */
#define PSAMPLE_US 1000

/* A process's samples (process I of the run, session_process()): by
 * thread slot, the time charged to each entry of its table as the tree is
 * defined now (epoch). */
struct psproc {
    unsigned int i;
    uint32_t epoch, nent, nslots;
    uint64_t **ns; /* by slot; NULL until a sample lands there */
};

struct psampler {
    struct loop *loop; /* the hooks are in it */
    int on;
    uint64_t last, next; /* CLOCK_MONOTONIC, ns; last 0: none yet */
    uint64_t samples;
    pid_t run;           /* the first process of the run sampled */
    struct psproc *procs;
    size_t nprocs, cap;
};

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void psproc_clear(struct psproc *pp)
{
    for (uint32_t i = 0; i < pp->nslots; i++)
        free(pp->ns[i]);
    free(pp->ns);
    pp->ns = NULL;
    pp->nslots = 0;
}

/* The samples of process I for a tree of definition D (those of an
 * earlier definition dropped: its tables were cleared too), or NULL
 * when there are none and ADD is 0. */
static struct psproc *psproc_of(struct psampler *ps, unsigned int i,
                                const struct dapto_question *d, int add)
{
    struct psproc *pp = NULL;

    for (size_t k = 0; k < ps->nprocs; k++)
        if (ps->procs[k].i == i)
            pp = &ps->procs[k];
    if (pp == NULL) {
        if (!add)
            return NULL;
        ps->procs = xgrow(ps->procs, ps->nprocs, &ps->cap, sizeof *ps->procs);
        pp = &ps->procs[ps->nprocs++];
        memset(pp, 0, sizeof *pp);
        pp->i = i;
    }
    if (pp->epoch != d->epoch || pp->nent != d->nent) {
        psproc_clear(pp);
        pp->epoch = d->epoch;
        pp->nent = d->nent;
    }
    return pp;
}

/* One look at every thread of every process whose tree keeps no time:
 * DT nanoseconds charged to the entry of its current path. */
static void psample(struct profile *p, uint64_t dt)
{
    struct session *ss = p->session;
    struct psampler *ps = p->time.sampler;
    const struct session_process *first = session_process(ss, 0);
    pid_t run = first != NULL ? first->pid : session_pid(ss);
    unsigned int i, n = session_nprocs(ss) > 0 ? session_nprocs(ss) : 1;

    if (run != ps->run) {
        /* a new run: the last one's samples go */
        for (size_t k = 0; k < ps->nprocs; k++)
            psproc_clear(&ps->procs[k]);
        ps->nprocs = 0;
        ps->run = run;
    }
    for (i = 0; i < n; i++) {
        struct qarea *qa = tree_area(session_process_channel(ss, i));
        const struct dapto_question *d;
        struct dapto_qtable head;
        struct psproc *pp;
        uint32_t s, nt;

        if (qa == NULL || qa->def[DAPTO_Q_CCT].mult != 0)
            continue;
        d = &qa->def[DAPTO_Q_CCT];
        pp = psproc_of(ps, i, d, 1);
        nt = qarea_threads(qa);
        for (s = 0; s < nt; s++) {
            /* (depth is data the program wrote: checked, then used as an
             * index of noosa's own array only) */
            if (!qarea_table(qa, DAPTO_Q_CCT, s, &head) || head.depth == 0 ||
                head.depth > pp->nent)
                continue;
            if (s >= pp->nslots) {
                pp->ns = xreallocarray(pp->ns, nt, sizeof *pp->ns);
                memset(pp->ns + pp->nslots, 0, (nt - pp->nslots) * sizeof *pp->ns);
                pp->nslots = nt;
            }
            if (pp->ns[s] == NULL)
                pp->ns[s] = xcalloc(pp->nent, sizeof *pp->ns[s]);
            pp->ns[s][head.depth - 1] += dt;
        }
    }
    ps->samples++;
}

/* The loop's hooks: sleep no longer than the next look, look when due. */
static int psampler_prepare(void *arg)
{
    struct profile *p = arg;
    struct psampler *ps = p->time.sampler;
    uint64_t now;

    if (ps == NULL || !ps->on || session_state(p->session) == SESSION_IDLE)
        return -1;
    now = mono_ns();
    if (now >= ps->next)
        return 0;
    return (int)((ps->next - now + 999999) / 1000000);
}

static void psampler_finish(void *arg)
{
    struct profile *p = arg;
    struct psampler *ps = p->time.sampler;
    uint64_t now;

    if (ps == NULL || !ps->on || session_state(p->session) == SESSION_IDLE) {
        if (ps != NULL)
            ps->last = 0; /* (the time with no program is nobody's) */
        return;
    }
    now = mono_ns();
    if (now < ps->next)
        return;
    if (ps->last != 0 && now > ps->last)
        psample(p, now - ps->last);
    ps->last = now;
    ps->next = now + PSAMPLE_US * 1000u;
}

void psampler_use(struct profile *p, int on)
{
    struct psampler *ps = p->time.sampler;

    if (ps == NULL) {
        if (!on)
            return;
        ps = p->time.sampler = xcalloc(1, sizeof *ps);
    }
    if (on && ps->loop == NULL) {
        ps->loop = session_loop(p->session);
        if (ps->loop != NULL)
            loop_add_hook(ps->loop, psampler_prepare, psampler_finish, p);
    }
    if (on && !ps->on)
        ps->last = 0; /* (the time while off is nobody's) */
    ps->on = on != 0;
}

void psampler_free(struct profile *p)
{
    struct psampler *ps = p->time.sampler;

    if (ps == NULL)
        return;
    if (ps->loop != NULL)
        loop_remove_hook(ps->loop, p);
    for (size_t i = 0; i < ps->nprocs; i++)
        psproc_clear(&ps->procs[i]);
    free(ps->procs);
    free(ps);
    p->time.sampler = NULL;
}

uint64_t psampler_samples(const struct profile *p)
{
    return p->time.sampler != NULL ? p->time.sampler->samples : 0;
}

unsigned int psampler_period_us(const struct profile *p)
{
    (void)p;
    return PSAMPLE_US;
}

/* ---- a reset of a profile kept in the program ---- */

/* The entries of a process's trees at a reset (process I, its tree of
 * definition epoch), by slot. */
struct pzent {
    uint64_t count, sum;
};

struct pzero {
    unsigned int i;
    uint32_t epoch, nent, nslots;
    struct pzent **e; /* by slot; NULL: nothing there then */
};

struct pzeros {
    struct pzero *v;
    size_t n, cap;
};

static void pzero_clear(struct pzero *z)
{
    for (uint32_t s = 0; s < z->nslots; s++)
        free(z->e[s]);
    free(z->e);
    z->e = NULL;
    z->nslots = 0;
}

/* The zero of process I's tree of definition D in ZS (NULL when there
 * is none, or it was of another definition: dropped then). */
static struct pzero *pzero_of(struct pzeros *zs, unsigned int i,
                              const struct dapto_question *d)
{
    for (size_t k = 0; zs != NULL && k < zs->n; k++) {
        struct pzero *z = &zs->v[k];

        if (z->i != i)
            continue;
        if (z->epoch != d->epoch || z->nent != d->nent) {
            pzero_clear(z);
            return NULL;
        }
        return z;
    }
    return NULL;
}

void pprogram_reset(struct profile *p, int kind)
{
    struct session *ss = p->session;
    struct pzeros *zs = p->zero[kind == PROFILE_TIME];
    unsigned int i, n = session_nprocs(ss) > 0 ? session_nprocs(ss) : 1;
    unsigned char buf[sizeof(struct dapto_qentry)];
    const struct dapto_qentry *qe = (const struct dapto_qentry *)(const void *)buf;

    if (zs == NULL)
        zs = p->zero[kind == PROFILE_TIME] = xcalloc(1, sizeof *zs);
    for (size_t k = 0; k < zs->n; k++)
        pzero_clear(&zs->v[k]);
    zs->n = 0;
    if (kind == PROFILE_TIME && p->time.sampler != NULL) {
        /* the samples start again */
        struct psampler *ps = p->time.sampler;

        for (size_t k = 0; k < ps->nprocs; k++)
            psproc_clear(&ps->procs[k]);
        ps->nprocs = 0;
    }
    for (i = 0; i < n; i++) {
        struct qarea *qa = tree_area(session_process_channel(ss, i));
        const struct dapto_question *d;
        struct dapto_qtable head;
        struct pzero *z;
        uint32_t s, e, nt;
        int torn;

        if (qa == NULL)
            continue;
        d = &qa->def[DAPTO_Q_CCT];
        zs->v = xgrow(zs->v, zs->n, &zs->cap, sizeof *zs->v);
        z = &zs->v[zs->n++];
        memset(z, 0, sizeof *z);
        z->i = i;
        z->epoch = d->epoch;
        z->nent = d->nent;
        nt = qarea_threads(qa);
        z->e = xcalloc(nt > 0 ? nt : 1, sizeof *z->e);
        z->nslots = nt;
        for (s = 0; s < nt; s++) {
            if (!qarea_table(qa, DAPTO_Q_CCT, s, &head))
                continue;
            z->e[s] = xcalloc(d->nent, sizeof *z->e[s]);
            for (e = 0; e < d->nent; e++) {
                if (!qarea_entry(qa, DAPTO_Q_CCT, s, e, buf, &torn) || qe->hash == 0)
                    continue;
                z->e[s][e].count = qe->count;
                z->e[s][e].sum = qe->sum;
            }
        }
    }
}

void pprogram_started(struct profile *p)
{
    /* the zeros of resets were of the last run's trees */
    for (int k = 0; k < 2; k++) {
        struct pzeros *zs = p->zero[k];

        for (size_t j = 0; zs != NULL && j < zs->n; j++)
            pzero_clear(&zs->v[j]);
        if (zs != NULL)
            zs->n = 0;
    }
}

void pprogram_free(struct profile *p)
{
    for (int k = 0; k < 2; k++) {
        struct pzeros *zs = p->zero[k];

        if (zs == NULL)
            continue;
        for (size_t j = 0; j < zs->n; j++)
            pzero_clear(&zs->v[j]);
        free(zs->v);
        free(zs);
        p->zero[k] = NULL;
    }
}

/* What entry E of slot S holds since zero Z: the count (*SUM the sum);
 * never below it. */
static uint64_t since_zero(const struct pzero *z, uint32_t s, uint32_t e,
                           const struct dapto_qentry *qe, uint64_t *sum)
{
    const struct pzent *b = z != NULL && s < z->nslots && z->e[s] != NULL ? &z->e[s][e]
                                                                          : NULL;

    if (b == NULL) {
        *sum = qe->sum;
        return qe->count;
    }
    *sum = qe->sum > b->sum ? qe->sum - b->sum : 0;
    return qe->count > b->count ? qe->count - b->count : 0;
}

/* Thread slot S's table, copied: entries in E (NENT of them, hash 0 for
 * the free ones). */
struct table {
    struct dapto_qentry *e;
    uint32_t *node;       /* the noosa node of each entry, 0: not yet */
    unsigned char *state; /* 0 not seen, 1 resolving, 2 done */
    unsigned char *excluded; /* its function is excluded (once resolved) */
    uint32_t nent;
};

/* The name of a component whose key is KEY <protocol#cct>: its intern
 * id's text, or the NUL-terminated string at the address it holds in the
 * current process's memory (at most 255 bytes, read a page at a time)
 * into BUF of 256 bytes; NULL when it cannot be had. */
static const char *component_name(struct profile *p, uint64_t key, char *buf,
                                  size_t *len)
{
    struct target *t = session_target(p->session);
    struct channel *ch = session_channel(p->session);
    uint64_t addr = key & ~(DAPTO_CCT_NAMED | DAPTO_CCT_ADDR);
    size_t got = 0;

    if (!(key & DAPTO_CCT_ADDR)) {
        const char *s = ch != NULL && addr <= UINT32_MAX
                            ? reader_intern(channel_reader(ch), (uint32_t)addr)
                            : NULL;

        if (s != NULL)
            *len = strlen(s);
        return s;
    }

    while (t != NULL && got < 255) {
        size_t n = 4096 - (size_t)((addr + got) & 4095), k;

        if (n > 255 - got)
            n = 255 - got;
        if (target_read(t, addr + got, buf + got, n, NULL) != 0)
            break;
        for (k = 0; k < n && buf[got + k] != '\0'; k++)
            ;
        got += k;
        if (k < n) {
            *len = got;
            return buf;
        }
    }
    if (got == 0)
        return NULL;
    *len = got; /* (cut) */
    return buf;
}

/* The node of entry I (its path resolved through its parents). */
static uint32_t resolve(struct profile *p, struct table *t, struct symnames *sn,
                        uint32_t i)
{
    struct cct *cct = stacks_cct(p->st);
    const struct dapto_qentry *e = &t->e[i];
    uint32_t parent;
    const char *name;
    char text[256];
    size_t len;

    if (t->state[i] == 2)
        return t->node[i];
    if (t->state[i] == 1 || e->hash == 0)
        return CCT_ROOT; /* a loop (a scribbled table) or a free entry */
    t->state[i] = 1;
    parent = e->key[0] == 0 || e->key[0] > t->nent
                 ? CCT_ROOT
                 : resolve(p, t, sn, (uint32_t)e->key[0] - 1);
    if (e->key[1] & DAPTO_CCT_NAMED)
        name = component_name(p, e->key[1], text, &len);
    else
        name = symnames_name(sn, e->key[1], &len);
    t->excluded[i] = name == NULL;
    /* an excluded function's time is its caller's, as in the records */
    t->node[i] = name == NULL ? parent
                              : cct_child(cct, parent, cct_intern(cct, name, len));
    t->state[i] = 2;
    return t->node[i];
}

/* Entry I of slot S's table T, an event's: its count since zero Z under
 * its path, in the frequency profile when the event is visible. */
static void pprogram_event_count(struct profile *p, struct table *t, struct symnames *sn,
                                 uint32_t i, const struct pzero *z, uint32_t s)
{
    const struct dapto_qentry *e = &t->e[i];
    const struct registry_event *ev =
        registry_event(session_registry(p->session),
                       (unsigned int)(e->key[1] & ~DAPTO_CCT_EVENT));
    uint64_t sum, n = since_zero(z, s, i, e, &sum);
    uint32_t node;

    if (ev == NULL || !ev->visible || n == 0)
        return;
    node = e->key[0] == 0 || e->key[0] > t->nent ? CCT_ROOT
                                                 : resolve(p, t, sn, (uint32_t)e->key[0] - 1);
    pfreq_add_event(p, node, ev, n);
}

/* The trees of the current process's threads, added in. */
static void read_process(struct profile *p, struct qarea *qa, unsigned int proc)
{
    struct symnames *sn = dispatch_symnames(p->dispatch);
    struct table t;
    struct dapto_qtable head;
    struct tthread *th = NULL;
    uint32_t s, n, i, node;
    int torn, time = p->time.in_program && profile_enabled(p, PROFILE_TIME),
              freq = p->freq.in_program && profile_enabled(p, PROFILE_FREQ);
    /* a tree that keeps no time: the self times are the samples */
    struct psproc *pp = NULL;
    int sampled = qa->def[DAPTO_Q_CCT].mult == 0;
    /* the zeros of the last resets */
    struct pzero *zt = pzero_of(p->zero[PROFILE_TIME], proc, &qa->def[DAPTO_Q_CCT]),
                 *zf = pzero_of(p->zero[PROFILE_FREQ], proc, &qa->def[DAPTO_Q_CCT]);

    if (sampled && p->time.sampler != NULL)
        pp = psproc_of(p->time.sampler, proc, &qa->def[DAPTO_Q_CCT], 0);
    t.nent = qa->def[DAPTO_Q_CCT].nent;
    t.e = xcalloc(t.nent, sizeof *t.e);
    t.node = xcalloc(t.nent, sizeof *t.node);
    t.state = xcalloc(t.nent, 1);
    t.excluded = xcalloc(t.nent, 1);
    n = qarea_threads(qa);
    for (s = 0; s < n; s++) {
        unsigned char buf[sizeof(struct dapto_qentry)];

        if (!qarea_table(qa, DAPTO_Q_CCT, s, &head))
            continue;
        p->time.program_overflow += head.overflow;
        p->time.program_unmatched += head.unmatched;
        memset(t.state, 0, t.nent);
        for (i = 0; i < t.nent; i++) {
            if (!qarea_entry(qa, DAPTO_Q_CCT, s, i, buf, &torn))
                memset(&t.e[i], 0, sizeof t.e[i]);
            else
                memcpy(&t.e[i], buf, sizeof t.e[i]);
            p->time.program_torn += torn != 0;
        }
        if (time)
            th = ptime_thread(p, (pid_t)head.tid, 1);
        for (i = 0; i < t.nent; i++) {
            uint64_t calls, sum;

            if (t.e[i].hash == 0)
                continue;
            if ((t.e[i].key[1] & (DAPTO_CCT_NAMED | DAPTO_CCT_EVENT)) == DAPTO_CCT_EVENT) {
                /* an event counted under its path, never entered */
                if (freq)
                    pprogram_event_count(p, &t, sn, i, zf, s);
                continue;
            }
            node = resolve(p, &t, sn, i);
            if (time) {
                calls = since_zero(zt, s, i, &t.e[i], &sum);
                ptime_cover(th, node);
                if (!sampled)
                    th->self[node] += (int64_t)sum;
                else if (pp != NULL && s < pp->nslots && pp->ns[s] != NULL)
                    th->self[node] += (int64_t)pp->ns[s][i];
                /* an excluded function's calls are not counted */
                if (!t.excluded[i])
                    th->calls[node] += calls;
            }
            if (freq && !t.excluded[i] && node != CCT_ROOT)
                pfreq_add_calls(p, node, since_zero(zf, s, i, &t.e[i], &sum));
        }
    }
    free(t.e);
    free(t.node);
    free(t.state);
    free(t.excluded);
}

void ptime_program_read(struct profile *p)
{
    struct session *ss = p->session;
    struct tthread *th;
    unsigned int i, n = session_nprocs(ss) > 0 ? session_nprocs(ss) : 1;
    /* (a profile that is off keeps what it read last) */
    int cur = session_current(ss),
        time = p->time.in_program && profile_enabled(p, PROFILE_TIME),
        freq = p->freq.in_program && profile_enabled(p, PROFILE_FREQ), any = 0;
    size_t k;

    for (i = 0; i < n; i++)
        any |= tree_area(session_process_channel(ss, i)) != NULL;
    if (!any || (!time && !freq))
        return; /* keep what was read last */
    /* the tables hold everything since the start: read them afresh */
    for (k = 0; time && k < p->time.nthreads; k++) {
        th = &p->time.threads[k];
        if (th->n > 0) {
            memset(th->self, 0, th->n * sizeof *th->self);
            memset(th->calls, 0, th->n * sizeof *th->calls);
        }
    }
    if (freq)
        pfreq_reset(p);
    p->time.program_overflow = p->time.program_unmatched = p->time.program_torn = 0;
    /* each process's threads (its own function names: the process is
     * made current while its tables are read) <design#processes> */
    for (i = 0; i < n; i++) {
        struct qarea *qa = tree_area(session_process_channel(ss, i));

        if (qa == NULL)
            continue;
        if (session_nprocs(ss) > 0)
            session_select(ss, i);
        read_process(p, qa, i);
    }
    if (cur >= 0)
        session_select(ss, (unsigned int)cur);
}
