/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c - the monitor coordinator.  See dispatch.h.
 *
 * The table maps an event code to the consumers that want that event, in
 * the order they were added.  Computing it asks every enabled consumer
 * about every event of the interface; that happens only when a wish
 * changes or an aspect arrives, never per event (Eve's rule: filter at the
 * source, precompute the fan-out).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "cond.h"
#include "dapto.h"
#include "dispatch.h"
#include "protocol.h"
#include "session.h"
#include "symnames.h"
#include "xmalloc.h"

/* Posts delivered from inside posts, at most. */
#define DISPATCH_POST_DEPTH 16

struct consumer {
    const struct consumer_ops *ops;
    const struct consumer_hooks *more; /* NULL when none */
    void *arg;
    int enabled;
    int dead; /* removed while events were being delivered */
    struct ckpt_part *part; /* <design#checkpoints>, or NULL */
};

/* Whether C is told of events now: during a replay's move, only a
 * participant of the checkpoints not absent from the one restored. */
#define TOLD(d, c)                                                      \
    (!(d)->quiet || ((c)->part != NULL && !ckpts_absent((c)->part)))

/* Where a consumer's clauses on an event are in the event's filter. */
struct fanslot {
    unsigned char nplaced;  /* its clauses the program evaluates */
    unsigned char always;   /* told whatever they say (it wants the event
                               unconditionally too, or evaluates some
                               clauses itself) */
    unsigned char slot[DISPATCH_CLAUSES]; /* clause j: filter clause slot[j] */
};

struct fanout {
    struct consumer **c;
    struct fanslot *slot;   /* one per consumer */
    unsigned int n;
};

/* A clause in the program, for one run: which consumer's, where in its
 * event's filter, and its counters <protocol#counters>.  Kept across
 * rebuilds of the table so that a clause stays where it is while records
 * evaluated with the filter may still be in the ring. */
struct placed {
    const struct consumer *c;
    unsigned int code;
    unsigned int tag;
    unsigned char slot;
    int live;               /* in the current filter */
    uint16_t checked, passed, hits;
};

/* The counters of an event's filter, for one run. */
struct evcount {
    uint16_t checked, passed;
};

/* The consumers that want the artificial events of one name. */
struct postout {
    char *name;
    struct fanout f;
};

/* What the dispatcher keeps for one process of the run <design#processes>:
 * its interface has its own codes, its region its own filters and
 * counters, its functions their own addresses. */
struct dtable {
    struct registry *reg; /* the registry the table was built for */
    unsigned int limit;   /* table size (event codes) */
    struct fanout *table;
    unsigned char *states;
    unsigned char *counted; /* by code: told only to counts hooks */
    int counting;           /* some event is */

    /* Filters <protocol#filter>, for the current run: clauses placed,
     * event counters by code, counter ids handed out. */
    struct placed *placed;
    unsigned int nplaced;
    struct evcount *evcount;
    unsigned int nevcount;
    unsigned int next_counter;
    int direct; /* function records go straight to the consumers of enter */

    /* Function entries and exits handed over as enter/leave: the names,
     * and the built-in events of the registry the table is for. */
    struct symnames *names;
    const struct registry_event *fn_enter, *fn_leave;
};

struct dispatch {
    struct session *session;
    struct ckpts *ckpts; /* the session's (outlives it), or NULL */
    int quiet;           /* dispatch_quiet() */
    struct consumer **consumers;
    unsigned int nconsumers;

    /* The current process's table (session_current()); the others are
     * kept in tabs by process while another is current (dispatch_process
     * swaps them), so that a run of one process never swaps anything. */
    struct dtable t;
    int cur;              /* its process, or -1 */
    struct dtable *tabs;  /* by process; tabs[cur] is stale */
    unsigned int ntabs;

    int dirty;
    int busy; /* delivering: the table and consumers must stay */
    int syncing; /* dispatch_sync() goes through the processes */

    /* Artificial events: the fan-out by name, made when a name is first
     * posted after a change of wishes. */
    struct postout *posts;
    unsigned int nposts;
    int posts_dirty;
    int post_depth;

    struct decode_value fn_value;
};

struct dispatch *dispatch_create(struct session *s)
{
    struct dispatch *d = xcalloc(1, sizeof *d);

    d->session = s;
    d->ckpts = s != NULL ? session_checkpoints(s) : NULL;
    d->dirty = 1;
    d->t.names = symnames_create();
    d->cur = 0;
    return d;
}

static void posts_free(struct dispatch *d)
{
    unsigned int i;

    for (i = 0; i < d->nposts; i++) {
        free(d->posts[i].name);
        free(d->posts[i].f.c);
    }
    free(d->posts);
    d->posts = NULL;
    d->nposts = 0;
    d->posts_dirty = 0;
}

