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

#include "dapto.h"
#include "dispatch.h"
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
};

struct fanout {
    struct consumer **c;
    unsigned int n;
};

/* The consumers that want the artificial events of one name. */
struct postout {
    char *name;
    struct fanout f;
};

struct dispatch {
    struct session *session;
    struct consumer **consumers;
    unsigned int nconsumers;

    struct registry *reg; /* the registry the table was built for */
    unsigned int limit;   /* table size (event codes) */
    struct fanout *table;
    unsigned char *states;
    int dirty;
    int busy; /* delivering: the table and consumers must stay */
    int direct; /* function records go straight to the consumers of enter */

    /* Artificial events: the fan-out by name, made when a name is first
     * posted after a change of wishes. */
    struct postout *posts;
    unsigned int nposts;
    int posts_dirty;
    int post_depth;

    /* Function entries and exits handed over as enter/leave: the names,
     * and the built-in events of the registry the table is for. */
    struct symnames *names;
    struct decode_value fn_value;
    const struct registry_event *fn_enter, *fn_leave;
};

struct dispatch *dispatch_create(struct session *s)
{
    struct dispatch *d = xcalloc(1, sizeof *d);

    d->session = s;
    d->dirty = 1;
    d->names = symnames_create();
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

static void table_free(struct dispatch *d)
{
    unsigned int i;

    for (i = 0; i < d->limit; i++)
        free(d->table[i].c);
    free(d->table);
    free(d->states);
    d->table = NULL;
    d->states = NULL;
    d->limit = 0;
}

void dispatch_free(struct dispatch *d)
{
    unsigned int i;

    if (d == NULL)
        return;
    table_free(d);
    posts_free(d);
    symnames_free(d->names);
    for (i = 0; i < d->nconsumers; i++)
        free(d->consumers[i]);
    free(d->consumers);
    free(d);
}

struct consumer *dispatch_add(struct dispatch *d,
                              const struct consumer_ops *ops, void *arg)
{
    struct consumer *c = xcalloc(1, sizeof *c);

    c->ops = ops;
    c->arg = arg;
    c->enabled = 1;
    d->consumers = xreallocarray(d->consumers, d->nconsumers + 1,
                                 sizeof *d->consumers);
    d->consumers[d->nconsumers++] = c;
    dispatch_changed(d);
    return c;
}

/* Free consumers removed during a delivery. */
static void reap(struct dispatch *d)
{
    unsigned int i, j = 0;

    for (i = 0; i < d->nconsumers; i++) {
        if (d->consumers[i]->dead)
            free(d->consumers[i]);
        else
            d->consumers[j++] = d->consumers[i];
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
    free(c);
    /* the table may point at C: rebuild it before any delivery */
    table_free(d);
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
    if (c->ops->notice != NULL)
        c->ops->notice(c->arg, on);
    dispatch_changed(d);
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
    d->direct = on;
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

    if (d->fn_enter == NULL || d->fn_leave == NULL ||
        d->fn_enter->code >= d->limit || d->fn_leave->code >= d->limit)
        return 0;
    e = &d->table[d->fn_enter->code];
    l = &d->table[d->fn_leave->code];
    if (e->n == 0 || e->n != l->n)
        return 0;
    for (i = 0; i < e->n; i++) {
        if (e->c[i] != l->c[i] || e->c[i]->more == NULL ||
            e->c[i]->more->functions == NULL)
            return 0;
    }
    return 1;
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

void dispatch_sync(struct dispatch *d)
{
    struct registry *reg = session_registry(d->session);
    unsigned int code, i, limit;
    char *cause = NULL;

    if (d->busy) {
        d->dirty = 1;
        return;
    }
    reap(d);
    table_free(d);
    d->reg = reg;
    d->dirty = 0;
    d->fn_enter = d->fn_leave = NULL;
    if (reg == NULL) {
        set_direct(d, 0);
        return;
    }
    d->fn_enter = builtin_event(reg, DAPTO_EV_ENTER);
    d->fn_leave = builtin_event(reg, DAPTO_EV_LEAVE);
    limit = registry_event_limit(reg);
    d->limit = limit;
    d->table = xcalloc(limit, sizeof *d->table);
    d->states = xcalloc(limit, 1);
    for (code = 0; code < limit; code++) {
        const struct registry_event *ev = registry_event(reg, code);
        struct fanout *f = &d->table[code];
        unsigned char state = 0;

        if (ev == NULL)
            continue;
        for (i = 0; i < d->nconsumers; i++) {
            struct consumer *c = d->consumers[i];
            unsigned char w;

            if (!c->enabled || (w = c->ops->want(c->arg, ev)) == 0)
                continue;
            state |= w;
            /* <dispatch.h>: the trail alone, or no deliver, is no delivery */
            if (!(w & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) ||
                c->ops->deliver == NULL)
                continue;
            f->c = xreallocarray(f->c, f->n + 1, sizeof *f->c);
            f->c[f->n++] = c;
        }
        d->states[code] = state;
        if (session_set_state(d->session, code, state, &cause) != 0) {
            /* the program may be gone; the next run writes again */
            free(cause);
            cause = NULL;
        }
    }
    set_direct(d, direct_holds(d));
}

void dispatch_flush(struct dispatch *d)
{
    struct registry *reg = session_registry(d->session);

    if (d->dirty || reg != d->reg ||
        (reg != NULL && registry_event_limit(reg) != d->limit))
        dispatch_sync(d);
}

/* A new run: tell every consumer. */
static void started(struct dispatch *d, const struct reader_item *item)
{
    unsigned int i;

    /* a new registry: the table is made again before the next event */
    d->dirty = 1;
    symnames_reset(d->names, session_pid(d->session));
    d->busy++;
    for (i = 0; i < d->nconsumers; i++) {
        struct consumer *c = d->consumers[i];

        if (!c->dead && c->more != NULL && c->more->started != NULL)
            c->more->started(c->arg, item);
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
    const struct registry_event *ev = item->enter ? d->fn_enter : d->fn_leave;
    const char *name;
    size_t len;

    if (ev == NULL)
        return NULL;
    name = symnames_name(d->names, item->function, &len);
    if (name == NULL)
        return NULL;
    /* every field: this is on the path of every function record */
    out->kind = READER_EVENT;
    out->code = ev->code;
    out->tid = item->tid;
    out->ns = item->ns;
    out->stop = -1;
    out->event = ev;
    out->nvalues = 1;
    out->values = &d->fn_value;
    out->truncated = 0;
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
        started(d, item);
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
    if (item->code >= d->limit)
        return 0;
    f = &d->table[item->code];
    memset(&de, 0, sizeof de);
    de.item = item;
    de.event = item->event;
    de.waiting = item->stop >= 0;
    /* Consumers may change wishes or remove consumers while they are told:
     * that takes effect after this event (the table stays as it is). */
    d->busy++;
    for (i = 0; i < f->n; i++) {
        struct consumer *c = f->c[i];

        if (c->enabled)
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

    if (!d->direct || d->dirty || d->busy ||
        d->reg != session_registry(d->session))
        return 0;
    f = &d->table[d->fn_enter->code];
    d->busy++;
    for (i = 0; i < f->n; i++)
        f->c[i]->more->functions(f->c[i]->arg, fns, n);
    d->busy--;
    return n;
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

        if (!c->enabled || c->dead || c == p->from)
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
    return d->names;
}

unsigned char dispatch_state(const struct dispatch *d,
                             const struct registry_event *ev)
{
    return ev->code < d->limit ? d->states[ev->code] : 0;
}
