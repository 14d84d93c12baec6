/* SPDX-License-Identifier: MIT */
/*
 * relate.c - relations between events <design#relations>: the run's
 * components (listed in the same order in every process's relations
 * area, so that a component's index is the same in all), the derived
 * events and their parts' clauses, the program's stacks asked for while
 * anything needs them, and noosa's stacks where the program cannot.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "dapto.h"
#include "relarea.h"
#include "relate.h"
#include "stacks.h"
#include "symbols.h"
#include "xmalloc.h"

/* A clause program that always holds. */
static const unsigned char always[] = {DAPTO_FOP_CONST, 1, 0, 0, 0, 0, 0, 0, 0, DAPTO_FOP_END};

/* Functions of one name a component lists (static ones of several
 * files, in several modules). */
#define RELATE_FNS 16
/* Parameters of a derived event. */
#define RELATE_PARAMS 64

struct derived {
    char *name;
    enum derive_kind kind;
    char *part[3];     /* A, B, C (NULL) */
    int event[3];      /* the part is an event (else a component) */
    char *cond;
    unsigned char *prog;
    size_t prog_len;
    unsigned int index; /* its code is DAPTO_DERIVED_BASE + index */
    char *doc;
};

struct relations {
    struct session *session;
    struct dispatch *dispatch;
    struct stacks *stacks;
    struct sink *sink;
    struct consumer *consumer;

    /* the run's components, in the order every area lists them */
    char *comps[DAPTO_REL_COMPS];
    unsigned int ncomps;

    unsigned int uses;       /* component tests */
    unsigned int noosa_uses; /* of them, those that run in noosa */
    int noosa_late;          /* a test in noosa asked for noosa's stacks */
    int noosa_on;            /* noosa's stacks are used */
    int wanted;              /* the program's stacks, at the last look */

    struct derived *d[DAPTO_REL_DERIVED];
    unsigned int n;
    uint32_t burnt; /* indexes given in this run (their codes are taken) */

    struct symbols *sym; /* the current process's, for functions' addresses */
    pid_t sym_pid;
    int ended; /* the session is gone: nothing more is asked of it */
};

static struct derived *find(const struct relations *r, const char *name)
{
    unsigned int i;

    for (i = 0; i < r->n; i++)
        if (strcmp(r->d[i]->name, name) == 0)
            return r->d[i];
    return NULL;
}

static int stacks_wanted(const struct relations *r)
{
    return r->uses > 0 || r->n > 0;
}

/* How many channels to look at: every process's (the current one
 * without processes). */
static unsigned int nchannels(const struct relations *r)
{
    unsigned int n = session_nprocs(r->session);

    return n > 0 ? n : 1;
}

/* Noosa's stacks are used while a test runs in noosa, or the program
 * cannot keep its own. */
static void update_noosa(struct relations *r)
{
    struct channel *ch = session_channel(r->session);
    int on = r->noosa_uses > 0 || r->noosa_late ||
             (r->uses > 0 && (ch == NULL || channel_relations(ch, NULL) == NULL));

    if (on != r->noosa_on && r->stacks != NULL) {
        stacks_use(r->stacks, on);
        r->noosa_on = on;
    }
}

/* Whether the program's stacks are wanted changed: states again, and
 * stacks kept from an empty one (what they missed meanwhile is not
 * known). */
static void update_wanted(struct relations *r)
{
    int w = stacks_wanted(r);
    unsigned int i;

    if (w == r->wanted)
        return;
    r->wanted = w;
    if (w) {
        for (i = 0; i < nchannels(r); i++) {
            struct channel *ch = session_process_channel(r->session, i);
            struct relarea *ra = ch != NULL ? channel_relations(ch, NULL) : NULL;

            if (ra != NULL)
                relarea_new_epoch(ra);
        }
    }
    dispatch_changed(r->dispatch);
}

void relations_end(struct relations *r)
{
    r->ended = 1;
}

void relations_use(struct relations *r, int on, int noosa)
{
    if (on) {
        r->uses++;
        r->noosa_uses += noosa != 0;
    } else {
        if (r->uses > 0)
            r->uses--;
        if (noosa && r->noosa_uses > 0)
            r->noosa_uses--;
    }
    if (r->ended)
        return;
    update_wanted(r);
    update_noosa(r);
}