static void fanouts_free(struct dtable *t)
{
    unsigned int i;

    for (i = 0; i < t->limit; i++) {
        free(t->table[i].c);
        free(t->table[i].slot);
    }
    free(t->table);
    free(t->states);
    free(t->counted);
    t->table = NULL;
    t->states = NULL;
    t->counted = NULL;
    t->limit = 0;
}

static void table_free(struct dispatch *d)
{
    fanouts_free(&d->t);
}

/* Every process's table T, the current one's (d->t) in its place. */
static struct dtable *table_at(struct dispatch *d, unsigned int i)
{
    return (int)i == d->cur ? &d->t : &d->tabs[i];
}

static void dtable_free(struct dtable *t)
{
    fanouts_free(t);
    free(t->placed);
    free(t->evcount);
    symnames_free(t->names);
    memset(t, 0, sizeof *t);
}

/* Forget the tables of processes other than the current one (a new
 * run). */
static void tables_drop(struct dispatch *d)
{
    for (unsigned int i = 0; i < d->ntabs; i++)
        if ((int)i != d->cur)
            dtable_free(&d->tabs[i]);
}

void dispatch_free(struct dispatch *d)
{
    unsigned int i;

    if (d == NULL)
        return;
    tables_drop(d);
    free(d->tabs);
    dtable_free(&d->t);
    posts_free(d);
    for (i = 0; i < d->nconsumers; i++)
        free(d->consumers[i]);
    free(d->consumers);
    free(d);
}

void dispatch_process(struct dispatch *d)
{
    int i = d->session != NULL ? session_current(d->session) : -1;
    unsigned int need;

    if (i < 0 || i == d->cur)
        return;
    need = (unsigned int)(i > d->cur ? i : d->cur) + 1;
    if (need > d->ntabs) {
        d->tabs = xreallocarray(d->tabs, need, sizeof *d->tabs);
        memset(&d->tabs[d->ntabs], 0, (need - d->ntabs) * sizeof *d->tabs);
        d->ntabs = need;
    }
    d->tabs[d->cur] = d->t;
    d->t = d->tabs[i];
    memset(&d->tabs[i], 0, sizeof d->tabs[i]);
    if (d->t.names == NULL) {
        /* a process new to the dispatcher: everything to be made */
        d->t.names = symnames_create();
        symnames_reset(d->t.names, session_pid(d->session));
        d->dirty = 1;
    }
    d->cur = i;
}

struct consumer *dispatch_add(struct dispatch *d,
                              const struct consumer_ops *ops, void *arg)
{
    struct consumer *c = xcalloc(1, sizeof *c);

    c->ops = ops;
    c->arg = arg;
    c->enabled = 1;
    if (ops->state != NULL && d->ckpts != NULL)
        c->part = ckpts_join(d->ckpts, ops->state, arg);
    d->consumers = xreallocarray(d->consumers, d->nconsumers + 1,
                                 sizeof *d->consumers);
    d->consumers[d->nconsumers++] = c;
    dispatch_changed(d);
    return c;
}

/* Consumer C is gone: its clauses' slots are free to reuse (their
 * counters are not: a count belongs to its clause). */
static void forget_clauses(struct dispatch *d, const struct consumer *c)
{
    for (unsigned int k = 0; k == 0 || k < d->ntabs; k++) {
        struct dtable *t = d->ntabs == 0 ? &d->t : table_at(d, k);

        for (unsigned int i = 0; i < t->nplaced; i++) {
            if (t->placed[i].c == c) {
                t->placed[i].c = NULL;
                t->placed[i].live = 0;
            }
        }
    }
}

/* Free consumers removed during a delivery. */
static void reap(struct dispatch *d)
{
    unsigned int i, j = 0;

    for (i = 0; i < d->nconsumers; i++) {
        if (d->consumers[i]->dead) {
            forget_clauses(d, d->consumers[i]);
            if (d->ckpts != NULL)
                ckpts_leave(d->ckpts, d->consumers[i]->part);
            free(d->consumers[i]);
        } else {
            d->consumers[j++] = d->consumers[i];
        }
    }
    if (j != d->nconsumers)
        d->posts_dirty = 1;
    d->nconsumers = j;
}

