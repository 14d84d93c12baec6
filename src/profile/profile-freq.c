/* SPDX-License-Identifier: MIT */
/*
 * profile-freq.c - the frequency profile: a count per visible event and
 * component stack, and the calls of each stack (its enters, which the
 * stacks report).  The consumer wants exactly the visible events, so the
 * program emits nothing else for it.  Counts live in a hash table by
 * (calling-context node, event name); an event's name is found through a
 * table by event code made once per interface.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "dapto.h"
#include "dispatch.h"
#include "dispatch.h"
#include "session.h"
#include "sink.h"
#include "profile-int.h"
#include "stacks.h"
#include "xmalloc.h"

static size_t hash_pair(uint32_t a, uint32_t b)
{
    uint64_t h = ((uint64_t)a << 32) | b;

    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return (size_t)h;
}

static void slots_grow(struct pfreq *f)
{
    struct fcount *old = f->slots;
    size_t oldn = f->mask + 1, i, j;

    f->mask = f->mask * 2 + 1;
    f->slots = xcalloc(f->mask + 1, sizeof *f->slots);
    for (i = 0; i < oldn; i++) {
        if (old[i].n == 0)
            continue;
        for (j = hash_pair(old[i].node, old[i].ev) & f->mask;
             f->slots[j].n != 0; j = (j + 1) & f->mask)
            ;
        f->slots[j] = old[i];
    }
    free(old);
}

/* Count K events named EV at node NODE. */
static void count(struct pfreq *f, uint32_t node, uint32_t ev, uint64_t k)
{
    size_t j;

    for (j = hash_pair(node, ev) & f->mask; f->slots[j].n != 0;
         j = (j + 1) & f->mask) {
        if (f->slots[j].node == node && f->slots[j].ev == ev) {
            f->slots[j].n += k;
            f->total += k;
            return;
        }
    }
    f->slots[j].node = node;
    f->slots[j].ev = ev;
    f->slots[j].n = k;
    f->total += k;
    if (++f->n * 2 > f->mask)
        slots_grow(f);
}

/* The name number of event E, through the table by code (made again for
 * every run: codes are a run's; and for another event of the code). */
static uint32_t event_name(struct profile *p, const struct registry_event *e)
{
    struct pfreq *f = &p->freq;

    if (e->code < f->limit && f->evname[e->code] != UINT32_MAX &&
        f->evfor[e->code] == e)
        return f->evname[e->code];
    if (e->code >= f->limit) {
        unsigned int limit = f->limit > 0 ? f->limit : 64;

        while (limit <= e->code)
            limit *= 2;
        f->evname = xreallocarray(f->evname, limit, sizeof *f->evname);
        f->evfor = xreallocarray(f->evfor, limit, sizeof *f->evfor);
        memset(f->evname + f->limit, 0xff,
               (limit - f->limit) * sizeof *f->evname);
        f->limit = limit;
    }
    f->evname[e->code] = cct_intern(stacks_cct(p->st), e->name,
                                    strlen(e->name));
    f->evfor[e->code] = e;
    return f->evname[e->code];
}

/* A new run: its event codes may stand for other events. */
static void started(void *arg, const struct reader_item *item)
{
    struct profile *p = arg;

    (void)item;
    if (p->freq.limit > 0)
        memset(p->freq.evname, 0xff, p->freq.limit * sizeof *p->freq.evname);
    /* a new run: kept where it can be now; the program's tree is defined
     * again, its paths stand for nothing yet */
    pprogram_started(p);
    profile_place(p);
    if (p->freq.in_program)
        dispatch_changed(p->dispatch);
}

static unsigned char want(void *arg, const struct registry_event *ev)
{
    struct profile *p = arg;

    /* <protocol#cct>: the calls of functions and components, and the
     * visible events, counted in the program's trees when it can (a
     * runtime before protocol 1.0.6 counts no event there: only calls);
     * the records of every enter and leave otherwise */
    if (p->freq.in_program && ptime_program(p, NULL)) {
        if (pprogram_event(ev))
            return DAPTO_STATE_PROFILE;
        return ev->visible && channel_paths(session_channel(p->session)) ? DAPTO_STATE_PROFILE
                                                                         : 0;
    }
    return ev->visible ? DAPTO_STATE_RECORD : 0;
}

static void deliver(void *arg, struct dispatch_event *de)
{
    struct profile *p = arg;

    /* (counted in the program's trees when kept there) */
    if (!de->event->visible || p->freq.in_program)
        return;
    count(&p->freq, stacks_context(p->st, de->item->tid),
          event_name(p, de->event), 1);
}

/* A recording's events, without items (dispatch.h): no stack changes
 * between them, so the events of one thread in a row are counted at
 * once. */
static void counts(void *arg, const struct reader_ev *evs, unsigned int n)
{
    struct profile *p = arg;
    unsigned int i = 0, j;

    if (p->freq.in_program)
        return;
    for (; i < n; i = j) {
        for (j = i + 1; j < n && evs[j].event == evs[i].event &&
                        evs[j].tid == evs[i].tid;
             j++)
            ;
        if (evs[i].event->visible)
            count(&p->freq, stacks_context(p->st, evs[i].tid),
                  event_name(p, evs[i].event), j - i);
    }
}

static void notice(void *arg, int on)
{
    struct profile *p = arg;

    /* the program's own tree needs no stacks in noosa */
    on = on && !p->freq.in_program;
    if (on != p->freq.using) {
        p->freq.using = on;
        stacks_use(p->st, on);
    }
}