/* ---- components ---- */

/* The current process's symbols (for functions' addresses), or NULL. */
static struct symbols *symbols_now(struct relations *r)
{
    pid_t pid = session_pid(r->session);
    char *cause = NULL;

    if (r->sym != NULL && r->sym_pid == pid)
        return r->sym;
    symbols_free(r->sym);
    r->sym = pid > 0 ? symbols_open(pid, &cause) : NULL;
    r->sym_pid = pid;
    free(cause);
    return r->sym;
}

/* List the run's components in area RA (of the current process) up to
 * the last, with the addresses of the functions of their names.  0, or
 * -1 with *why. */
static int publish_comps(struct relations *r, struct relarea *ra, const char **why)
{
    uint64_t addrs[RELATE_FNS];
    unsigned int i, k, n;
    struct symbols *sym;
    int c;

    while (ra->ncomps < r->ncomps) {
        i = ra->ncomps;
        c = relarea_comp(ra, r->comps[i], why);
        if (c != (int)i) {
            if (c >= 0)
                *why = "the program's components are not noosa's";
            return -1;
        }
        sym = symbols_now(r);
        n = sym != NULL ? symbols_addresses(sym, r->comps[i], addrs, RELATE_FNS) : 0;
        for (k = 0; k < n; k++)
            if (relarea_fn(ra, addrs[k], i, why) != 0)
                sink_error(r->sink, "component %s: %s", r->comps[i], *why);
    }
    return 0;
}

int relations_name_ok(const char *name, const char **why)
{
    if (strlen(name) == 0 || strlen(name) >= DAPTO_REL_NAME) {
        *why = "a component's name is 1 to 119 bytes";
        return -1;
    }
    return 0;
}

/* Component NAME's index in the run's list, added when new; -1 with *why
 * when the list is full. */
static int comp_index(struct relations *r, const char *name, const char **why)
{
    unsigned int i;

    for (i = 0; i < r->ncomps; i++)
        if (strcmp(r->comps[i], name) == 0)
            return (int)i;
    if (relations_name_ok(name, why) != 0)
        return -1;
    if (r->ncomps == DAPTO_REL_COMPS) {
        *why = "a run tests at most 64 components";
        return -1;
    }
    r->comps[r->ncomps] = xstrdup(name);
    return (int)r->ncomps++;
}

int relations_comp(struct relations *r, const char *name, const char **why)
{
    struct channel *ch = session_channel(r->session);
    struct relarea *ra;
    int c;

    if (ch == NULL) {
        *why = "no program runs";
        return -1;
    }
    if ((ra = channel_relations(ch, why)) == NULL)
        return -1;
    if ((c = comp_index(r, name, why)) < 0 || publish_comps(r, ra, why) != 0)
        return -1;
    return c;
}

int relations_within_noosa(struct relations *r, pid_t tid, const char *name)
{
    unsigned int i, n;

    if (r->stacks == NULL)
        return 0;
    if (!r->noosa_on) {
        r->noosa_late = 1;
        update_noosa(r);
    }
    n = stacks_depth(r->stacks, tid);
    for (i = 0; i < n; i++) {
        const char *f = stacks_frame(r->stacks, tid, i, NULL);

        if (f != NULL && strcmp(f, name) == 0)
            return 1;
    }
    return 0;
}

/* ---- derived events ---- */

static const char *kind_word(enum derive_kind k)
{
    return k == DERIVE_CONTAINS ? "contains" : k == DERIVE_CALLS ? "calls" : "before";
}

/* "an execution of A during which B happened" ... */
static char *describe(const struct derived *d)
{
    char *s, *t;

    switch (d->kind) {
    case DERIVE_CONTAINS:
        s = xasprintf("an execution of %s during which %s%s happened", d->part[0],
                      d->event[1] ? "" : "an execution of ", d->part[1]);
        break;
    case DERIVE_CALLS:
        s = xasprintf("an execution of %s in which %s%s happened directly", d->part[0],
                      d->event[1] ? "" : "an execution of ", d->part[1]);
        break;
    default:
        s = xasprintf("%s%s preceded by %s%s%s%s", d->event[1] ? "" : "the start of ",
                      d->part[1], d->event[0] ? "" : "the end of ", d->part[0],
                      d->part[2] != NULL ? " in the same execution of " : "",
                      d->part[2] != NULL ? d->part[2] : "");
        break;
    }
    if (d->cond != NULL) {
        t = xasprintf("%s, if {%s}", s, d->cond);
        free(s);
        s = t;
    }
    return s;
}