void dispatch_remove(struct dispatch *d, struct consumer *c)
{
    unsigned int i;

    if (d->busy) {
        c->dead = 1;
        c->enabled = 0;
        dispatch_changed(d);
        return;
    }
    for (i = 0; i < d->nconsumers; i++) {
        if (d->consumers[i] == c) {
            memmove(&d->consumers[i], &d->consumers[i + 1],
                    (d->nconsumers - i - 1) * sizeof *d->consumers);
            d->nconsumers--;
            break;
        }
    }
    forget_clauses(d, c);
    if (d->ckpts != NULL)
        ckpts_leave(d->ckpts, c->part);
    free(c);
    /* the tables may point at C: rebuild them before any delivery */
    for (unsigned int k = 0; k == 0 || k < d->ntabs; k++)
        fanouts_free(d->ntabs == 0 ? &d->t : table_at(d, k));
    posts_free(d);
    dispatch_changed(d);
}

void dispatch_set_hooks(struct dispatch *d, struct consumer *c,
                   const struct consumer_hooks *more)
{
    c->more = more;
    dispatch_changed(d);
}

void dispatch_enable(struct dispatch *d, struct consumer *c, int on)
{
    on = on != 0;
    if (c->enabled == on)
        return;
    c->enabled = on;
    dispatch_forget(d, c);
    if (c->ops->notice != NULL)
        c->ops->notice(c->arg, on);
    dispatch_changed(d);
}

void dispatch_forget(struct dispatch *d, struct consumer *c)
{
    if (d->ckpts != NULL && c->part != NULL)
        ckpts_forget(d->ckpts, c->part);
}

int dispatch_told(const struct dispatch *d, const struct consumer *c)
{
    return TOLD(d, c);
}

uint64_t dispatch_quiet(struct dispatch *d, int on)
{
    uint64_t mask = READER_ITEMS_BIT;

    d->quiet = on;
    if (!on)
        return 0;
    dispatch_flush(d);
    for (unsigned int code = 0; code < d->t.limit; code++) {
        const struct fanout *f = &d->t.table[code];

        for (unsigned int i = 0; i < f->n; i++)
            if (f->c[i]->enabled && TOLD(d, f->c[i]))
                mask |= reader_code_bit(code);
    }
    /* (function records are the built-in enter and leave, whose codes the
     * table has when the program has them) */
    return mask;
}

int dispatch_enabled(const struct consumer *c)
{
    return c->enabled;
}

const char *dispatch_name(const struct consumer *c)
{
    return c->ops->name;
}

unsigned int dispatch_count(const struct dispatch *d)
{
    return d->nconsumers;
}

struct consumer *dispatch_at(const struct dispatch *d, unsigned int i)
{
    return i < d->nconsumers ? d->consumers[i] : NULL;
}

void *dispatch_arg(const struct consumer *c)
{
    return c->arg;
}

unsigned char dispatch_wants(const struct consumer *c,
                             const struct registry_event *ev)
{
    return c->ops->want(c->arg, ev);
}

/* Turn the direct path on or off. */
static void set_direct(struct dispatch *d, int on)
{
    d->t.direct = on;
    if (d->session != NULL)
        session_direct(d->session, on);
}

void dispatch_changed(struct dispatch *d)
{
    /* (the direct path declines from now on, and the next function
     * record comes as an item, which makes the table again) */
    d->dirty = 1;
    d->posts_dirty = 1;
}

/* Whether function records may take the direct path: the consumers told
 * of enter are those told of leave, and each takes function records. */
static int direct_holds(const struct dispatch *d)
{
    const struct fanout *e, *l;
    unsigned int i;

    if (d->t.fn_enter == NULL || d->t.fn_leave == NULL ||
        d->t.fn_enter->code >= d->t.limit || d->t.fn_leave->code >= d->t.limit)
        return 0;
    e = &d->t.table[d->t.fn_enter->code];
    l = &d->t.table[d->t.fn_leave->code];
    if (e->n == 0 || e->n != l->n)
        return 0;
    for (i = 0; i < e->n; i++) {
        if (e->c[i] != l->c[i] || e->c[i]->more == NULL ||
            e->c[i]->more->functions == NULL)
            return 0;
    }
    return 1;
}

/* Which events only consumers with a counts hook are told of, if any
 * (never the built-in enter and leave: they have the direct path), and
 * tell the session whether any is. */
static void set_counted(struct dispatch *d)
{
    unsigned int code, i;

    d->t.counting = 0;
    for (code = 0; code < d->t.limit; code++) {
        const struct fanout *f = &d->t.table[code];
        int only = registry_event(d->t.reg, code) != NULL;

        if ((d->t.fn_enter != NULL && code == d->t.fn_enter->code) ||
            (d->t.fn_leave != NULL && code == d->t.fn_leave->code))
            only = 0;
        for (i = 0; i < f->n && only; i++)
            if (f->c[i]->more == NULL || f->c[i]->more->counts == NULL ||
                f->slot[i].nplaced > 0)
                only = 0;
        d->t.counted[code] = (unsigned char)only;
        d->t.counting |= only;
    }
    if (d->session != NULL)
        session_counting(d->session, d->t.counting);
}

