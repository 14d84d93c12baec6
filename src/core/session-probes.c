/* SPDX-License-Identifier: MIT */
/*
 * session-probes.c - the USDT probes of the processes of a run
 * <design#probes>: looked for as a process starts (and at each change of
 * its libraries, the dynamic linker's breakpoint), their states set as
 * the dispatcher writes them, and a hit at a probe's breakpoint handed to
 * the hooks as an event of the program, the thread waiting under ptrace
 * for as long as a consumer keeps the program stopped there.
 *
 * Stops are one at a time (<design#processes>): a hit while the program
 * is stopped at something else, or while a delivery is under way, waits
 * in its process's queue, its thread at the breakpoint, until the
 * program goes on.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "probes.h"
#include "protocol.h"
#include "session-int.h"
#include "xmalloc.h"

static void say_probes(void *arg, const char *text)
{
    message(arg, "%s", text);
}

/* A new aspect of probes: handed on as the program's aspects are. */
static void new_aspect(void *arg, struct registry_aspect *a)
{
    struct session *s = arg;
    struct reader_item item;

    memset(&item, 0, sizeof item);
    item.kind = READER_ASPECT;
    item.stop = -1;
    item.aspect = a;
    deliver(s, &item);
}

/* The current process's run begins for consumers with the first hit of
 * its probes, when its runtime has not said hello (a program without
 * one). */
static void hello(struct session *s)
{
    struct reader_item item;

    if (s->cur->hello || s->described)
        return;
    s->cur->hello = 1;
    memset(&item, 0, sizeof item);
    item.kind = READER_HELLO;
    item.stop = -1;
    item.pid = target_pid(s->target);
    deliver(s, &item);
}

/* Look for probes in what the current process maps now. */
static void scan(struct session *s)
{
    probes_scan(s->cur->probes, new_aspect, s);
}

void probes_begin(struct session *s)
{
    if (s->no_probes || s->cur == NULL || s->target == NULL ||
        s->channel == NULL)
        return;
    if (s->hints == NULL)
        s->hints = probe_hints_create();
    probes_free(s->cur->probes);
    s->cur->probes = probes_create(s->target, channel_registry(s->channel),
                                   s->hints, say_probes, s);
    scan(s);
}

void probes_describe(struct session *s)
{
    /* (at main: the libraries it needs are there) */
    probes_begin(s);
}

void probes_end(struct sproc *p)
{
    probes_free(p->probes);
    p->probes = NULL;
    free(p->bpq);
    p->bpq = NULL;
    p->nbpq = p->abpq = 0;
}

int probes_owned(const struct session *s, unsigned int code)
{
    return s->cur != NULL && probes_owns(s->cur->probes, code);
}

/* Let thread TID at a breakpoint go on, saying so when it cannot. */
static void go_on(struct session *s, pid_t tid)
{
    char *cause = NULL;

    s->probe_spin = 1;
    if (target_break_go(s->target, tid, &cause) != 0) {
        message(s, "cannot resume thread %d: %s", (int)tid, cause);
        free(cause);
    }
}

/* Whether the current process's hits may be told now. */
static int may_tell(const struct session *s)
{
    return s->state == SESSION_RUNNING && s->reading &&
           s->dispatching < 0 && !s->attaching && s->target != NULL &&
           target_alive(s->target);
}

/* Tell the hit EV of the current process.  Returns 1 when the program
 * stays stopped there. */
static int tell(struct session *s, const struct target_event *ev)
{
    struct probes *p = s->cur->probes;
    _Alignas(8) unsigned char rec[DAPTO_EVENT_MAX];
    struct reader_item item;
    size_t size = 0;
    enum probes_hit hit = probes_hit(p, ev->tid, ev->addr, rec, &size);

    switch (hit) {
    case PROBES_HIT_LIBS:
        scan(s);
        go_on(s, ev->tid);
        return 0;
    case PROBES_HIT_NONE:
        go_on(s, ev->tid);
        return 0;
    case PROBES_HIT_EVENT:
    case PROBES_HIT_RECORD:
        break;
    }
    /* the records the program wrote before come first */
    drain(s, 0);
    if (!may_tell(s))
        return -1;
    /* (a program without a runtime: its run begins with its first hit;
     * one with a runtime has said hello by then, at its start) */
    hello(s);
    channel_inject(s->channel, rec, size, &item);
    item.tid = ev->tid;
    if (hit == PROBES_HIT_RECORD) {
        /* no consumer stops there: told as the program's own events
         * that do not wait are, the thread going on first, so that it
         * runs to its next hit (on its CPU) while noosa tells this one */
        go_on(s, ev->tid);
        item.stop = -1;
        return deliver(s, &item);
    }
    item.stop = STOP_PROBE;
    return deliver(s, &item);
}

void probes_pending(struct session *s)
{
    struct sproc *me = s->cur;

    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct sproc *p = s->procs[i];

        if (p->nbpq == 0)
            continue;
        select_proc(s, p);
        while (p->nbpq > 0 && may_tell(s)) {
            struct target_event ev = p->bpq[0];
            int rc;

            memmove(p->bpq, p->bpq + 1, --p->nbpq * sizeof *p->bpq);
            rc = tell(s, &ev);
            if (rc < 0) {
                /* (the records before it stopped the program: it waits
                 * its turn again, first) */
                memmove(p->bpq + 1, p->bpq, p->nbpq++ * sizeof *p->bpq);
                p->bpq[0] = ev;
            }
            if (rc != 0)
                break;
        }
        if (s->state != SESSION_RUNNING)
            return; /* (stopped there: the current process is that one) */
    }
    if (me != NULL && s->state == SESSION_RUNNING)
        select_focus(s);
}

void probes_breakpoint(struct session *s, const struct target_event *ev)
{
    struct sproc *p = s->cur;

    if (p == NULL || p->probes == NULL) {
        go_on(s, ev->tid);
        return;
    }
    if (p->nbpq == p->abpq) {
        p->abpq = p->abpq == 0 ? 8 : 2 * p->abpq;
        p->bpq = xreallocarray(p->bpq, p->abpq, sizeof *p->bpq);
    }
    p->bpq[p->nbpq++] = *ev;
    if (may_tell(s))
        probes_pending(s);
}

int session_set_probes(struct session *s, int on)
{
    s->no_probes = !on;
    return 0;
}

struct probe_hints *session_probe_hints(struct session *s)
{
    if (s->hints == NULL)
        s->hints = probe_hints_create();
    return s->hints;
}

int session_has_probes(const struct session *s)
{
    return s->cur != NULL && probes_count(s->cur->probes) > 0;
}

char *session_probes_text(const struct session *s)
{
    struct sproc *p = s->cur;

    if (p == NULL || p->probes == NULL || probes_count(p->probes) == 0)
        return NULL;
    return probes_text(p->probes);
}