static void derived_free(struct derived *d)
{
    unsigned int i;

    if (d == NULL)
        return;
    free(d->name);
    for (i = 0; i < 3; i++)
        free(d->part[i]);
    free(d->cond);
    free(d->prog);
    free(d->doc);
    free(d);
}

/* The aspect of derived event D in an interface. */
static char *aspect_name(const struct derived *d)
{
    return xasprintf("derived:%s", d->name);
}

/* A parameter of a derived event. */
struct dparam {
    const char *name;
    char *own; /* a name made for it */
    const char *type;
    unsigned char kind;
    const char *doc;
};

static int param_add(struct dparam *p, unsigned int *n, const char *name, const char *type,
                     unsigned char kind, const char *doc, const char *part, char **cause)
{
    unsigned int i;
    char *own = NULL;

    if (*n == RELATE_PARAMS) {
        xcause(cause, "more than %d parameters", RELATE_PARAMS);
        return -1;
    }
    for (i = 0; i < *n; i++) {
        if (strcmp(p[i].name, name) != 0)
            continue;
        /* taken: the part's name before it */
        own = xasprintf("%s_%s", part, name);
        for (i = 0; i < *n; i++) {
            if (strcmp(p[i].name, own) == 0) {
                xcause(cause, "parameter %s of %s is there twice", name, part);
                free(own);
                return -1;
            }
        }
        break;
    }
    p[*n].own = own;
    p[*n].name = own != NULL ? own : name;
    p[*n].type = type;
    p[*n].kind = kind;
    p[*n].doc = doc;
    ++*n;
    return 0;
}

/* Add event EV's parameters (part PART) to P: those the program can keep
 * (no user types; their smallest values within DAPTO_REL_DATA bytes). */
static int event_params(struct dparam *p, unsigned int *n, const struct registry_event *ev,
                        char **cause)
{
    unsigned int i, bytes = 0;

    for (i = 0; i < ev->nparams; i++) {
        const struct registry_param *q = &ev->params[i];

        switch (q->kind) {
        case DAPTO_K_INT:
            bytes += 5;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_DOUBLE:
        case DAPTO_K_PTR:
            bytes += 9;
            break;
        case DAPTO_K_STR:
            bytes += 6;
            break;
        default:
            xcause(cause, "parameter %s of %s is of the program's own type %s, which a "
                   "derived event cannot carry", q->name, ev->name, q->type);
            return -1;
        }
        if (bytes > DAPTO_REL_DATA) {
            xcause(cause, "the parameters of %s take more than the %d bytes the "
                   "program keeps for a part", ev->name, DAPTO_REL_DATA);
            return -1;
        }
        if (param_add(p, n, q->name, q->type, q->kind, q->doc, ev->name, cause) != 0)
            return -1;
    }
    return 0;
}

/* D's parameters against interface REG: 0, or -1 with *cause (a part
 * that is an event is not there: *cause NULL). */
static int derived_params(const struct derived *d, struct registry *reg, struct dparam *p,
                          unsigned int *n, char **cause)
{
    const struct registry_event *ev;
    unsigned int k;

    *n = 0;
    /* (not "duration" nor "count": those are question add's words) */
    if (d->kind == DERIVE_BEFORE) {
        param_add(p, n, "gap_ns", "long", DAPTO_K_LONG,
                  "ns from the A to this event", "", cause);
    } else {
        param_add(p, n, "a_ns", "long", DAPTO_K_LONG,
                  "ns of the execution of A", "", cause);
        param_add(p, n, "b_count", "long", DAPTO_K_LONG,
                  d->kind == DERIVE_CALLS ? "B's directly in it" : "B's in it", "", cause);
    }
    for (k = d->kind == DERIVE_BEFORE ? 0 : 1; k < 2; k++) {
        if (!d->event[k])
            continue;
        ev = reg != NULL ? registry_event_by_name(reg, d->part[k]) : NULL;
        if (ev == NULL)
            return -1;
        if (event_params(p, n, ev, cause) != 0)
            return -1;
    }
    return 0;
}