/* Built-in event CODE (enter or leave, whose one parameter is the name),
 * or NULL when the program's first aspect is not the built-in one. */
static const struct registry_event *builtin_event(struct registry *reg,
                                                  unsigned int code)
{
    const struct registry_event *ev = registry_event(reg, code);

    if (ev == NULL || ev->aspect == NULL || ev->nparams != 1 ||
        ev->params[0].kind != DAPTO_K_STR || ev->aspect->event_base != 0 ||
        strcmp(ev->aspect->name, "dapto") != 0)
        return NULL;
    return ev;
}

/* A counter id for this run, or DAPTO_CNT_NONE when they are used up. */
static uint16_t counter_id(struct dispatch *d)
{
    if (d->t.next_counter >= DAPTO_CNT_PER_SLOT)
        return DAPTO_CNT_NONE;
    return (uint16_t)d->t.next_counter++;
}

uint16_t dispatch_counter(struct dispatch *d)
{
    return counter_id(d);
}

/* The counters of event CODE's filter, made on first use. */
static struct evcount *event_counters(struct dispatch *d, unsigned int code)
{
    if (code >= d->t.nevcount) {
        unsigned int n = code + 1, i;

        d->t.evcount = xreallocarray(d->t.evcount, n, sizeof *d->t.evcount);
        for (i = d->t.nevcount; i < n; i++)
            d->t.evcount[i].checked = d->t.evcount[i].passed = DAPTO_CNT_NONE;
        d->t.nevcount = n;
    }
    if (d->t.evcount[code].checked == DAPTO_CNT_NONE) {
        d->t.evcount[code].checked = counter_id(d);
        d->t.evcount[code].passed = counter_id(d);
    }
    return &d->t.evcount[code];
}

static struct placed *find_placed(const struct dispatch *d,
                                  const struct consumer *c, unsigned int code,
                                  unsigned int tag)
{
    unsigned int i;

    for (i = 0; i < d->t.nplaced; i++) {
        struct placed *p = &d->t.placed[i];

        if (p->c == c && p->code == code && p->tag == tag)
            return p;
    }
    return NULL;
}

/* Clause P (for consumer C's TAG) gets counters of its own. */
static void place_as(struct dispatch *d, struct placed *p,
                     const struct consumer *c, unsigned int tag)
{
    p->c = c;
    p->tag = tag;
    p->checked = counter_id(d);
    p->passed = counter_id(d);
    p->hits = counter_id(d);
}

/* The slot of consumer C's clause TAG in event CODE's filter: the one it
 * had, else one never used in this run, else one whose clause is gone; or
 * NULL when all DAPTO_FILTER_CLAUSES are taken (or C gave TAG twice).
 * USED marks the slots of this rebuild so far. */
static struct placed *place(struct dispatch *d, const struct consumer *c,
                            unsigned int code, unsigned int tag,
                            const unsigned char *used)
{
    struct placed *p = find_placed(d, c, code, tag), *old = NULL;
    unsigned char taken[DAPTO_FILTER_CLAUSES];
    unsigned int i, slot;

    if (p != NULL)
        return used[p->slot] ? NULL : p;
    memset(taken, 0, sizeof taken);
    for (i = 0; i < d->t.nplaced; i++) {
        struct placed *q = &d->t.placed[i];

        if (q->code != code)
            continue;
        taken[q->slot] = 1;
        /* a slot of a clause that is gone may be reused */
        if (q->c == NULL && !used[q->slot] && old == NULL)
            old = q;
    }
    for (slot = 0; slot < DAPTO_FILTER_CLAUSES; slot++) {
        if (!taken[slot] && !used[slot])
            break;
    }
    if (slot == DAPTO_FILTER_CLAUSES) {
        /* the gone clause's counts are not the new one's */
        if (old != NULL)
            place_as(d, old, c, tag);
        return old;
    }
    d->t.placed = xreallocarray(d->t.placed, d->t.nplaced + 1, sizeof *d->t.placed);
    p = &d->t.placed[d->t.nplaced++];
    p->code = code;
    p->slot = (unsigned char)slot;
    place_as(d, p, c, tag);
    return p;
}

/* The program of a filter's empty slot: false. */
static const unsigned char never[] = {DAPTO_FOP_CONST, 0, 0, 0, 0, 0, 0, 0, 0,
                                      DAPTO_FOP_END};

