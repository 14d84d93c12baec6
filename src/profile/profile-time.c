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

#include "dapto.h"
#include "dispatch.h"
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

static inline void mark(struct ptime *t, int64_t ns, pid_t tid, uint32_t node,
                        int leave)
{
    if (t->nmarks >= t->marks_limit) {
        t->marks_dropped++;
        return;
    }
    if (t->nmarks == t->marks_cap)
        t->marks = xgrow(t->marks, t->nmarks, &t->marks_cap,
                         sizeof *t->marks);
    t->marks[t->nmarks].ns = ns;
    t->marks[t->nmarks].tid = (int32_t)tid;
    t->marks[t->nmarks].what = node << 1 | (leave ? 1u : 0u);
    t->nmarks++;
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

static const struct consumer_ops time_ops = {
    .name = "time-profile",
    .want = want,
    .notice = notice,
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
    free(p->time.marks);
    psampler_free(p);
}

void ptime_reset(struct profile *p)
{
    struct ptime *t = &p->time;
    size_t i;

    for (i = 0; i < t->nthreads; i++) {
        free(t->threads[i].self);
        free(t->threads[i].calls);
    }
    t->nthreads = 0;
    t->last = 0;
    free(t->marks);
    t->marks = NULL;
    t->nmarks = t->marks_cap = 0;
    t->marks_dropped = 0;
}

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