static void params_free(struct dparam *p, unsigned int n)
{
    unsigned int i;

    for (i = 0; i < n; i++)
        free(p[i].own);
}

/* The description of D's aspect <protocol#iface>, its state byte at
 * STATE, into OUT (SIZE bytes): its length, or 0 when it does not
 * fit. */
static size_t blob(const struct derived *d, const struct dparam *p, unsigned int np,
                   uint64_t state, unsigned char *out, size_t size)
{
    struct dapto_out o;
    char *aspect = aspect_name(d);
    unsigned int i;

    o.base = o.p = out;
    o.end = out + size;
    o.count = 0;
    o.truncated = 0;
    o.aspect = NULL;
    o.index = 0;
    dapto_put_str(&o, aspect);
    dapto_put_str(&o, "noosa");
    dapto_put_int(&o, DAPTO_ABI_VERSION);
    dapto_put_int(&o, (int)(DAPTO_DERIVED_BASE + d->index));
    dapto_put_int(&o, 1);
    dapto_put_int(&o, 0);
    dapto_put_int(&o, 0);
    dapto_put_str(&o, d->name);
    dapto_put_str(&o, d->doc);
    dapto_put_int(&o, 1);
    dapto_put_ptr(&o, (const void *)(uintptr_t)state);
    dapto_put_int(&o, (int)np);
    for (i = 0; i < np; i++) {
        dapto_put_str(&o, p[i].name);
        dapto_put_str(&o, p[i].type);
        dapto_put_int(&o, p[i].kind);
        dapto_put_str(&o, p[i].doc);
    }
    free(aspect);
    return o.truncated ? 0 : (size_t)(o.p - o.base);
}

/* Add D to interface REG of channel CH when its parts are there: 1 when
 * it is there (now or before), 0 when a part is not yet, -1 with *cause
 * when it cannot be. */
static int add_to(const struct derived *d, struct registry *reg, struct channel *ch,
                  char **cause)
{
    struct dparam p[RELATE_PARAMS];
    unsigned int np = 0;
    unsigned char *b;
    size_t len;
    char *aspect = aspect_name(d), *why = NULL;
    int rc;

    if (registry_aspect_by_name(reg, aspect) != NULL) {
        free(aspect);
        return 1;
    }
    free(aspect);
    if (derived_params(d, reg, p, &np, &why) != 0) {
        params_free(p, np);
        if (why == NULL)
            return 0;
        *cause = why;
        return -1;
    }
    b = xmalloc(DAPTO_RECORD_MAX);
    len = blob(d, p, np, channel_relation_state(ch, d->index), b, DAPTO_RECORD_MAX);
    params_free(p, np);
    if (len == 0) {
        xcause(cause, "its description is too large");
        free(b);
        return -1;
    }
    rc = registry_add(reg, b, len, cause) != NULL ? 1 : -1;
    free(b);
    return rc;
}

/* Write D into area RA of the current process (CH) when it is not there
 * yet: its components listed, counters of its own.  0, or -1 with *why. */
static int define_in(struct relations *r, struct derived *d, struct channel *ch,
                     struct relarea *ra, const char **why)
{
    struct dapto_rel_def def;
    int c[3] = {DAPTO_REL_NONE, DAPTO_REL_NONE, DAPTO_REL_NONE};
    unsigned int k;

    if (ra->defs[d->index].kind != 0)
        return 0;
    for (k = 0; k < 3; k++) {
        if (d->part[k] == NULL || d->event[k])
            continue;
        if ((c[k] = comp_index(r, d->part[k], why)) < 0)
            return -1;
    }
    if (publish_comps(r, ra, why) != 0)
        return -1;
    memset(&def, 0, sizeof def);
    def.kind = (uint8_t)d->kind;
    def.a = (uint8_t)c[0];
    def.b = (uint8_t)c[1];
    def.c = (uint8_t)c[2];
    def.checked = dispatch_counter(r->dispatch);
    def.recorded = dispatch_counter(r->dispatch);
    def.mult = (uint64_t)(channel_ns_per_tick(ch) * 4294967296.0 + 0.5);
    relarea_define(ra, d->index, &def);
    return 0;
}