/* One event's consumers, state and filter. */
static void sync_event(struct dispatch *d, const struct registry_event *ev,
                       int filters)
{
    struct fanout *f = &d->t.table[ev->code];
    struct dispatch_clause cl[DISPATCH_CLAUSES];
    struct cond_clause fc[DAPTO_FILTER_CLAUSES];
    unsigned char used[DAPTO_FILTER_CLAUSES];
    unsigned char state = 0;
    unsigned int i, j, nfc = 0;
    char *cause = NULL;

    memset(used, 0, sizeof used);
    memset(fc, 0, sizeof fc);
    for (i = 0; i < d->t.nplaced; i++) {
        if (d->t.placed[i].code == ev->code)
            d->t.placed[i].live = 0;
    }
    for (i = 0; i < d->nconsumers; i++) {
        struct consumer *c = d->consumers[i];
        struct fanslot fs;
        unsigned char w, cu;
        unsigned int k = 0;

        if (!c->enabled || (w = c->ops->want(c->arg, ev)) == 0)
            continue;
        cu = w;
        memset(&fs, 0, sizeof fs);
        if (filters && c->ops->clauses != NULL) {
            unsigned char u = 0;

            memset(cl, 0, sizeof cl);
            k = c->ops->clauses(c->arg, ev, &u, cl, DISPATCH_CLAUSES);
            if (k > DISPATCH_CLAUSES)
                k = DISPATCH_CLAUSES;
            if (k > 0)
                cu = u;
        }
        for (j = 0; j < k; j++) {
            struct placed *p = NULL;

            /* the clauses are placed in order; once one does not fit,
             * the consumer evaluates the rest itself */
            if (fs.nplaced == j && (cl[j].bits != 0 || cl[j].qflags != 0))
                p = place(d, c, ev->code, cl[j].tag, used);
            if (p == NULL) {
                cu |= cl[j].bits;
                continue;
            }
            p->live = 1;
            used[p->slot] = 1;
            fs.slot[fs.nplaced++] = p->slot;
            fc[p->slot].bits = cl[j].bits &
                               (DAPTO_STATE_RECORD | DAPTO_STATE_STOP);
            fc[p->slot].prog = cl[j].prog;
            fc[p->slot].prog_len = cl[j].len;
            fc[p->slot].flags = cl[j].every != 0 ? DAPTO_CL_HITS : 0;
            fc[p->slot].every = cl[j].every != 0 ? cl[j].every : 1;
            if (cl[j].qflags != 0) {
                /* <protocol#question>: counted there, no state bits */
                fc[p->slot].bits = 0;
                fc[p->slot].flags = cl[j].qflags &
                                    (DAPTO_CL_QUESTION | DAPTO_CL_QSTART |
                                     DAPTO_CL_PART | DAPTO_CL_WINDOW);
                fc[p->slot].every = cl[j].question + 1u;
            }
            fc[p->slot].after = cl[j].after;
            fc[p->slot].count = cl[j].count;
            fc[p->slot].checked = p->checked;
            fc[p->slot].passed = p->passed;
            fc[p->slot].hits = p->hits;
            if (p->slot + 1u > nfc)
                nfc = p->slot + 1u;
        }
        state |= cu;
        fs.always = (cu & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) != 0;
        /* <dispatch.h>: the trail alone, or no deliver, is no delivery */
        if ((!fs.always && fs.nplaced == 0) || c->ops->deliver == NULL)
            continue;
        f->c = xreallocarray(f->c, f->n + 1, sizeof *f->c);
        f->slot = xreallocarray(f->slot, f->n + 1, sizeof *f->slot);
        f->c[f->n] = c;
        f->slot[f->n++] = fs;
    }
    for (i = 0; i < nfc; i++) {
        if (fc[i].prog == NULL) {
            /* a slot between clauses (its clause is gone, one after it
             * stays): a program that never holds.  It names a state bit,
             * as every clause that is not a question's must for the
             * filter to be written at all; it never sets it. */
            fc[i].bits = DAPTO_STATE_RECORD;
            fc[i].prog = never;
            fc[i].prog_len = sizeof never;
            fc[i].every = 1;
            fc[i].checked = fc[i].passed = fc[i].hits = DAPTO_CNT_NONE;
        }
    }
    if (nfc > 0) {
        struct evcount *ec = event_counters(d, ev->code);

        /* the filter first, then the state that makes it read */
        if (session_set_filter(d->session, ev,
                               state & (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD |
                                        DAPTO_STATE_STOP),
                               fc, nfc, ec->checked, ec->passed, &cause) == 0) {
            state |= DAPTO_STATE_FILTER;
        } else {
            /* not written: every consumer is told, and decides */
            free(cause);
            cause = NULL;
            for (i = 0; i < nfc; i++)
                if (fc[i].prog != never)
                    state |= fc[i].bits;
            for (i = 0; i < f->n; i++) {
                f->slot[i].nplaced = 0;
                f->slot[i].always = 1;
            }
        }
    }
    /* clauses of this event that no consumer gives any more: their slots
     * may be reused */
    for (i = 0; i < d->t.nplaced; i++) {
        if (d->t.placed[i].code == ev->code && !d->t.placed[i].live)
            d->t.placed[i].c = NULL;
    }
    d->t.states[ev->code] = state;
    if (session_set_state(d->session, ev->code, state, &cause) != 0) {
        /* the program may be gone; the next run writes again */
        free(cause);
        cause = NULL;
    }
    if (!(state & DAPTO_STATE_FILTER))
        session_clear_filter(d->session, ev);
}

