/* SPDX-License-Identifier: MIT */
/*
 * profile-time.c - the time profile.  Each thread's time between two
 * changes of its stack is charged, as self time, to the stack it had;
 * each push counts a call of the new stack.  Totals (inclusive time) are
 * sums over subtrees, made when a view is asked for (profile-view.c).
 * The time is the program's: the events' timestamps, in nanoseconds.
 *
 * Up to a limit, every push and pop is also kept in order (the timeline)
 * for the Chrome trace export.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "dapto.h"
#include "dispatch.h"
#include "session.h"
#include "sink.h"
#include "profile-int.h"
#include "stacks.h"
#include "xmalloc.h"

/* Marks kept by default: 16 bytes each. */
#define PTIME_MARKS 1000000

struct tthread *ptime_thread(struct profile *p, pid_t tid, int add)
{
    struct ptime *t = &p->time;
    struct tthread *th;
    size_t i;

    if (t->last < t->nthreads && t->threads[t->last].tid == tid)
        return &t->threads[t->last];
    for (i = 0; i < t->nthreads; i++) {
        if (t->threads[i].tid == tid) {
            t->last = i;
            return &t->threads[i];
        }
    }
    if (!add)
        return NULL;
    t->threads = xgrow(t->threads, t->nthreads, &t->cap, sizeof *t->threads);
    th = &t->threads[t->nthreads];
    memset(th, 0, sizeof *th);
    th->tid = tid;
    /* (the session's current process is the one told of the thread) */
    th->pid = session_pid(p->session);
    th->last = -1;
    t->last = t->nthreads++;
    return th;
}

/* Make TH's arrays cover NODE. */
void ptime_cover(struct tthread *th, uint32_t node)
{
    size_t n = th->n > 0 ? th->n : 256;

    if (node < th->n)
        return;
    while (n <= node)
        n *= 2;
    th->self = xreallocarray(th->self, n, sizeof *th->self);
    th->calls = xreallocarray(th->calls, n, sizeof *th->calls);
    memset(th->self + th->n, 0, (n - th->n) * sizeof *th->self);
    memset(th->calls + th->n, 0, (n - th->n) * sizeof *th->calls);
    th->n = n;
}

static void block_unref(struct tblock *b)
{
    if (b != NULL && --b->refs == 0)
        free(b);
}

/* The block mark NMARKS goes into, made or copied (shared with a
 * checkpoint) first. */
static __attribute__((noinline)) struct tblock *block_for(struct ptime *t)
{
    size_t k = t->nmarks / PTIME_BLOCK;
    struct tblock *b;

    if (k == t->nblocks) {
        t->blocks = xgrow(t->blocks, t->nblocks, &t->blocks_cap,
                          sizeof *t->blocks);
        b = xmalloc(sizeof *b);
        b->refs = 1;
        t->blocks[t->nblocks++] = b;
        return b;
    }
    b = xmalloc(sizeof *b);
    b->refs = 1;
    memcpy(b->m, t->blocks[k]->m, (t->nmarks % PTIME_BLOCK) * sizeof *b->m);
    block_unref(t->blocks[k]);
    t->blocks[k] = b;
    return b;
}

static inline void mark(struct ptime *t, int64_t ns, pid_t tid, uint32_t node,
                        int leave)
{
    size_t k = t->nmarks / PTIME_BLOCK;
    struct tmark *m;

    if (t->nmarks >= t->marks_limit) {
        t->marks_dropped++;
        return;
    }
    m = &(k < t->nblocks && t->blocks[k]->refs == 1 ? t->blocks[k]
                                                      : block_for(t))
             ->m[t->nmarks % PTIME_BLOCK];
    m->ns = ns;
    m->tid = (int32_t)tid;
    m->what = node << 1 | (leave ? 1u : 0u);
    t->nmarks++;
}

static void blocks_drop(struct ptime *t)
{
    for (size_t i = 0; i < t->nblocks; i++)
        block_unref(t->blocks[i]);
    t->nblocks = 0;
    t->nmarks = 0;
}