void relations_interface(struct relations *r)
{
    struct channel *ch = session_channel(r->session);
    struct registry *reg = session_registry(r->session);
    struct relarea *ra;
    const char *why = NULL;
    char *cause = NULL;
    unsigned int i;
    int more = 1, added = 0;

    if (ch == NULL || reg == NULL || r->n == 0)
        return;
    if ((ra = channel_relations(ch, &why)) == NULL)
        return;
    /* a derived event may be a part of a later one */
    while (more) {
        more = 0;
        for (i = 0; i < r->n; i++) {
            struct derived *d = r->d[i];
            int rc = add_to(d, reg, ch, &cause);

            if (rc < 0) {
                sink_error(r->sink, "derived event %s: %s", d->name, cause);
                free(cause);
                cause = NULL;
                continue;
            }
            if (rc == 0)
                continue;
            if (ra->defs[d->index].kind == 0) {
                if (define_in(r, d, ch, ra, &why) != 0) {
                    sink_error(r->sink, "derived event %s: %s", d->name, why);
                    continue;
                }
                more = added = 1;
            }
        }
    }
    if (added)
        dispatch_changed(r->dispatch);
}

/* Whether a part name is an event of interface REG (else a component). */
static int is_event(struct registry *reg, const struct relations *r, const char *name)
{
    return (reg != NULL && registry_event_by_name(reg, name) != NULL) || find(r, name) != NULL;
}

int relations_derive(struct relations *r, const struct derive_spec *spec, struct registry *reg,
                     char **cause)
{
    struct derived *d;
    struct dparam p[RELATE_PARAMS];
    unsigned int i, np = 0, index;
    uint32_t taken = r->burnt;
    char *why = NULL;
    const char *w;

    if (find(r, spec->name) != NULL) {
        xcause(cause, "derived event %s exists already", spec->name);
        return -1;
    }
    if (session_replaying(r->session)) {
        xcause(cause, "derived events are detected by the program as it runs: a "
               "recording plays those it recorded");
        return -1;
    }
    if (reg == NULL) {
        xcause(cause, "the program's interface is not known yet (noosa reads it when "
               "it starts the program)");
        return -1;
    }
    if (reg != NULL && registry_event_by_name(reg, spec->name) != NULL) {
        xcause(cause, "the program has an event %s already", spec->name);
        return -1;
    }
    for (i = 0; i < r->n; i++)
        taken |= 1u << r->d[i]->index;
    for (index = 0; index < DAPTO_REL_DERIVED && (taken & (1u << index)); index++)
        ;
    if (index == DAPTO_REL_DERIVED) {
        xcause(cause, "%d derived events at most in a run (those deleted are free again "
               "at the next run)", DAPTO_REL_DERIVED);
        return -1;
    }
    d = xcalloc(1, sizeof *d);
    d->name = xstrdup(spec->name);
    d->kind = spec->kind;
    d->part[0] = xstrdup(spec->a);
    d->part[1] = xstrdup(spec->b);
    d->part[2] = spec->c != NULL ? xstrdup(spec->c) : NULL;
    for (i = 0; i < 2; i++)
        d->event[i] = is_event(reg, r, d->part[i]);
    d->index = index;
    if (spec->cond != NULL) {
        d->cond = xstrdup(spec->cond);
        d->prog = xmalloc(spec->prog_len);
        memcpy(d->prog, spec->prog, spec->prog_len);
        d->prog_len = spec->prog_len;
    }
    d->doc = describe(d);
    if (d->kind != DERIVE_BEFORE && d->event[0]) {
        xcause(cause, "%s is an event: %s needs an execution of a component as A",
               d->part[0], kind_word(d->kind));
        goto bad;
    }
    if (d->cond != NULL && !d->event[1]) {
        xcause(cause, "-if is a condition on B's parameters, and %s is a component",
               d->part[1]);
        goto bad;
    }
    if (d->part[2] != NULL && is_event(reg, r, d->part[2])) {
        xcause(cause, "%s is an event: -within needs a component", d->part[2]);
        goto bad;
    }
    for (i = 0; i < 3; i++) {
        if (d->part[i] != NULL && strcmp(d->part[i], d->name) == 0) {
            xcause(cause, "%s cannot be a part of itself", d->name);
            goto bad;
        }
        if (d->part[i] != NULL && !d->event[i] && relations_name_ok(d->part[i], &w) != 0) {
            xcause(cause, "component \"%s\": %s", d->part[i], w);
            goto bad;
        }
    }
    /* the parameters it will have, when its parts are known */
    if (derived_params(d, reg, p, &np, &why) != 0 && why != NULL) {
        params_free(p, np);
        *cause = why;
        goto bad;
    }
    params_free(p, np);
    r->d[r->n++] = d;
    r->burnt |= 1u << index;
    update_wanted(r);
    relations_interface(r);
    dispatch_changed(r->dispatch);
    return 0;

bad:
    derived_free(d);
    return -1;
}