/* Make the current process's table and write its states. */
static void sync_table(struct dispatch *d)
{
    struct registry *reg = session_registry(d->session);
    unsigned int code, limit;
    int filters;

    table_free(d);
    d->t.reg = reg;
    d->dirty = 0;
    d->t.fn_enter = d->t.fn_leave = NULL;
    d->t.counting = 0;
    if (reg == NULL) {
        set_direct(d, 0);
        if (d->session != NULL)
            session_counting(d->session, 0);
        return;
    }
    d->t.fn_enter = builtin_event(reg, DAPTO_EV_ENTER);
    d->t.fn_leave = builtin_event(reg, DAPTO_EV_LEAVE);
    limit = registry_event_limit(reg);
    d->t.limit = limit;
    d->t.table = xcalloc(limit, sizeof *d->t.table);
    d->t.states = xcalloc(limit, 1);
    d->t.counted = xcalloc(limit, 1);
    filters = dispatch_filters(d, NULL);
    for (code = 0; code < limit; code++) {
        const struct registry_event *ev = registry_event(reg, code);

        if (ev != NULL)
            sync_event(d, ev, filters);
    }
    set_direct(d, direct_holds(d));
    set_counted(d);
}

void dispatch_sync(struct dispatch *d)
{
    unsigned int n = d->session != NULL ? session_nprocs(d->session) : 0;
    int cur;

    if (d->busy) {
        d->dirty = 1;
        return;
    }
    reap(d);
    if (n <= 1 || d->syncing) {
        sync_table(d);
        return;
    }
    /* every process of the run <design#processes>, each its own */
    cur = session_current(d->session);
    d->syncing = 1;
    for (unsigned int i = 0; i < n; i++) {
        session_select(d->session, i);
        dispatch_process(d);
        sync_table(d);
    }
    if (cur >= 0) {
        session_select(d->session, (unsigned int)cur);
        dispatch_process(d);
    }
    d->syncing = 0;
    d->dirty = 0;
}

void dispatch_flush(struct dispatch *d)
{
    struct registry *reg = session_registry(d->session);

    if (d->dirty || reg != d->t.reg ||
        (reg != NULL && registry_event_limit(reg) != d->t.limit))
        dispatch_sync(d);
}

/* A new run, or a process that joins the run under way (JOINED): tell
 * every consumer. */
static void started(struct dispatch *d, const struct reader_item *item,
                    int joined)
{
    unsigned int i;

    /* a new registry: the table is made again before the next event,
     * and a new region has no filters and no counts */
    d->dirty = 1;
    d->t.nplaced = 0;
    d->t.nevcount = 0;
    d->t.next_counter = 0;
    symnames_reset(d->t.names, session_pid(d->session));
    if (!joined)
        tables_drop(d); /* (those of the last run's other processes) */
    d->busy++;
    for (i = 0; i < d->nconsumers; i++) {
        struct consumer *c = d->consumers[i];
        void (*hook)(void *, const struct reader_item *);

        /* (a move crossing the start tells only what it tells events) */
        if (c->dead || c->more == NULL || !TOLD(d, c))
            continue;
        hook = joined ? c->more->joined : c->more->started;
        if (hook != NULL)
            hook(c->arg, item);
    }
    d->busy--;
}

/* The function entry or exit ITEM as the built-in enter or leave event in
 * *OUT, or NULL when the function is excluded or there is no built-in
 * aspect. */
static const struct reader_item *function_event(struct dispatch *d,
                                                const struct reader_item *item,
                                                struct reader_item *out)
{
    const struct registry_event *ev = item->enter ? d->t.fn_enter : d->t.fn_leave;
    const char *name;
    size_t len;