void ptime_changes(struct profile *p, const struct stacks_change *c,
                   size_t n)
{
    struct ptime *t = &p->time;
    struct tthread *th = NULL;
    uint32_t cur = CCT_ROOT; /* th's, kept here while it is th */
    int64_t last = -1;
    size_t i;

    for (i = 0; i < n; i++) {
        uint32_t node = c[i].node;
        int64_t ns = c[i].ns;

        if (th == NULL || th->tid != c[i].tid) {
            if (th != NULL) {
                th->cur = cur;
                th->last = last;
            }
            /* (ptime_thread() may move every thread when it adds one) */
            th = ptime_thread(p, c[i].tid, 1);
            cur = th->cur;
            last = th->last;
        }
        if (node >= th->n || cur >= th->n)
            ptime_cover(th, cur > node ? cur : node);
        if (last >= 0 && ns >= last)
            th->self[cur] += ns - last;
        if (c[i].what == STACKS_PUSH) {
            th->calls[node]++;
            mark(t, ns, c[i].tid, node, 0);
        } else {
            mark(t, ns, c[i].tid, cur, 1);
        }
        cur = node;
        last = ns;
    }
    if (th != NULL) {
        th->cur = cur;
        th->last = last;
    }
}

/* What the stacks want, so that listings say what this monitor uses; it
 * is never told of the events themselves (no deliver): the stacks tell it
 * what they do with them. */
static unsigned char want(void *arg, const struct registry_event *ev)
{
    struct profile *p = arg;

    if (pprogram_event(ev)) {
        /* <protocol#cct>: functions counted in the program when asked
         * for and it can; the records otherwise */
        if (p->time.in_program && ptime_program(p, NULL))
            return DAPTO_STATE_PROFILE;
        return DAPTO_STATE_RECORD;
    }
    return 0;
}

static void notice(void *arg, int on)
{
    struct profile *p = arg;
    size_t i;

    /* the sampled tree's sampler runs while the profile is on */
    psampler_use(p, on && p->time.in_program == PTIME_SAMPLED);
    /* the program's own tree needs no stacks in noosa */
    on = on && !p->time.in_program;
    if (on != p->time.using) {
        p->time.using = on;
        stacks_use(p->st, on);
    }
    /* time while off is nobody's */
    for (i = 0; i < p->time.nthreads; i++)
        p->time.threads[i].last = -1;
}

static void started(void *arg, const struct reader_item *item)
{
    struct profile *p = arg;
    size_t i;

    (void)item;
    for (i = 0; i < p->time.nthreads; i++) {
        p->time.threads[i].cur = CCT_ROOT;
        p->time.threads[i].last = -1;
    }
    p->time.pid = session_pid(p->session);
    pprogram_started(p);
    /* a new run: kept where it can be now; the program's tree is defined
     * again (a new channel may sit where the last one was) */
    profile_place(p);
    dispatch_changed(p->dispatch);
}

static const struct ckpt_ops time_state;

static const struct consumer_ops time_ops = {
    .name = "time-profile",
    .want = want,
    .notice = notice,
    .state = &time_state,
};

static const struct consumer_hooks time_more = {
    .started = started,
};

void ptime_init(struct profile *p)
{
    p->time.marks_limit = PTIME_MARKS;
    p->time.where = PTIME_DEFAULT;
    p->time.c = dispatch_add(p->dispatch, &time_ops, p);
    dispatch_set_hooks(p->dispatch, p->time.c, &time_more);
    dispatch_enable(p->dispatch, p->time.c, 0);
}

void ptime_free(struct profile *p)
{
    size_t i;

    for (i = 0; i < p->time.nthreads; i++) {
        free(p->time.threads[i].self);
        free(p->time.threads[i].calls);
    }
    free(p->time.threads);
    blocks_drop(&p->time);
    free(p->time.blocks);
    psampler_free(p);
}

/* Forget every thread's times and the timeline. */
static void ptime_clear(struct ptime *t)
{
    for (size_t i = 0; i < t->nthreads; i++) {
        free(t->threads[i].self);
        free(t->threads[i].calls);
    }
    t->nthreads = 0;
    t->last = 0;
    blocks_drop(t);
    t->marks_dropped = 0;
}