static const struct consumer_hooks freq_more = {
    .started = started,
    .counts = counts,
};

/* <design#checkpoints> The frequency profile saved: its counts and the
 * calls by node. */
struct saved_freq {
    struct fcount *slots;
    size_t mask, n;
    uint64_t *calls;
    size_t ncalls;
    uint64_t total;
};

static void *freq_save(void *arg, size_t *bytes)
{
    struct profile *p = arg;
    const struct pfreq *f = &p->freq;
    struct saved_freq *s = xcalloc(1, sizeof *s);

    s->mask = f->mask;
    s->n = f->n;
    s->total = f->total;
    s->slots = xreallocarray(NULL, f->mask + 1, sizeof *s->slots);
    memcpy(s->slots, f->slots, (f->mask + 1) * sizeof *s->slots);
    s->ncalls = f->ncalls;
    if (f->ncalls > 0) {
        s->calls = xreallocarray(NULL, f->ncalls, sizeof *s->calls);
        memcpy(s->calls, f->calls, f->ncalls * sizeof *s->calls);
    }
    *bytes = sizeof *s + (f->mask + 1) * sizeof *s->slots +
             f->ncalls * sizeof *s->calls;
    return s;
}

static void freq_restore(void *arg, const void *saved)
{
    struct profile *p = arg;
    struct pfreq *f = &p->freq;
    const struct saved_freq *s = saved;

    if (s == NULL) {
        memset(f->slots, 0, (f->mask + 1) * sizeof *f->slots);
        f->n = 0;
        f->total = 0;
        if (f->calls != NULL)
            memset(f->calls, 0, f->ncalls * sizeof *f->calls);
        return;
    }
    free(f->slots);
    f->mask = s->mask;
    f->n = s->n;
    f->total = s->total;
    f->slots = xreallocarray(NULL, s->mask + 1, sizeof *f->slots);
    memcpy(f->slots, s->slots, (s->mask + 1) * sizeof *f->slots);
    free(f->calls);
    f->calls = NULL;
    f->ncalls = s->ncalls;
    if (s->ncalls > 0) {
        f->calls = xreallocarray(NULL, s->ncalls, sizeof *f->calls);
        memcpy(f->calls, s->calls, s->ncalls * sizeof *f->calls);
    }
}

static void freq_release(void *arg, void *saved)
{
    struct saved_freq *s = saved;

    (void)arg;
    free(s->slots);
    free(s->calls);
    free(s);
}

static const struct ckpt_ops freq_state = {
    .save = freq_save,
    .restore = freq_restore,
    .release = freq_release,
};

static const struct consumer_ops freq_ops = {
    .name = "frequency-profile",
    .want = want,
    .deliver = deliver,
    .notice = notice,
    .state = &freq_state,
};

void pfreq_init(struct profile *p)
{
    struct pfreq *f = &p->freq;

    f->mask = 1023;
    f->slots = xcalloc(f->mask + 1, sizeof *f->slots);
    f->where = PFREQ_DEFAULT;
    f->c = dispatch_add(p->dispatch, &freq_ops, p);
    dispatch_set_hooks(p->dispatch, f->c, &freq_more);
    /* off until asked for */
    dispatch_enable(p->dispatch, f->c, 0);
}

void pfreq_free(struct profile *p)
{
    free(p->freq.slots);
    free(p->freq.calls);
    free(p->freq.evname);
    free(p->freq.evfor);
}

void pfreq_reset(struct profile *p)
{
    struct pfreq *f = &p->freq;

    memset(f->slots, 0, (f->mask + 1) * sizeof *f->slots);
    f->n = 0;
    f->total = 0;
    if (f->calls != NULL)
        memset(f->calls, 0, f->ncalls * sizeof *f->calls);
    dispatch_forget(p->dispatch, f->c);
}

/* Make the calls cover NODE. */
static void calls_cover(struct pfreq *f, uint32_t node)
{
    size_t n = f->ncalls > 0 ? f->ncalls : 256;

    while (n <= node)
        n *= 2;
    f->calls = xreallocarray(f->calls, n, sizeof *f->calls);
    memset(f->calls + f->ncalls, 0, (n - f->ncalls) * sizeof *f->calls);
    f->ncalls = n;
}

void pfreq_calls_made(struct profile *p, const struct stacks_change *c,
                      size_t n)
{
    struct pfreq *f = &p->freq;
    size_t i;

    for (i = 0; i < n; i++) {
        if (c[i].what != STACKS_PUSH)
            continue;
        if (c[i].node >= f->ncalls)
            calls_cover(f, c[i].node);
        f->calls[c[i].node]++;
    }
}

void pfreq_add_calls(struct profile *p, uint32_t node, uint64_t n)
{
    struct pfreq *f = &p->freq;

    if (node >= f->ncalls)
        calls_cover(f, node);
    f->calls[node] += n;
}

void pfreq_add_event(struct profile *p, uint32_t node, const struct registry_event *ev,
                     uint64_t n)
{
    count(&p->freq, node, event_name(p, ev), n);
}

void pfreq_place(struct profile *p, int in)
{
    int enabled = dispatch_enabled(p->freq.c);

    if (in == p->freq.in_program)
        return;
    p->freq.in_program = in;
    /* the stacks as the new place wants them */
    notice(p, enabled);
    dispatch_changed(p->dispatch);
}

uint64_t pfreq_calls(const struct profile *p, uint32_t node)
{
    return node < p->freq.ncalls ? p->freq.calls[node] : 0;
}