    if (ev == NULL)
        return NULL;
    name = symnames_name(d->t.names, item->function, &len);
    if (name == NULL)
        return NULL;
    /* every field: this is on the path of every function record */
    out->kind = READER_EVENT;
    out->code = ev->code;
    out->tid = item->tid;
    out->ns = item->ns;
    out->stop = item->stop; /* waiting where a breakpoint asked it to */
    out->event = ev;
    out->nvalues = 1;
    out->values = &d->fn_value;
    out->truncated = 0;
    out->filtered = 0;
    out->clauses = 0;
    out->pid = 0;
    out->ring_mode = 0;
    out->aspect = NULL;
    out->lost = 0;
    out->function = item->function;
    out->call_site = item->call_site;
    out->enter = item->enter;
    out->message = NULL;
    d->fn_value.kind = DAPTO_K_STR;
    d->fn_value.interned = 1; /* the same address for every lookup */
    d->fn_value.s = name;
    d->fn_value.len = (uint32_t)len;
    return out;
}

const struct reader_item *dispatch_function_item(struct dispatch *d,
                                                 const struct reader_item *item,
                                                 struct reader_item *out)
{
    if (d->dirty && !d->busy)
        dispatch_sync(d);
    return function_event(d, item, out);
}

int dispatch_item(struct dispatch *d, const struct reader_item *item,
                  char **where)
{
    struct dispatch_event de;
    struct reader_item fn;
    struct fanout *f;
    unsigned int i;

    if (item->kind == READER_ASPECT) {
        /* write the new events' states before the aspect is acked */
        dispatch_sync(d);
        return 0;
    }
    if (item->kind == READER_HELLO) {
        started(d, item,
                d->session != NULL && session_joined(d->session));
        return 0;
    }
    if (item->kind != READER_EVENT && item->kind != READER_FUNCTION)
        return 0;
    /* The table changes only with the wishes (dirty) and the registry,
     * which gets a new aspect only at an ASPECT item and is new only
     * after a HELLO (both seen above): no need to look at the registry
     * at every event, as dispatch_flush() does for front ends. */
    if (d->dirty)
        dispatch_sync(d);
    if (item->kind == READER_FUNCTION &&
        (item = function_event(d, item, &fn)) == NULL)
        return 0;
    if (item->event == NULL)
        return 0;
    if (item->code >= d->t.limit)
        return 0;
    f = &d->t.table[item->code];
    memset(&de, 0, sizeof de);
    de.item = item;
    de.event = item->event;
    de.waiting = item->stop >= 0;
    /* Consumers may change wishes or remove consumers while they are told:
     * that takes effect after this event (the table stays as it is). */
    d->busy++;
    for (i = 0; i < f->n; i++) {
        struct consumer *c = f->c[i];
        const struct fanslot *fs = &f->slot[i];
        unsigned int j;

        if (!c->enabled || !TOLD(d, c))
            continue;
        de.placed = de.held = 0;
        if (item->filtered && fs->nplaced > 0) {
            /* <protocol#filter>: the program said which clauses fired */
            for (j = 0; j < fs->nplaced; j++) {
                de.placed |= 1u << j;
                if (item->clauses & (1u << fs->slot[j]))
                    de.held |= 1u << j;
            }
            if (de.held == 0 && !fs->always)
                continue;
        }
        c->ops->deliver(c->arg, &de);
    }
    d->busy--;
    if (d->busy == 0 && d->dirty)
        dispatch_sync(d);
    if (de.stop && item->stop < 0 && item == &fn) {
        /* a function entry cannot stop the program */
        free(de.where);
        return 0;
    }
    if (de.stop) {
        *where = de.where != NULL ? de.where : xstrdup("an event");
        return 1;
    }
    free(de.where);
    return 0;
}

unsigned int dispatch_functions(struct dispatch *d, const struct reader_fn *fns,
                                unsigned int n)
{
    struct fanout *f;
    unsigned int i;

    if (!d->t.direct || d->dirty || d->busy ||
        d->t.reg != session_registry(d->session))
        return 0;
    f = &d->t.table[d->t.fn_enter->code];
    d->busy++;
    for (i = 0; i < f->n; i++)
        if (TOLD(d, f->c[i]))
            f->c[i]->more->functions(f->c[i]->arg, fns, n);
    d->busy--;
    return n;
}

const unsigned char *dispatch_counted(const struct dispatch *d,
                                      unsigned int *limit)
{
    if (!d->t.counting || d->dirty || d->busy ||
        d->t.reg != session_registry(d->session))
        return NULL;
    *limit = d->t.limit;
    return d->t.counted;
}