void ptime_reset(struct profile *p)
{
    ptime_clear(&p->time);
    dispatch_forget(p->dispatch, p->time.c);
}

/* <design#checkpoints> The time profile saved: its threads' times and
 * calls by node, and its timeline's blocks (shared, not copied). */
struct saved_time {
    size_t nthreads;
    struct tthread *threads;
    size_t nblocks, nmarks;
    struct tblock **blocks;
    uint64_t dropped;
    pid_t pid;
};

static void *time_save(void *arg, size_t *bytes)
{
    struct profile *p = arg;
    struct ptime *t = &p->time;
    struct saved_time *s = xcalloc(1, sizeof *s);

    *bytes = sizeof *s;
    s->nthreads = t->nthreads;
    s->threads = xcalloc(t->nthreads + 1, sizeof *s->threads);
    for (size_t i = 0; i < t->nthreads; i++) {
        const struct tthread *th = &t->threads[i];
        struct tthread *c = &s->threads[i];

        *c = *th;
        if (th->n > 0) {
            c->self = xreallocarray(NULL, th->n, sizeof *c->self);
            c->calls = xreallocarray(NULL, th->n, sizeof *c->calls);
            memcpy(c->self, th->self, th->n * sizeof *c->self);
            memcpy(c->calls, th->calls, th->n * sizeof *c->calls);
        }
        *bytes += sizeof *c + th->n * (sizeof *c->self + sizeof *c->calls);
    }
    s->nblocks = t->nblocks;
    s->nmarks = t->nmarks;
    s->blocks = xcalloc(t->nblocks + 1, sizeof *s->blocks);
    for (size_t i = 0; i < t->nblocks; i++) {
        s->blocks[i] = t->blocks[i];
        s->blocks[i]->refs++;
    }
    *bytes += (t->nblocks + 1) * sizeof *s->blocks;
    s->dropped = t->marks_dropped;
    s->pid = t->pid;
    return s;
}

static void time_restore(void *arg, const void *saved)
{
    struct profile *p = arg;
    struct ptime *t = &p->time;
    const struct saved_time *s = saved;

    ptime_clear(t);
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nthreads; i++) {
        struct tthread *th = ptime_thread(p, s->threads[i].tid, 1);
        size_t n = s->threads[i].n;

        *th = s->threads[i];
        th->self = NULL;
        th->calls = NULL;
        if (n > 0) {
            th->self = xreallocarray(NULL, n, sizeof *th->self);
            th->calls = xreallocarray(NULL, n, sizeof *th->calls);
            memcpy(th->self, s->threads[i].self, n * sizeof *th->self);
            memcpy(th->calls, s->threads[i].calls, n * sizeof *th->calls);
        }
    }
    if (s->nblocks > t->blocks_cap) {
        t->blocks = xreallocarray(t->blocks, s->nblocks, sizeof *t->blocks);
        t->blocks_cap = s->nblocks;
    }
    for (size_t i = 0; i < s->nblocks; i++) {
        t->blocks[i] = s->blocks[i];
        t->blocks[i]->refs++;
    }
    t->nblocks = s->nblocks;
    t->nmarks = s->nmarks;
    t->marks_dropped = s->dropped;
    t->pid = s->pid;
}

static void time_release(void *arg, void *saved)
{
    struct saved_time *s = saved;

    (void)arg;
    for (size_t i = 0; i < s->nthreads; i++) {
        free(s->threads[i].self);
        free(s->threads[i].calls);
    }
    free(s->threads);
    for (size_t i = 0; i < s->nblocks; i++)
        block_unref(s->blocks[i]);
    free(s->blocks);
    free(s);
}

static const struct ckpt_ops time_state = {
    .save = time_save,
    .restore = time_restore,
    .release = time_release,
};

void ptime_place(struct profile *p, int in)
{
    int enabled = dispatch_enabled(p->time.c);

    if (in == p->time.in_program)
        return;
    p->time.in_program = in;
    /* the stacks as the new place wants them */
    notice(p, enabled);
    dispatch_changed(p->dispatch);
}