int relations_underive(struct relations *r, const char *name, char **cause)
{
    struct derived *d = find(r, name);
    unsigned int i, k;

    if (d == NULL) {
        xcause(cause, "no derived event %s", name);
        return -1;
    }
    for (i = 0; i < r->n; i++)
        for (k = 0; k < 2; k++)
            if (r->d[i] != d && r->d[i]->event[k] && strcmp(r->d[i]->part[k], name) == 0) {
                xcause(cause, "%s is a part of derived event %s: delete that first", name,
                       r->d[i]->name);
                return -1;
            }
    for (i = 0; r->d[i] != d; i++)
        ;
    memmove(&r->d[i], &r->d[i + 1], (r->n - i - 1) * sizeof r->d[0]);
    r->n--;
    /* the clauses go first; then nothing detects it */
    dispatch_sync(r->dispatch);
    for (i = 0; i < nchannels(r); i++) {
        struct channel *ch = session_process_channel(r->session, i);
        struct relarea *ra = ch != NULL ? channel_relations(ch, NULL) : NULL;

        if (ra != NULL)
            relarea_define(ra, d->index, NULL);
    }
    derived_free(d);
    update_wanted(r);
    return 0;
}

unsigned int relations_nderived(const struct relations *r)
{
    return r->n;
}

const char *relations_derived_name(const struct relations *r, unsigned int i)
{
    return i < r->n ? r->d[i]->name : NULL;
}

int relations_has(const struct relations *r, const char *name)
{
    return find(r, name) != NULL;
}

char *relations_describe(const struct relations *r, const char *name)
{
    const struct derived *d = find(r, name);

    return d != NULL ? xstrdup(d->doc) : NULL;
}

int relations_counts(const struct relations *r, const char *name, uint64_t *checked,
                     uint64_t *recorded)
{
    const struct derived *d = find(r, name);
    unsigned int i, n = 0;

    *checked = *recorded = 0;
    if (d == NULL)
        return -1;
    for (i = 0; i < nchannels(r); i++) {
        struct channel *ch = session_process_channel(r->session, i);
        struct relarea *ra = ch != NULL ? channel_relations(ch, NULL) : NULL;

        if (ra == NULL || ra->defs[d->index].kind == 0)
            continue;
        *checked += channel_counter(ch, ra->defs[d->index].checked);
        *recorded += channel_counter(ch, ra->defs[d->index].recorded);
        n++;
    }
    return n > 0 ? 0 : -1;
}

char *relations_where(const struct relations *r, const char *name)
{
    const struct derived *d = find(r, name);
    struct channel *ch = session_channel(r->session);
    const char *why = NULL;
    uint64_t checked, recorded;

    if (d == NULL)
        return NULL;
    if (relations_counts(r, name, &checked, &recorded) == 0)
        return xasprintf("in the program: %" PRIu64 " checked, %" PRIu64 " recorded", checked,
                         recorded);
    if (session_state(r->session) == SESSION_IDLE)
        return xstrdup("in the program, when it runs");
    if (ch == NULL)
        return xstrdup("not detected: derived events are detected by the program (a "
                       "recording plays those it recorded)");
    if (channel_relations(ch, &why) == NULL)
        return xasprintf("not detected: %s", why);
    return xstrdup("not detected yet: its parts are not all in the program's interface");
}

/* ---- the consumer ---- */

static int is_builtin(const struct registry_event *ev, unsigned int code)
{
    return ev->code == code && ev->aspect != NULL && strcmp(ev->aspect->name, "dapto") == 0;
}

/* Whether derived event D is detected by the current process. */
static int detected(const struct relations *r, const struct derived *d)
{
    struct channel *ch = session_channel(r->session);
    struct relarea *ra = ch != NULL ? channel_relations(ch, NULL) : NULL;

    return ra != NULL && ra->defs[d->index].kind != 0;
}