unsigned int dispatch_counts(struct dispatch *d, const struct reader_ev *evs,
                             unsigned int n)
{
    unsigned int i = 0, j, k;

    if (dispatch_counted(d, &k) == NULL)
        return 0;
    d->busy++;
    while (i < n) {
        unsigned int code = evs[i].event->code;
        const struct fanout *f;

        if (code >= d->t.limit || !d->t.counted[code] ||
            registry_event(d->t.reg, code) != evs[i].event)
            break;
        /* a run of the same event, to each of its consumers */
        for (j = i + 1; j < n && evs[j].event == evs[i].event; j++)
            ;
        f = &d->t.table[code];
        for (k = 0; k < f->n; k++)
            if (TOLD(d, f->c[k]))
                f->c[k]->more->counts(f->c[k]->arg, evs + i, j - i);
        i = j;
        if (d->dirty)
            break; /* (wishes changed: the rest as items) */
    }
    d->busy--;
    if (d->busy == 0 && d->dirty)
        dispatch_sync(d);
    return i;
}

/* The consumers that want posts named NAME, found or made. */
static struct fanout *post_fanout(struct dispatch *d, const char *name)
{
    struct postout *po;
    unsigned int i;

    if (d->posts_dirty)
        posts_free(d);
    for (i = 0; i < d->nposts; i++) {
        if (strcmp(d->posts[i].name, name) == 0)
            return &d->posts[i].f;
    }
    d->posts = xreallocarray(d->posts, d->nposts + 1, sizeof *d->posts);
    po = &d->posts[d->nposts++];
    po->name = xstrdup(name);
    memset(&po->f, 0, sizeof po->f);
    for (i = 0; i < d->nconsumers; i++) {
        struct consumer *c = d->consumers[i];

        if (!c->enabled || c->dead || c->more == NULL ||
            c->more->wants_post == NULL || c->more->post == NULL ||
            !c->more->wants_post(c->arg, name))
            continue;
        po->f.c = xreallocarray(po->f.c, po->f.n + 1, sizeof *po->f.c);
        po->f.c[po->f.n++] = c;
    }
    return &po->f;
}

int dispatch_post(struct dispatch *d, const struct dispatch_post *p,
                  char **cause)
{
    struct fanout *f;
    struct consumer **list;
    unsigned int i, n, told = 0;

    if (d->post_depth >= DISPATCH_POST_DEPTH) {
        xcause(cause, "artificial events posted from handlers of artificial "
               "events nest more than %d deep (\"%s\")",
               DISPATCH_POST_DEPTH, p->name);
        return -1;
    }
    f = post_fanout(d, p->name);
    n = f->n;
    if (n == 0)
        return 0;
    /* consumers may change wishes while they are told: keep this list */
    list = xreallocarray(NULL, n, sizeof *list);
    memcpy(list, f->c, n * sizeof *list);
    d->busy++;
    d->post_depth++;
    for (i = 0; i < n; i++) {
        struct consumer *c = list[i];

        if (!c->enabled || c->dead || c == p->from || !TOLD(d, c))
            continue;
        c->more->post(c->arg, p);
        told++;
    }
    d->post_depth--;
    d->busy--;
    free(list);
    if (d->busy == 0)
        dispatch_flush(d);
    return (int)told;
}

void dispatch_stop(struct dispatch_event *de, char *where)
{
    if (de->stop) {
        free(where);
        return;
    }
    de->stop = 1;
    free(de->where);
    de->where = where;
}

struct symnames *dispatch_symnames(const struct dispatch *d)
{
    return d->t.names;
}

unsigned char dispatch_state(const struct dispatch *d,
                             const struct registry_event *ev)
{
    return ev->code < d->t.limit ? d->t.states[ev->code] : 0;
}

int dispatch_filters(const struct dispatch *d, const char **why)
{
    return d->session != NULL && session_filters(d->session, why);
}

int dispatch_clause_counts(const struct dispatch *d, const struct consumer *c,
                           const struct registry_event *ev, unsigned int tag,
                           uint64_t *checked, uint64_t *passed)
{
    struct placed *p = find_placed(d, c, ev->code, tag);

    if (p == NULL || d->session == NULL ||
        !(dispatch_state(d, ev) & DAPTO_STATE_FILTER))
        return -1;
    *checked = session_counter(d->session, p->checked);
    *passed = session_counter(d->session, p->passed);
    return 0;
}

int dispatch_event_counts(const struct dispatch *d,
                          const struct registry_event *ev, uint64_t *checked,
                          uint64_t *passed)
{
    if (ev->code >= d->t.nevcount || d->session == NULL ||
        d->t.evcount[ev->code].checked == DAPTO_CNT_NONE)
        return -1;
    *checked = session_counter(d->session, d->t.evcount[ev->code].checked);
    *passed = session_counter(d->session, d->t.evcount[ev->code].passed);
    return 0;
}