/* The roles of EV among D's parts: bit 1 A, bit 2 B. */
static unsigned int roles(const struct derived *d, const struct registry_event *ev)
{
    unsigned int out = 0;

    if (d->event[0] && registry_event_named(ev, d->part[0]))
        out |= DAPTO_REL_PART_A;
    if (d->event[1] && registry_event_named(ev, d->part[1]))
        out |= DAPTO_REL_PART_B;
    return out;
}

static unsigned char r_want(void *arg, const struct registry_event *ev)
{
    struct relations *r = arg;
    struct channel *ch;
    struct relarea *ra;
    const char *why;
    unsigned int i;

    if (is_builtin(ev, DAPTO_EV_ENTER) || is_builtin(ev, DAPTO_EV_LEAVE)) {
        if (!stacks_wanted(r) || (ch = session_channel(r->session)) == NULL ||
            (ra = channel_relations(ch, NULL)) == NULL)
            return 0;
        /* a process that joined lists the run's components too */
        (void)publish_comps(r, ra, &why);
        return DAPTO_STATE_STACK;
    }
    for (i = 0; i < r->n; i++)
        if (roles(r->d[i], ev) != 0 && detected(r, r->d[i]))
            return DAPTO_STATE_FILTER;
    return 0;
}

static unsigned int r_clauses(void *arg, const struct registry_event *ev, unsigned char *uncond,
                              struct dispatch_clause *cl, unsigned int max)
{
    struct relations *r = arg;
    unsigned int i, n = 0, ro, k;

    *uncond = 0;
    for (i = 0; i < r->n && n < max; i++) {
        const struct derived *d = r->d[i];

        if ((ro = roles(d, ev)) == 0 || !detected(r, d))
            continue;
        /* B first: an event that is both ends the last A's pair, then
         * is the next A */
        for (k = DAPTO_REL_PART_B; k >= DAPTO_REL_PART_A && n < max; k--) {
            if (!(ro & k))
                continue;
            memset(&cl[n], 0, sizeof cl[n]);
            cl[n].prog = k == DAPTO_REL_PART_B && d->prog != NULL ? d->prog : always;
            cl[n].len = k == DAPTO_REL_PART_B && d->prog != NULL ? d->prog_len : sizeof always;
            cl[n].tag = d->index * 4 + k;
            cl[n].qflags = DAPTO_CL_PART;
            cl[n].question = d->index;
            cl[n].count = k;
            n++;
        }
    }
    return n;
}

static void r_started(void *arg, const struct reader_item *item)
{
    struct relations *r = arg;
    unsigned int i;

    (void)item;
    /* a new run: its areas are empty, its codes free again but those in
     * use */
    for (i = 0; i < r->ncomps; i++)
        free(r->comps[i]);
    r->ncomps = 0;
    r->burnt = 0;
    for (i = 0; i < r->n; i++)
        r->burnt |= 1u << r->d[i]->index;
    symbols_free(r->sym);
    r->sym = NULL;
    r->sym_pid = 0;
    r->noosa_late = 0;
    update_noosa(r);
    dispatch_changed(r->dispatch);
}

static void r_joined(void *arg, const struct reader_item *item)
{
    struct relations *r = arg;

    (void)item;
    dispatch_changed(r->dispatch);
}

static const struct consumer_ops relations_ops = {
    .name = "relations",
    .want = r_want,
    .clauses = r_clauses,
};

static const struct consumer_hooks relations_hooks = {
    .started = r_started,
    .joined = r_joined,
};

struct relations *relations_create(struct session *s, struct dispatch *d, struct stacks *st,
                                   struct sink *sink)
{
    struct relations *r = xcalloc(1, sizeof *r);

    r->session = s;
    r->dispatch = d;
    r->stacks = st;
    r->sink = sink;
    r->consumer = dispatch_add(d, &relations_ops, r);
    dispatch_set_hooks(d, r->consumer, &relations_hooks);
    return r;
}

void relations_free(struct relations *r)
{
    unsigned int i;

    if (r == NULL)
        return;
    for (i = 0; i < r->n; i++)
        derived_free(r->d[i]);
    for (i = 0; i < r->ncomps; i++)
        free(r->comps[i]);
    symbols_free(r->sym);
    free(r);
}
