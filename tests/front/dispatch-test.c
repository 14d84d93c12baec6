/* SPDX-License-Identifier: MIT */
/*
 * dispatch-test.c - unit tests of the monitor coordinator (dispatch.c):
 * consumers' wishes merged into the state bytes written into the program,
 * the table by event code and when it is made again, consumers coming and
 * going while events are delivered, the direct path of function records,
 * a recording's events to consumers that only count them (or to none),
 * stops and
 * artificial events.
 *
 * The registry is the real one, built from aspect descriptions such as a
 * program posts.  The session is a stand-in for the session calls the
 * dispatcher makes: it keeps the state bytes written and whether the
 * direct path and the counting are on, and has no program.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "cond.h"
#include "dapto.h"
#include "dispatch.h"
#include "protocol.h"
#include "session.h"
#include "symnames.h"
#include "unit.h"
#include "wire.h"
#include "xmalloc.h"

#define TRAIL DAPTO_STATE_TRAIL
#define REC DAPTO_STATE_RECORD
#define STOP DAPTO_STATE_STOP

/* Event codes of the registries make_registry() builds: the built-in
 * aspect (when asked for), aspect t at 6, nothing at 8 and 9, aspect u at
 * 10; later tests add aspects at 20 and 24. */
enum {
    EV_INIT = DAPTO_EV_INIT,
    EV_STOPPED = DAPTO_EV_STOPPED,
    EV_ENTER = DAPTO_EV_ENTER,
    EV_LEAVE = DAPTO_EV_LEAVE,
    EV_T_ALL = 6,
    EV_T_PING = 7,
    EV_U_ALL = 10,
    EV_U_PING = 11,
    EV_V_ALL = 20,
    EV_W_ALL = 24,
    NCODES = 32
};

/* What the dispatcher sees of a session: the registry of the run, and
 * where the state bytes it writes and the direct path end up. */
struct session {
    struct registry *reg;
    unsigned char state[NCODES]; /* the last byte written, by code */
    unsigned int writes[NCODES]; /* how many times each was written */
    unsigned int nwrites;
    int direct; /* as last set (set to -1 to see that it is set) */
    int counting; /* likewise */
    int refuse; /* session_set_state fails, as without a program */
    /* filters <protocol#filter>: whether the program takes them, and
     * what was written for each code */
    int filters;
    int refuse_filter;
    unsigned int nfilter[NCODES];   /* clauses in the last filter */
    unsigned char uncond[NCODES];   /* its unconditional bits */
    unsigned char cbits[NCODES][DAPTO_FILTER_CLAUSES];
    size_t cprog[NCODES][DAPTO_FILTER_CLAUSES]; /* program lengths */
    unsigned int filter_writes[NCODES];
    unsigned int clears[NCODES];
    /* processes <design#processes>: with NPROCS > 0, the calls speak of
     * PROCS[CURRENT], each a session of its own here */
    struct session *procs[3];
    unsigned int nprocs;
    unsigned int current;
    int joined; /* (a process's) its hello joins a run */
    pid_t pid;  /* (a process's) */
    struct ckpts *ckpts; /* <design#checkpoints>, or NULL */
};

/* The process the session's calls speak of. */
static struct session *cur(const struct session *s)
{
    return s->nprocs > 0 ? s->procs[s->current] : (struct session *)s;
}

struct ckpts *session_checkpoints(const struct session *s)
{
    return s->ckpts;
}

unsigned int session_nprocs(const struct session *s)
{
    return s->nprocs;
}

int session_current(const struct session *s)
{
    return s->nprocs > 0 ? (int)s->current : -1;
}

int session_select(struct session *s, unsigned int i)
{
    if (i >= s->nprocs)
        return -1;
    s->current = i;
    return 0;
}

int session_joined(const struct session *s)
{
    return cur(s)->joined;
}

struct registry *session_registry(const struct session *s)
{
    return cur(s)->reg;
}

pid_t session_pid(const struct session *s)
{
    /* no process: functions are named by their address ("0x1234") */
    return cur(s)->pid;
}

void session_direct(struct session *s, int on)
{
    cur(s)->direct = on;
}

void session_counting(struct session *s, int on)
{
    s->counting = on;
}

int session_set_state(struct session *s, unsigned int code,
                      unsigned char state, char **cause)
{
    s = cur(s);
    if (s->refuse) {
        xcause(cause, "the program is gone");
        return -1;
    }
    CHECK(code < NCODES);
    if (code >= NCODES)
        return 0;
    s->state[code] = state;
    s->writes[code]++;
    s->nwrites++;
    return 0;
}

int session_filters(const struct session *s, const char **why)
{
    s = cur(s);
    if (why != NULL)
        *why = s->filters ? NULL : "the fake program has no filters";
    return s->filters;
}

int session_set_filter(struct session *s, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause)
{
    unsigned char blob[DAPTO_FILTER_MAX];
    char *why = NULL;
    unsigned int i;
    int len;

    s = cur(s);
    CHECK(s->filters);
    CHECK(ev->code < NCODES && n <= DAPTO_FILTER_CLAUSES);
    if (s->refuse_filter) {
        xcause(cause, "no room");
        return -1;
    }
    if (ev->code >= NCODES || n > DAPTO_FILTER_CLAUSES)
        return -1;
    /* the filter the dispatcher asks for is one the channel would write
     * (an empty slot included), not one it would refuse */
    len = cond_filter(uncond, checked, passed, cl, n, blob, sizeof blob, &why);
    if (len < 0)
        fprintf(stderr, "filter of event %u refused: %s\n", ev->code, why);
    CHECK(len > 0);
    free(why);
    s->nfilter[ev->code] = n;
    s->uncond[ev->code] = uncond;
    for (i = 0; i < n; i++) {
        s->cbits[ev->code][i] = cl[i].bits;
        s->cprog[ev->code][i] = cl[i].prog_len;
    }
    s->filter_writes[ev->code]++;
    return 0;
}

void session_clear_filter(struct session *s, const struct registry_event *ev)
{
    s = cur(s);
    if (ev->code < NCODES)
        s->clears[ev->code]++;
}

uint64_t session_counter(const struct session *s, uint16_t id)
{
    (void)s;
    return 1000u + id;
}

static void session_init(struct session *s, struct registry *reg)
{
    memset(s, 0, sizeof *s);
    /* not 0, so that a 0 written is seen */
    memset(s->state, 0xee, sizeof s->state);
    s->reg = reg;
    s->direct = -1;
    s->counting = -1;
}

/* The dispatcher and session of the test running, for the consumers'
 * actions (set at the start of each test). */
static struct dispatch *td;
static struct session *ts;

/* What consumers were told, in order: "name:code " for an event,
 * "name!post " for an artificial event, "name:fn3 " for 3 function
 * records on the direct path. */
static char told_log[4096];

static void log_add(const char *fmt, ...)
{
    size_t len = strlen(told_log);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(told_log + len, sizeof told_log - len, fmt, ap);
    va_end(ap);
}

/* Whether the log is WANT; empties it. */
static int log_is(const char *want)
{
    int ok = strcmp(told_log, want) == 0;

    if (!ok)
        fprintf(stderr, "told: \"%s\", expected \"%s\"\n", told_log, want);
    told_log[0] = '\0';
    return ok;
}

/* The description of an event with state byte ADDR and NPARAMS string
 * parameters named NAME... */
static void wire_event(struct wire *w, const char *name, uint64_t addr,
                       int nparams, ...)
{
    va_list ap;

    wire_str(w, name);
    wire_str(w, "");
    wire_int(w, 1);
    wire_ptr(w, addr);
    wire_int(w, nparams);
    va_start(ap, nparams);
    for (int i = 0; i < nparams; i++)
        wire_param(w, va_arg(ap, const char *), "str", DAPTO_K_STR, "");
    va_end(ap);
}

/* Add the built-in aspect, as the runtime describes it, to REG. */
static void add_builtin(struct registry *reg)
{
    struct wire w = {.len = 0};
    char *cause = NULL;

    wire_str(&w, "dapto");
    wire_str(&w, "dapto.h");
    wire_int(&w, DAPTO_ABI_VERSION);
    wire_int(&w, 0);
    wire_int(&w, DAPTO_EV_BUILTINS);
    wire_int(&w, 0);
    wire_int(&w, 0);
    wire_event(&w, "init", 0x1000, 1, "pid");
    wire_event(&w, "finit", 0x1001, 0);
    wire_event(&w, "exit", 0x1002, 0);
    wire_event(&w, "stopped", 0x1003, 2, "locale", "error");
    wire_event(&w, "enter", 0x1004, 1, "name");
    wire_event(&w, "leave", 0x1005, 1, "name");
    CHECK(registry_add(reg, w.buf, w.len, &cause) != NULL);
    free(cause);
}

/* Add test aspect NAME (two events) at event code BASE. */
static void add_aspect(struct registry *reg, const char *name, int base,
                       int op_base)
{
    struct wire w = {.len = 0};
    char *cause = NULL;

    wire_test_aspect(&w, name, base, op_base);
    CHECK(registry_add(reg, w.buf, w.len, &cause) != NULL);
    free(cause);
}

static struct registry *make_registry(int builtin)
{
    struct registry *reg = registry_create();

    if (builtin)
        add_builtin(reg);
    add_aspect(reg, "t", EV_T_ALL, 0);
    add_aspect(reg, "u", EV_U_ALL, 1);
    return reg;
}

static const struct registry_event *ev(unsigned int code)
{
    return registry_event(session_registry(ts), code);
}

/* An event of the session's registry (WAITING: its thread waits). */
static struct reader_item event_item(unsigned int code, int waiting)
{
    struct reader_item it;

    memset(&it, 0, sizeof it);
    it.kind = READER_EVENT;
    it.code = code;
    it.tid = 42;
    it.stop = waiting ? 0 : -1;
    it.event = registry_event(session_registry(ts), code);
    return it;
}

/* A function entry (ENTER) or exit of the function at ADDR. */
static struct reader_item function_item(uint64_t addr, int enter)
{
    struct reader_item it;

    memset(&it, 0, sizeof it);
    it.kind = READER_FUNCTION;
    it.code = enter ? DAPTO_REC_FNENTER : DAPTO_REC_FNLEAVE;
    it.tid = 42;
    it.stop = -1;
    it.function = addr;
    it.enter = enter;
    return it;
}

static struct reader_item other_item(enum reader_kind kind)
{
    struct reader_item it;

    memset(&it, 0, sizeof it);
    it.kind = kind;
    it.stop = -1;
    return it;
}

/* Hand ITEM to the dispatcher, expecting it not to stop the program. */
static void deliver_item(struct reader_item it)
{
    char *where = NULL;

    CHECK_EQ_INT(dispatch_item(td, &it, &where), 0);
    CHECK(where == NULL);
    free(where);
}

/* A consumer of the tests: its wishes by event code, and what it was
 * told. */
struct tc {
    const char *name;
    unsigned char want[NCODES];
    const char *post_name; /* the artificial events it wants, or NULL */

    struct consumer *c;
    struct consumer_hooks more;

    unsigned int asked; /* want() calls */
    unsigned int told;  /* events delivered */
    unsigned int off, on; /* notices */
    unsigned int started;
    char name_value[64]; /* the name of the last enter or leave */
    int waiting;         /* of the last event */

    /* at each delivery: stop the program with a copy of STOP (or with no
     * description: STOP_BARE) */
    const char *stop;
    int stop_bare;
    /* at each delivery / artificial event, after logging */
    void (*act)(struct tc *t, struct dispatch_event *de);
    void (*post_act)(struct tc *t, const struct dispatch_post *p);
    struct tc *peer, *peer2, *peer3; /* for the actions */

    /* seen by the actions */
    unsigned int seen_writes, seen_asked;
    unsigned char seen_state;
    int result;
    char *cause;

    /* the direct path */
    unsigned int fn_calls, fn_n;
    const struct reader_fn *fn_last;
    /* a recording's counted events */
    unsigned int counted;

    /* artificial events */
    unsigned int posted;
    int post_argc;
    const char *post_arg0;

    /* conditions <protocol#filter>: its clauses on CL_CODE, the bits it
     * wants there whatever they say, and what the last delivery said */
    unsigned int cl_code;
    unsigned int ncl;
    unsigned char cl_uncond;
    struct dispatch_clause cl[DISPATCH_CLAUSES + 2];
    uint32_t placed, held;
};

static unsigned char tc_want(void *arg, const struct registry_event *e)
{
    struct tc *t = arg;

    t->asked++;
    return e->code < NCODES ? t->want[e->code] : 0;
}

static void tc_deliver(void *arg, struct dispatch_event *de)
{
    struct tc *t = arg;
    const struct reader_item *it = de->item;

    t->told++;
    log_add("%s:%u ", t->name, de->event->code);
    CHECK(it != NULL && it->event == de->event);
    t->waiting = de->waiting;
    t->placed = de->placed;
    t->held = de->held;
    t->name_value[0] = '\0';
    if (it->nvalues == 1 && it->values[0].kind == DAPTO_K_STR)
        snprintf(t->name_value, sizeof t->name_value, "%.*s",
                 (int)it->values[0].len, it->values[0].s);
    if (t->act != NULL)
        t->act(t, de);
    if (t->stop != NULL)
        dispatch_stop(de, xstrdup(t->stop));
    else if (t->stop_bare)
        dispatch_stop(de, NULL);
}

static void tc_notice(void *arg, int on)
{
    struct tc *t = arg;

    if (on)
        t->on++;
    else
        t->off++;
}

static void tc_started(void *arg, const struct reader_item *item)
{
    struct tc *t = arg;

    CHECK(item->kind == READER_HELLO);
    t->started++;
}

static int tc_wants_post(void *arg, const char *name)
{
    struct tc *t = arg;

    return t->post_name != NULL && strcmp(t->post_name, name) == 0;
}

static void tc_post(void *arg, const struct dispatch_post *p)
{
    struct tc *t = arg;

    t->posted++;
    log_add("%s!%s ", t->name, p->name);
    t->post_argc = p->argc;
    t->post_arg0 = p->argc > 0 ? p->argv[0] : NULL;
    if (t->post_act != NULL)
        t->post_act(t, p);
}

static void tc_functions(void *arg, const struct reader_fn *fns,
                         unsigned int n)
{
    struct tc *t = arg;

    t->fn_calls++;
    t->fn_n += n;
    t->fn_last = fns;
    log_add("%s:fn%u ", t->name, n);
}

static void tc_counts(void *arg, const struct reader_ev *evs, unsigned int n)
{
    struct tc *t = arg;

    t->counted += n;
    log_add("%s:%ux%u ", t->name, evs[0].event->code, n);
    if (t->act != NULL)
        t->act(t, NULL);
}

static unsigned int tc_clauses(void *arg, const struct registry_event *e,
                               unsigned char *uncond,
                               struct dispatch_clause *cl, unsigned int max)
{
    struct tc *t = arg;
    unsigned int n = t->ncl < max ? t->ncl : max;

    if (e->code != t->cl_code || t->ncl == 0)
        return 0;
    memcpy(cl, t->cl, n * sizeof *cl);
    *uncond = t->cl_uncond;
    /* (dispatch.h) clauses beyond MAX are the consumer's own to decide */
    for (unsigned int i = n; i < t->ncl; i++)
        *uncond |= t->cl[i].bits;
    return n;
}

/* Consumers with conditions. */
static const struct consumer_ops cond_ops = {
    .name = "cond",
    .want = tc_want,
    .deliver = tc_deliver,
    .clauses = tc_clauses,
};

static const struct consumer_ops tc_ops = {
    .name = "tc",
    .want = tc_want,
    .deliver = tc_deliver,
    .notice = tc_notice,
};

/* A consumer that is never told: it asks states for others' benefit. */
static const struct consumer_ops silent_ops = {
    .name = "silent",
    .want = tc_want,
};

static void add(struct tc *t, const struct consumer_ops *ops)
{
    t->c = dispatch_add(td, ops, t);
}

/* Give T the hooks FUNCTIONS (the direct path), POSTS (artificial events)
 * and STARTED. */
static void give_more(struct tc *t, int functions, int posts, int started)
{
    memset(&t->more, 0, sizeof t->more);
    if (functions)
        t->more.functions = tc_functions;
    if (posts) {
        t->more.wants_post = tc_wants_post;
        t->more.post = tc_post;
    }
    if (started)
        t->more.started = tc_started;
    dispatch_set_hooks(td, t->c, &t->more);
}

static void begin(struct session *s, struct registry *reg)
{
    session_init(s, reg);
    ts = s;
    td = dispatch_create(s);
    told_log[0] = '\0';
}

static void end(void)
{
    dispatch_free(td);
    td = NULL;
    ts = NULL;
}

/* The wishes of several consumers, merged, are what is written into the
 * program; only when they change. */
static void test_states(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"};
    unsigned int code, nevents = 0, n, asked;

    begin(&s, reg);
    a.want[EV_T_ALL] = REC;
    a.want[EV_T_PING] = TRAIL;
    b.want[EV_T_ALL] = STOP;
    b.want[EV_ENTER] = REC;
    c.want[EV_U_ALL] = TRAIL | REC;
    c.want[EV_T_PING] = TRAIL;
    add(&a, &tc_ops);
    add(&b, &tc_ops);
    add(&c, &silent_ops);
    /* nothing is written before the flush */
    CHECK_EQ_INT(s.nwrites, 0);
    dispatch_flush(td);

    /* the union, for every event of the interface, written once */
    CHECK_EQ_INT(s.state[EV_T_ALL], REC | STOP);
    CHECK_EQ_INT(s.state[EV_T_PING], TRAIL);
    CHECK_EQ_INT(s.state[EV_ENTER], REC);
    CHECK_EQ_INT(s.state[EV_U_ALL], TRAIL | REC);
    for (code = 0; code < NCODES; code++) {
        if (ev(code) == NULL) {
            CHECK_EQ_INT(s.writes[code], 0);
            continue;
        }
        nevents++;
        CHECK_EQ_INT(s.writes[code], 1);
        CHECK_EQ_INT(dispatch_state(td, ev(code)), s.state[code]);
    }
    CHECK_EQ_INT(nevents, 10);
    CHECK_EQ_INT(s.nwrites, nevents);
    /* events nobody wants are written 0 */
    CHECK_EQ_INT(s.state[EV_INIT], 0);
    CHECK_EQ_INT(s.state[EV_STOPPED], 0);
    CHECK_EQ_INT(s.state[EV_LEAVE], 0);
    CHECK_EQ_INT(s.state[EV_U_PING], 0);

    /* nothing changed: nothing asked, nothing written */
    n = s.nwrites;
    asked = a.asked + b.asked + c.asked;
    dispatch_flush(td);
    CHECK_EQ_INT(s.nwrites, n);
    CHECK_EQ_INT(a.asked + b.asked + c.asked, asked);

    /* changes are taken up at the flush, once however many */
    a.want[EV_T_PING] = STOP;
    dispatch_changed(td);
    dispatch_changed(td);
    CHECK_EQ_INT(s.nwrites, n);
    CHECK_EQ_INT(s.state[EV_T_PING], TRAIL);
    dispatch_flush(td);
    CHECK_EQ_INT(s.nwrites, n + nevents);
    CHECK_EQ_INT(s.state[EV_T_PING], STOP | TRAIL);

    /* a disabled consumer's bits go, and come back when it is enabled */
    dispatch_enable(td, b.c, 0);
    CHECK_EQ_INT(b.off, 1);
    CHECK(!dispatch_enabled(b.c));
    CHECK_EQ_INT(s.state[EV_T_ALL], REC | STOP);
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_T_ALL], REC);
    CHECK_EQ_INT(s.state[EV_ENTER], 0);
    CHECK_EQ_INT(dispatch_state(td, ev(EV_T_ALL)), REC);
    /* (what it asks is still known, for listings) */
    CHECK_EQ_INT(dispatch_wants(b.c, ev(EV_T_ALL)), STOP);
    dispatch_enable(td, b.c, 1);
    CHECK_EQ_INT(b.on, 1);
    CHECK(dispatch_enabled(b.c));
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_T_ALL], REC | STOP);
    CHECK_EQ_INT(s.state[EV_ENTER], REC);
    /* enabling an enabled consumer is no change */
    n = s.nwrites;
    dispatch_enable(td, b.c, 1);
    CHECK_EQ_INT(b.on, 1);
    dispatch_flush(td);
    CHECK_EQ_INT(s.nwrites, n);

    /* listings */
    CHECK_EQ_INT(dispatch_count(td), 3);
    CHECK(dispatch_at(td, 0) == a.c);
    CHECK(dispatch_at(td, 1) == b.c);
    CHECK(dispatch_at(td, 2) == c.c);
    CHECK(dispatch_at(td, 3) == NULL);
    CHECK(dispatch_arg(b.c) == &b);
    CHECK(strcmp(dispatch_name(c.c), "silent") == 0);

    /* a removed consumer's bits go */
    dispatch_remove(td, a.c);
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_T_ALL], STOP);
    CHECK_EQ_INT(s.state[EV_T_PING], TRAIL);
    CHECK_EQ_INT(dispatch_count(td), 2);
    CHECK(dispatch_at(td, 0) == b.c);

    /* a new aspect: the flush sees the interface grown */
    c.want[EV_V_ALL] = REC;
    add_aspect(reg, "v", EV_V_ALL, 2);
    dispatch_flush(td);
    CHECK_EQ_INT(s.writes[EV_V_ALL], 1);
    CHECK_EQ_INT(s.state[EV_V_ALL], REC);
    /* an aspect item writes its states at once (before it is acked) */
    c.want[EV_W_ALL] = STOP;
    add_aspect(reg, "w", EV_W_ALL, 3);
    deliver_item(other_item(READER_ASPECT));
    CHECK_EQ_INT(s.state[EV_W_ALL], STOP);

    /* writes that fail (the program is gone) are let be */
    s.refuse = 1;
    dispatch_changed(td);
    dispatch_flush(td);
    CHECK_EQ_INT(dispatch_state(td, ev(EV_W_ALL)), STOP);
    s.refuse = 0;

    /* no program: no states, no direct path */
    s.reg = NULL;
    s.direct = -1;
    dispatch_flush(td);
    CHECK_EQ_INT(s.direct, 0);
    s.reg = reg;
    CHECK_EQ_INT(dispatch_state(td, ev(EV_T_ALL)), 0);
    end();
    registry_free(reg);
}

/* Each event goes to the consumers that asked for it, in the order they
 * were added; only records and stops are delivered. */
static void test_delivery(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"},
              d = {.name = "d"}, e = {.name = "e"}, f = {.name = "f"};
    unsigned int asked;

    begin(&s, reg);
    a.want[EV_T_ALL] = REC;
    a.want[EV_T_PING] = REC;
    b.want[EV_T_ALL] = STOP;
    c.want[EV_T_PING] = TRAIL; /* the trail alone: not told */
    d.want[EV_T_ALL] = REC;    /* no deliver: not told */
    e.want[EV_U_ALL] = REC;
    e.want[EV_T_ALL] = TRAIL | REC;
    add(&a, &tc_ops);
    add(&b, &tc_ops);
    add(&c, &tc_ops);
    add(&d, &silent_ops);
    add(&e, &tc_ops);

    /* the table is made before the first event */
    deliver_item(event_item(EV_T_ALL, 1));
    CHECK(log_is("a:6 b:6 e:6 "));
    CHECK(a.waiting && e.waiting);
    CHECK_EQ_INT(s.state[EV_T_ALL], TRAIL | REC | STOP);
    deliver_item(event_item(EV_T_PING, 0));
    CHECK(log_is("a:7 "));
    CHECK(!a.waiting);
    deliver_item(event_item(EV_U_ALL, 0));
    CHECK(log_is("e:10 "));
    deliver_item(event_item(EV_U_PING, 0));
    deliver_item(event_item(EV_INIT, 0));
    CHECK(log_is(""));
    CHECK_EQ_INT(c.told + d.told, 0);

    /* the wishes are not asked again for each event */
    asked = a.asked;
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 b:6 e:6 "));
    CHECK_EQ_INT(a.asked, asked);

    /* a disabled consumer is not told; enabled, it is again */
    dispatch_enable(td, b.c, 0);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 e:6 "));
    dispatch_enable(td, b.c, 1);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 b:6 e:6 "));

    /* added between events: told of the next one, after the others */
    f.want[EV_T_ALL] = STOP;
    f.want[EV_U_ALL] = REC;
    add(&f, &tc_ops);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 b:6 e:6 f:6 "));
    deliver_item(event_item(EV_U_ALL, 0));
    CHECK(log_is("e:10 f:10 "));

    /* removed between events: not told any more */
    dispatch_remove(td, b.c);
    dispatch_remove(td, e.c);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 f:6 "));
    CHECK_EQ_INT(s.state[EV_T_ALL], REC | STOP);

    /* items that are not events, and events outside the interface */
    deliver_item(other_item(READER_LOST));
    deliver_item(other_item(READER_ERROR));
    deliver_item(other_item(READER_NONE));
    deliver_item(event_item(9, 0));
    deliver_item(event_item(NCODES + 100, 0));
    CHECK(log_is(""));
    end();
    registry_free(reg);
}

/* Actions of test_changes(). */

/* Remove T->peer, add T->peer2, change a wish and ask for the
 * recomputation every way there is: all of it waits for the end of the
 * delivery. */
static void act_reshuffle(struct tc *t, struct dispatch_event *de)
{
    (void)de;
    t->seen_writes = ts->nwrites;
    t->seen_asked = t->asked;
    dispatch_remove(td, t->peer->c);
    t->peer->c = NULL;
    add(t->peer2, &tc_ops);
    dispatch_enable(td, t->peer3->c, 1);
    t->want[EV_T_PING] = STOP;
    dispatch_changed(td);
    dispatch_sync(td);
    dispatch_flush(td);
    /* nothing recomputed nor written yet */
    CHECK_EQ_INT(ts->nwrites, t->seen_writes);
    CHECK_EQ_INT(t->asked, t->seen_asked);
    CHECK_EQ_INT(ts->state[EV_T_PING], REC | TRAIL);
    t->act = NULL;
}

/* Note what has been written so far (a consumer told after one that
 * changed things). */
static void act_look(struct tc *t, struct dispatch_event *de)
{
    (void)de;
    t->seen_writes = ts->nwrites;
    t->seen_state = ts->state[EV_T_PING];
    t->seen_asked = t->peer->asked;
}

static void act_remove_self(struct tc *t, struct dispatch_event *de)
{
    (void)de;
    dispatch_remove(td, t->c);
    t->c = NULL;
}

/* Consumers added and removed while an event is delivered: the event goes
 * on with the table as it was, the recomputation is done once the
 * delivery is over. */
static void test_changes(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"},
              d = {.name = "d"}, e = {.name = "e"};
    unsigned int writes;

    begin(&s, reg);
    a.want[EV_T_ALL] = REC;
    a.want[EV_T_PING] = REC;
    b.want[EV_T_ALL] = REC;
    b.want[EV_T_PING] = TRAIL;
    d.want[EV_T_ALL] = REC;
    c.want[EV_T_ALL] = REC;
    c.want[EV_U_ALL] = REC;
    add(&a, &tc_ops);
    add(&b, &tc_ops);
    add(&d, &tc_ops);
    e.want[EV_T_ALL] = REC;
    add(&e, &tc_ops);
    dispatch_enable(td, e.c, 0);
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_T_PING], REC | TRAIL);
    writes = s.nwrites;

    /* a, told first, removes b, adds c and enables e */
    a.act = act_reshuffle;
    a.peer = &b;
    a.peer2 = &c;
    a.peer3 = &e;
    d.act = act_look;
    d.peer = &a;
    deliver_item(event_item(EV_T_ALL, 0));
    /* b, removed, is not told; c, added, and e, enabled, are not told
     * of this event */
    CHECK(log_is("a:6 d:6 "));
    CHECK_EQ_INT(b.told, 0);
    CHECK_EQ_INT(c.told, 0);
    CHECK_EQ_INT(e.told, 0);
    /* nothing was recomputed while d was told */
    CHECK_EQ_INT(d.seen_writes, writes);
    CHECK_EQ_INT(d.seen_state, REC | TRAIL);
    CHECK_EQ_INT(d.seen_asked, a.seen_asked);
    /* it was once the delivery was over */
    CHECK_EQ_INT(s.nwrites, writes + 10);
    CHECK_EQ_INT(s.state[EV_T_PING], STOP);
    CHECK_EQ_INT(s.state[EV_U_ALL], REC);
    CHECK_EQ_INT(dispatch_count(td), 4);
    CHECK(dispatch_at(td, 0) == a.c);
    CHECK(dispatch_at(td, 1) == d.c);
    CHECK(dispatch_at(td, 2) == e.c);
    CHECK(dispatch_at(td, 3) == c.c);
    d.act = NULL;
    dispatch_remove(td, e.c);

    /* c is told from the next event on */
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 d:6 c:6 "));
    deliver_item(event_item(EV_U_ALL, 0));
    CHECK(log_is("c:10 "));

    /* a consumer that removes itself while it is told */
    d.act = act_remove_self;
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 d:6 c:6 "));
    CHECK(d.c == NULL);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 c:6 "));
    CHECK_EQ_INT(dispatch_count(td), 2);

    /* a consumer removed while told of an event it is the last to want:
     * its bits go once the delivery is over */
    c.act = act_remove_self;
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 c:6 "));
    CHECK_EQ_INT(s.state[EV_U_ALL], 0);
    deliver_item(event_item(EV_U_ALL, 0));
    CHECK(log_is(""));
    CHECK_EQ_INT(dispatch_count(td), 1);
    end();
    registry_free(reg);
}

/* A new run: every consumer hears of it, and the table is made again for
 * the run's interface before its first event. */
static void test_runs(void)
{
    struct registry *reg = make_registry(1), *reg2;
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"};
    unsigned int writes;

    begin(&s, reg);
    a.want[EV_T_ALL] = REC;
    b.want[EV_T_ALL] = REC;
    add(&a, &tc_ops);
    add(&b, &tc_ops);
    add(&c, &tc_ops);
    give_more(&a, 0, 0, 1);
    give_more(&b, 0, 0, 1);
    dispatch_enable(td, b.c, 0);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 "));

    /* a run of a program whose interface has t at another place */
    reg2 = registry_create();
    add_aspect(reg2, "t", EV_U_ALL, 0);
    s.reg = reg2;
    writes = s.nwrites;
    deliver_item(other_item(READER_HELLO));
    /* (enabled or not) */
    CHECK_EQ_INT(a.started, 1);
    CHECK_EQ_INT(b.started, 1);
    registry_free(reg);
    a.want[EV_U_ALL] = STOP;
    deliver_item(event_item(EV_U_ALL, 1));
    CHECK(log_is("a:10 "));
    CHECK_EQ_INT(s.nwrites, writes + 2);
    CHECK_EQ_INT(s.state[EV_U_ALL], STOP);
    end();
    registry_free(reg2);
}

/* A consumer of processes: t.ev_all recorded in every process, t.ping a
 * stop only in process 200 (as `break -pid 200`), by name, as the Tcl
 * layer's consumers ask. */
struct pc {
    unsigned int asked[2]; /* want() calls, for process 100 and 200 */
    unsigned int started, joined;
    char told[256];
};

static unsigned char pc_want(void *arg, const struct registry_event *e)
{
    struct pc *p = arg;
    pid_t pid = session_pid(ts);

    p->asked[pid == 200]++;
    if (registry_event_named(e, "t.ev_all"))
        return REC;
    if (registry_event_named(e, "t.ping") && pid == 200)
        return REC | STOP;
    return 0;
}

static void pc_deliver(void *arg, struct dispatch_event *de)
{
    struct pc *p = arg;
    size_t len = strlen(p->told);

    snprintf(p->told + len, sizeof p->told - len, "%d:%s.%s ",
             (int)session_pid(ts), de->event->aspect->name, de->event->name);
    if (registry_event_named(de->event, "t.ping"))
        dispatch_stop(de, xstrdup("ping"));
}

static void pc_started(void *arg, const struct reader_item *item)
{
    (void)item;
    ((struct pc *)arg)->started++;
}

static void pc_joined(void *arg, const struct reader_item *item)
{
    (void)item;
    ((struct pc *)arg)->joined++;
}

static const struct consumer_ops pc_ops = {
    .name = "pc",
    .want = pc_want,
    .deliver = pc_deliver,
};

/* Make process I current, as the session does and tells the
 * dispatcher. */
static void select_process(unsigned int i)
{
    session_select(ts, i);
    dispatch_process(td);
}

/* Each process of a run has its own table, states and codes: a consumer
 * is asked for each process in turn (session_pid says which) and its
 * states are written into that process only; an event goes to the
 * consumers of its own process's table; a process joining the run is
 * told as joined, not as a new run. */
static void test_processes(void)
{
    struct registry *r0 = make_registry(1), *r1 = registry_create();
    struct session s, p0, p1;
    struct pc pc;
    struct consumer *c;
    struct consumer_hooks more;
    char *where = NULL;
    struct reader_item it;

    memset(&pc, 0, sizeof pc);
    /* process 200 has aspect t where process 100 has u (an exec) */
    add_builtin(r1);
    add_aspect(r1, "t", EV_U_ALL, 0);
    begin(&s, NULL);
    session_init(&p0, r0);
    session_init(&p1, r1);
    p0.pid = 100;
    p1.pid = 200;
    s.procs[0] = &p0;
    s.procs[1] = &p1;
    s.nprocs = 2;
    c = dispatch_add(td, &pc_ops, &pc);
    memset(&more, 0, sizeof more);
    more.started = pc_started;
    more.joined = pc_joined;
    dispatch_set_hooks(td, c, &more);
    dispatch_flush(td);
    /* each process its own states, at its own codes */
    CHECK_EQ_INT(p0.state[EV_T_ALL], REC);
    CHECK_EQ_INT(p0.state[EV_T_PING], 0);
    CHECK_EQ_INT(p1.state[EV_U_ALL], REC);
    CHECK_EQ_INT(p1.state[EV_U_PING], REC | STOP);
    CHECK_EQ_INT(p1.state[EV_T_ALL], 0xee); /* (no event there) */
    CHECK_EQ_INT(p0.state[EV_U_PING], 0);
    CHECK(pc.asked[0] > 0 && pc.asked[1] > 0);
    /* the session's current process is as it was */
    CHECK_EQ_INT(session_current(ts), 0);

    /* events go by their process's table */
    select_process(1);
    it = event_item(EV_U_PING, 1);
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 1);
    CHECK(where != NULL && strcmp(where, "ping") == 0);
    free(where);
    where = NULL;
    deliver_item(event_item(EV_U_ALL, 0));
    select_process(0);
    deliver_item(event_item(EV_T_ALL, 0));
    deliver_item(event_item(EV_T_PING, 1)); /* (nobody's in process 100) */
    if (strcmp(pc.told, "200:t.ping 200:t.ev_all 100:t.ev_all ") != 0)
        fprintf(stderr, "told: \"%s\"\n", pc.told);
    CHECK(strcmp(pc.told, "200:t.ping 200:t.ev_all 100:t.ev_all ") == 0);

    /* a process joining the run is no new run: the other process's
     * states stay, and nothing is dropped */
    p1.joined = 1;
    select_process(1);
    deliver_item(other_item(READER_HELLO));
    CHECK_EQ_INT(pc.started, 0);
    CHECK_EQ_INT(pc.joined, 1);
    dispatch_flush(td);
    CHECK_EQ_INT(p0.state[EV_T_ALL], REC);
    CHECK_EQ_INT(p1.state[EV_U_PING], REC | STOP);
    /* the first process's hello is a new run */
    select_process(0);
    deliver_item(other_item(READER_HELLO));
    CHECK_EQ_INT(pc.started, 1);
    CHECK_EQ_INT(pc.joined, 1);
    end();
    registry_free(r0);
    registry_free(r1);
}

/* Call the direct path from inside a delivery. */
static void act_functions(struct tc *t, struct dispatch_event *de)
{
    struct reader_fn fns[1];

    (void)de;
    memset(fns, 0, sizeof fns);
    t->result = (int)dispatch_functions(td, fns, 1);
}

/* Flush, checking that the direct path is set, and return it. */
static int flush_direct(void)
{
    ts->direct = -1;
    dispatch_flush(td);
    CHECK(ts->direct == 0 || ts->direct == 1);
    return ts->direct;
}

/* Function records go straight to the consumers with the functions hook
 * when those are all that are told of enter and leave. */
static void test_direct(void)
{
    struct registry *reg = make_registry(1), *reg2, *reg3;
    struct session s;
    struct tc f = {.name = "f"}, g = {.name = "g"}, h = {.name = "h"},
              k = {.name = "k"}, m = {.name = "m"}, t = {.name = "t"},
              x = {.name = "x"};
    struct reader_fn fns[3];
    char *where = NULL;
    struct reader_item it;

    memset(fns, 0, sizeof fns);
    begin(&s, reg);
    f.want[EV_ENTER] = REC;
    f.want[EV_LEAVE] = REC;
    add(&f, &tc_ops);
    give_more(&f, 1, 0, 0);
    g.want[EV_T_ALL] = REC;
    add(&g, &tc_ops);

    /* not before the table is made */
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    CHECK(log_is(""));
    CHECK_EQ_INT(flush_direct(), 1);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 3);
    CHECK(log_is("f:fn3 "));
    CHECK(f.fn_last == fns);

    /* declined from a change until it is taken up */
    dispatch_changed(td);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    CHECK(log_is(""));
    CHECK_EQ_INT(flush_direct(), 1);
    CHECK_EQ_INT(dispatch_functions(td, fns, 2), 2);
    CHECK(log_is("f:fn2 "));

    /* a consumer of enter and leave without the hook: off */
    h.want[EV_ENTER] = REC;
    h.want[EV_LEAVE] = REC;
    add(&h, &tc_ops);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    CHECK_EQ_INT(flush_direct(), 0);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    CHECK(log_is(""));
    /* then function records come as items: enter and leave events named
     * by the function (here its address) */
    deliver_item(function_item(0x1234, 1));
    CHECK(log_is("f:4 h:4 "));
    CHECK(strcmp(f.name_value, "0x1234") == 0);
    CHECK(strcmp(h.name_value, "0x1234") == 0);
    CHECK(!f.waiting);
    deliver_item(function_item(0x1234, 0));
    CHECK(log_is("f:5 h:5 "));
    CHECK(strcmp(f.name_value, "0x1234") == 0);

    /* excluded functions are not delivered */
    CHECK_EQ_INT(symnames_exclude(dispatch_symnames(td), "0x12*", 1), 0);
    deliver_item(function_item(0x1234, 1));
    deliver_item(function_item(0x1236, 0));
    CHECK(log_is(""));
    deliver_item(function_item(0x5678, 1));
    CHECK(log_is("f:4 h:4 "));
    CHECK(strcmp(h.name_value, "0x5678") == 0);

    /* a function entry cannot stop the program */
    h.stop = "h stops";
    it = function_item(0x5678, 1);
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 0);
    CHECK(where == NULL);
    CHECK(log_is("f:4 h:4 "));
    h.stop = NULL;

    /* h gone: on again */
    dispatch_remove(td, h.c);
    CHECK_EQ_INT(flush_direct(), 1);

    /* consumers that are not told of enter and leave do not count */
    t.want[EV_ENTER] = TRAIL;
    add(&t, &tc_ops);
    x.want[EV_LEAVE] = REC;
    add(&x, &silent_ops);
    CHECK_EQ_INT(flush_direct(), 1);
    CHECK_EQ_INT(s.state[EV_ENTER], REC | TRAIL);
    CHECK_EQ_INT(s.state[EV_LEAVE], REC);

    /* others with the hook: each must be told of both */
    k.want[EV_ENTER] = REC;
    add(&k, &tc_ops);
    give_more(&k, 1, 0, 0);
    CHECK_EQ_INT(flush_direct(), 0);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    /* (as many told of enter as of leave, but not the same ones) */
    m.want[EV_LEAVE] = REC;
    add(&m, &tc_ops);
    give_more(&m, 1, 0, 0);
    CHECK_EQ_INT(flush_direct(), 0);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    dispatch_remove(td, m.c);
    k.want[EV_ENTER] = 0;
    k.want[EV_LEAVE] = REC;
    dispatch_changed(td);
    CHECK_EQ_INT(flush_direct(), 0);
    k.want[EV_ENTER] = STOP;
    dispatch_changed(td);
    CHECK_EQ_INT(flush_direct(), 1);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 3);
    CHECK(log_is("f:fn3 k:fn3 "));

    /* nobody told of enter and leave: off */
    dispatch_enable(td, f.c, 0);
    CHECK_EQ_INT(flush_direct(), 1);
    dispatch_enable(td, k.c, 0);
    CHECK_EQ_INT(flush_direct(), 0);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    dispatch_enable(td, f.c, 1);
    dispatch_enable(td, k.c, 1);
    CHECK_EQ_INT(flush_direct(), 1);

    /* declined while an event is delivered */
    g.act = act_functions;
    g.result = -1;
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK_EQ_INT(g.result, 0);
    CHECK(log_is("g:6 "));
    g.act = NULL;

    /* a new run: declined until the table is made for its interface */
    reg2 = make_registry(1);
    s.reg = reg2;
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    CHECK_EQ_INT(flush_direct(), 1);
    CHECK_EQ_INT(dispatch_functions(td, fns, 1), 1);
    CHECK(log_is("f:fn1 k:fn1 "));

    /* without the built-in aspect: off, and function items are dropped */
    reg3 = make_registry(0);
    s.reg = reg3;
    CHECK_EQ_INT(flush_direct(), 0);
    CHECK_EQ_INT(dispatch_functions(td, fns, 3), 0);
    deliver_item(function_item(0x5678, 1));
    CHECK(log_is(""));
    CHECK_EQ_INT(f.fn_n, 3 + 2 + 3 + 1);
    CHECK_EQ_INT(k.fn_n, 3 + 1);
    end();
    registry_free(reg);
    registry_free(reg2);
    registry_free(reg3);
}

/* Flush, checking that the counting is set, and return it. */
static int flush_counting(void)
{
    ts->counting = -1;
    dispatch_flush(td);
    CHECK(ts->counting == 0 || ts->counting == 1);
    return ts->counting;
}

/* An action: want event 7 too (a change of wishes while told). */
static void act_want_ping(struct tc *t, struct dispatch_event *de)
{
    (void)de;
    t->want[EV_T_PING] = REC;
    dispatch_changed(td);
}

/* A recording's events go to the consumers with the counts hook, without
 * items, when those are all that are told of them; never enter and
 * leave. */
static void test_counts(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc c = {.name = "c"}, d = {.name = "d"}, h = {.name = "h"},
              t = {.name = "t"};
    struct reader_ev evs[5];
    const unsigned char *counted;
    unsigned int limit = 0;

    begin(&s, reg);
    c.want[EV_T_ALL] = REC;
    c.want[EV_T_PING] = REC;
    c.want[EV_U_ALL] = REC;
    c.want[EV_ENTER] = REC;
    c.want[EV_LEAVE] = REC;
    add(&c, &tc_ops);
    memset(&c.more, 0, sizeof c.more);
    c.more.counts = tc_counts;
    c.more.functions = tc_functions;
    dispatch_set_hooks(td, c.c, &c.more);
    h.want[EV_U_ALL] = REC;
    add(&h, &tc_ops);
    t.want[EV_T_PING] = TRAIL; /* (not told: does not count) */
    add(&t, &tc_ops);
    for (int i = 0; i < 5; i++) {
        evs[i].event = registry_event(reg, i < 3 ? EV_T_ALL : EV_T_PING);
        evs[i].tid = 42;
        evs[i].ns = i;
    }

    /* not before the table is made */
    CHECK(dispatch_counted(td, &limit) == NULL);
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 0);
    CHECK_EQ_INT(flush_counting(), 1);
    counted = dispatch_counted(td, &limit);
    CHECK(counted != NULL && limit > EV_U_ALL);
    if (counted == NULL)
        return;
    CHECK_EQ_INT(counted[EV_T_ALL], 1);
    CHECK_EQ_INT(counted[EV_T_PING], 1);
    CHECK_EQ_INT(counted[EV_U_ALL], 0); /* h has no hook */
    CHECK_EQ_INT(counted[EV_U_PING], 1); /* nobody is told of it */
    CHECK_EQ_INT(counted[EV_ENTER], 0);  /* the direct path's */
    CHECK_EQ_INT(counted[EV_LEAVE], 0);
    /* runs of the same event, each to every consumer of it */
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 5);
    CHECK(log_is("c:6x3 c:7x2 "));

    /* a second consumer with the hook: both told */
    d.want[EV_T_ALL] = REC;
    add(&d, &tc_ops);
    memset(&d.more, 0, sizeof d.more);
    d.more.counts = tc_counts;
    dispatch_set_hooks(td, d.c, &d.more);
    CHECK(dispatch_counted(td, &limit) == NULL); /* (to be made again) */
    CHECK_EQ_INT(flush_counting(), 1);
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 5);
    CHECK(log_is("c:6x3 d:6x3 c:7x2 "));

    /* one without it told of event 7: the events before it are taken */
    h.want[EV_T_PING] = STOP;
    dispatch_changed(td);
    CHECK_EQ_INT(flush_counting(), 1);
    counted = dispatch_counted(td, &limit);
    CHECK(counted != NULL && counted[EV_T_ALL] && !counted[EV_T_PING]);
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 3);
    CHECK(log_is("c:6x3 d:6x3 "));
    h.want[EV_T_PING] = 0;
    dispatch_changed(td);

    /* wishes changed while told: the rest are not taken */
    CHECK_EQ_INT(flush_counting(), 1);
    d.want[EV_T_PING] = 0;
    d.act = act_want_ping;
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 3);
    CHECK(log_is("c:6x3 d:6x3 "));
    d.act = NULL;
    CHECK_EQ_INT(d.want[EV_T_PING], REC);
    /* (taken up at once, after the delivery) */
    CHECK(dispatch_counted(td, &limit) != NULL);
    CHECK_EQ_INT(dispatch_counts(td, evs + 3, 2), 2);
    CHECK(log_is("c:7x2 d:7x2 "));

    /* nobody told of them: taken, nobody told */
    dispatch_enable(td, c.c, 0);
    dispatch_enable(td, d.c, 0);
    CHECK_EQ_INT(flush_counting(), 1);
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 5);
    CHECK(log_is(""));
    /* told of every event, without the hook: off */
    for (int i = 0; i < NCODES; i++)
        h.want[i] = REC;
    dispatch_changed(td);
    CHECK_EQ_INT(flush_counting(), 0);
    CHECK(dispatch_counted(td, &limit) == NULL);
    CHECK_EQ_INT(dispatch_counts(td, evs, 5), 0);
    CHECK(log_is(""));
    CHECK_EQ_INT(c.counted, 3 + 2 + 3 + 2 + 3 + 3 + 2);
    CHECK_EQ_INT(d.counted, 3 + 3 + 3 + 2);
    end();
    registry_free(reg);
}

/* The first consumer to stop the program names the stop. */
static void test_stop(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"};
    struct dispatch_event de;
    struct reader_item it;
    char *where;

    memset(&de, 0, sizeof de);
    dispatch_stop(&de, xstrdup("first"));
    dispatch_stop(&de, xstrdup("second"));
    dispatch_stop(&de, NULL);
    CHECK(de.stop);
    CHECK(de.where != NULL && strcmp(de.where, "first") == 0);
    free(de.where);

    begin(&s, reg);
    a.want[EV_T_ALL] = STOP;
    b.want[EV_T_ALL] = STOP;
    add(&a, &tc_ops);
    add(&b, &tc_ops);
    it = event_item(EV_T_ALL, 1);

    a.stop = "a here";
    b.stop = "b here";
    where = NULL;
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 1);
    CHECK(where != NULL && strcmp(where, "a here") == 0);
    free(where);

    a.stop = NULL;
    where = NULL;
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 1);
    CHECK(where != NULL && strcmp(where, "b here") == 0);
    free(where);

    /* a stop without a description */
    b.stop = NULL;
    b.stop_bare = 1;
    where = NULL;
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 1);
    CHECK(where != NULL && strcmp(where, "an event") == 0);
    free(where);

    /* nobody stops */
    b.stop_bare = 0;
    where = NULL;
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 0);
    CHECK(where == NULL);
    CHECK(log_is("a:6 b:6 a:6 b:6 a:6 b:6 a:6 b:6 "));
    end();
    registry_free(reg);
}

/* Actions of test_post(). */

/* How deep post_bounce() is, and was at most (set by test_post). */
static int post_depth, post_max_depth;

/* Post T's artificial event again, as T: two such consumers bounce it
 * between them until the nesting limit. */
static void post_bounce(struct tc *t, const struct dispatch_post *p)
{
    struct dispatch_post q = {.name = p->name, .from = t->c};
    char *cause = NULL;
    int r;

    post_depth++;
    if (post_depth > post_max_depth)
        post_max_depth = post_depth;
    r = dispatch_post(td, &q, &cause);
    if (r < 0) {
        t->result++;
        CHECK(cause != NULL);
        if (t->cause == NULL && cause != NULL)
            t->cause = cause;
        else
            free(cause);
    } else {
        CHECK_EQ_INT(r, 1);
        CHECK(cause == NULL);
    }
    post_depth--;
}

/* Change a wish and ask for the flush: nothing is written until the post
 * is over. */
static void post_rewish(struct tc *t, const struct dispatch_post *p)
{
    (void)p;
    t->seen_writes = ts->nwrites;
    t->want[EV_T_PING] = REC;
    dispatch_changed(td);
    dispatch_flush(td);
    CHECK_EQ_INT(ts->nwrites, t->seen_writes);
    dispatch_enable(td, t->peer->c, 0);
    t->post_act = NULL;
}

static void post_enable_peer(struct tc *t, const struct dispatch_post *p)
{
    (void)p;
    dispatch_enable(td, t->peer->c, 1);
    t->post_act = NULL;
}

static void post_remove_self(struct tc *t, const struct dispatch_post *p)
{
    (void)p;
    dispatch_remove(td, t->c);
    t->c = NULL;
}

/* Change a wish and post "ping" from inside a delivery. */
static void act_post(struct tc *t, struct dispatch_event *de)
{
    struct dispatch_post q = {.name = "ping", .from = t->c};
    char *cause = NULL;

    (void)de;
    t->seen_writes = ts->nwrites;
    t->want[EV_U_PING] = REC;
    dispatch_changed(td);
    t->result = dispatch_post(td, &q, &cause);
    CHECK(cause == NULL);
    free(cause);
    /* (the flush after the post waits for the delivery) */
    CHECK_EQ_INT(ts->nwrites, t->seen_writes);
}

/* Artificial events go to the enabled consumers that want them, not to
 * the one that posts them; they nest, but not without end. */
static void test_post(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc p1 = {.name = "p1", .post_name = "ping"},
              p2 = {.name = "p2", .post_name = "ping"},
              p3 = {.name = "p3", .post_name = "other"},
              p4 = {.name = "p4", .post_name = "ping"},
              p5 = {.name = "p5", .post_name = "ping"},
              l1 = {.name = "l1", .post_name = "loop"},
              l2 = {.name = "l2", .post_name = "loop"}, a = {.name = "a"};
    const char *argv[] = {"x", "y"};
    struct dispatch_post p = {.name = "ping", .argc = 2, .argv = argv};
    char *cause = NULL;
    unsigned int writes;

    begin(&s, reg);
    add(&p1, &tc_ops);
    give_more(&p1, 0, 1, 0);
    add(&p2, &tc_ops);
    give_more(&p2, 0, 1, 0);
    add(&p3, &tc_ops);
    give_more(&p3, 0, 1, 0);
    add(&p4, &tc_ops);
    give_more(&p4, 0, 1, 0);
    dispatch_enable(td, p4.c, 0);
    add(&p5, &tc_ops); /* wants "ping" but has no post hooks */
    dispatch_flush(td);
    writes = s.nwrites;

    /* the sender is not told */
    p.from = p1.c;
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 1);
    CHECK(log_is("p2!ping "));
    CHECK_EQ_INT(p2.post_argc, 2);
    CHECK(p2.post_arg0 == argv[0]);
    /* posted by the user: every one that wants it, in order */
    p.from = NULL;
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 2);
    CHECK(log_is("p1!ping p2!ping "));
    p.name = "other";
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 1);
    CHECK(log_is("p3!other "));
    p.name = "nobody";
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 0);
    CHECK(log_is(""));
    CHECK(cause == NULL);
    /* (nothing changed: nothing written) */
    CHECK_EQ_INT(s.nwrites, writes);
    /* p4, enabled by p1 while the post is delivered, is told of the next */
    p1.post_act = post_enable_peer;
    p1.peer = &p4;
    p.name = "ping";
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 2);
    CHECK(log_is("p1!ping p2!ping "));
    CHECK(dispatch_enabled(p4.c));
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 3);
    CHECK(log_is("p1!ping p2!ping p4!ping "));

    /* changes made while it is posted are taken up after it */
    p1.post_act = post_rewish;
    p1.peer = &p2;
    writes = s.nwrites;
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 2);
    /* (p2, disabled by p1 before its turn, was not told) */
    CHECK(log_is("p1!ping p4!ping "));
    CHECK_EQ_INT(p1.seen_writes, writes);
    CHECK_EQ_INT(s.nwrites, writes + 10);
    CHECK_EQ_INT(s.state[EV_T_PING], REC);
    dispatch_enable(td, p2.c, 1);

    /* a consumer removed while it is told */
    p4.post_act = post_remove_self;
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 3);
    CHECK(log_is("p1!ping p2!ping p4!ping "));
    CHECK(p4.c == NULL);
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 2);
    CHECK(log_is("p1!ping p2!ping "));

    /* posted from inside a delivery: told now */
    a.want[EV_T_ALL] = REC;
    a.act = act_post;
    add(&a, &tc_ops);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK_EQ_INT(a.result, 2);
    CHECK(log_is("a:6 p1!ping p2!ping "));
    CHECK_EQ_INT(s.state[EV_U_PING], REC);
    a.act = NULL;

    /* two consumers that post to each other: stopped at the limit */
    add(&l1, &tc_ops);
    give_more(&l1, 0, 1, 0);
    l1.post_act = post_bounce;
    add(&l2, &tc_ops);
    give_more(&l2, 0, 1, 0);
    l2.post_act = post_bounce;
    told_log[0] = '\0';
    p.name = "loop";
    p.from = l2.c;
    p.argc = 0;
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 1);
    CHECK(cause == NULL);
    CHECK_EQ_INT(l1.posted + l2.posted, 16);
    CHECK_EQ_INT(post_max_depth, 16);
    CHECK_EQ_INT(l1.result + l2.result, 1);
    CHECK(l2.cause != NULL && strstr(l2.cause, "\"loop\"") != NULL &&
          strstr(l2.cause, "16") != NULL);
    free(l1.cause);
    free(l2.cause);
    told_log[0] = '\0';
    /* and posts work as before */
    p.name = "ping";
    p.from = NULL;
    CHECK_EQ_INT(dispatch_post(td, &p, &cause), 2);
    CHECK(log_is("p1!ping p2!ping "));
    CHECK(cause == NULL);
    end();
    registry_free(reg);
}

/* A program of LEN bytes for a clause (the dispatcher does not read it:
 * the channel checks it). */
static const unsigned char prog[16] = {DAPTO_FOP_END};

/* Give T clause number I on CODE: BITS, TAG, hit counting EVERY. */
static void clause(struct tc *t, unsigned int code, unsigned int i,
                   unsigned char bits, unsigned int tag, uint32_t every)
{
    t->cl_code = code;
    t->cl[i].prog = prog;
    t->cl[i].len = 1 + i;
    t->cl[i].bits = bits;
    t->cl[i].tag = tag;
    t->cl[i].every = every;
    if (i + 1 > t->ncl)
        t->ncl = i + 1;
}

/* The event CODE as the program sends it after its filter: FILTERED,
 * with the clauses of MASK fired. */
static struct reader_item filtered_item(unsigned int code, uint32_t mask)
{
    struct reader_item it = event_item(code, 0);

    it.filtered = 1;
    it.clauses = mask;
    return it;
}

/* Conditions placed as clauses of filters: the state, the filter written,
 * the clauses' slots, delivery by the clauses that fired, and every way
 * back to consumers deciding themselves. */
static void test_filters(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"},
              big = {.name = "big"}, big2 = {.name = "big2"};
    uint64_t checked, passed, c1, c2;
    unsigned int i;

    begin(&s, reg);
    a.want[EV_T_ALL] = REC | STOP;
    clause(&a, EV_T_ALL, 0, REC | STOP, 1, 0);
    clause(&a, EV_T_ALL, 1, REC | STOP, 2, 3);
    b.want[EV_T_ALL] = REC;
    add(&a, &cond_ops);
    add(&b, &tc_ops);

    /* a program without filters: the clauses are not even asked for,
     * every consumer is told and decides */
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_T_ALL], REC | STOP);
    CHECK_EQ_INT(s.filter_writes[EV_T_ALL], 0);
    CHECK(!dispatch_filters(td, NULL));
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 b:6 "));
    CHECK_EQ_INT(a.placed, 0);
    CHECK(dispatch_clause_counts(td, a.c, ev(EV_T_ALL), 1, &checked,
                                 &passed) == -1);

    /* with filters: the clauses in the filter, the unconditional bits
     * in the state with FILTER */
    s.filters = 1;
    dispatch_changed(td);
    dispatch_flush(td);
    CHECK(dispatch_filters(td, NULL));
    CHECK_EQ_INT(s.state[EV_T_ALL], REC | DAPTO_STATE_FILTER);
    CHECK_EQ_INT(s.filter_writes[EV_T_ALL], 1);
    CHECK_EQ_INT(s.nfilter[EV_T_ALL], 2);
    CHECK_EQ_INT(s.uncond[EV_T_ALL], REC);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][0], REC | STOP);
    CHECK_EQ_INT(s.cprog[EV_T_ALL][0], 1);
    CHECK_EQ_INT(s.cprog[EV_T_ALL][1], 2);
    /* other events have no filter */
    CHECK_EQ_INT(s.filter_writes[EV_T_PING], 0);
    CHECK(!(s.state[EV_T_PING] & DAPTO_STATE_FILTER));

    /* the clauses that fired decide who is told */
    deliver_item(filtered_item(EV_T_ALL, 0x2));
    CHECK(log_is("a:6 b:6 "));
    CHECK_EQ_INT(a.placed, 0x3);
    CHECK_EQ_INT(a.held, 0x2);
    CHECK_EQ_INT(b.placed, 0);
    deliver_item(filtered_item(EV_T_ALL, 0x0));
    CHECK(log_is("b:6 "));
    deliver_item(filtered_item(EV_T_ALL, 0x3));
    CHECK(log_is("a:6 b:6 "));
    CHECK_EQ_INT(a.held, 0x3);
    /* written before the filter: told, the consumer decides */
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("a:6 b:6 "));
    CHECK_EQ_INT(a.placed, 0);

    /* the program's counts, each clause its own counters */
    CHECK(dispatch_clause_counts(td, a.c, ev(EV_T_ALL), 1, &c1, &passed) ==
          0);
    CHECK(dispatch_clause_counts(td, a.c, ev(EV_T_ALL), 2, &c2, &passed) ==
          0);
    CHECK(c1 >= 1000 && c2 >= 1000 && c1 != c2);
    CHECK(dispatch_clause_counts(td, a.c, ev(EV_T_ALL), 9, &checked,
                                 &passed) == -1);
    CHECK(dispatch_clause_counts(td, b.c, ev(EV_T_ALL), 1, &checked,
                                 &passed) == -1);
    CHECK(dispatch_event_counts(td, ev(EV_T_ALL), &checked, &passed) == 0);
    CHECK(checked != c1 && checked != c2 && checked != passed);
    CHECK(dispatch_event_counts(td, ev(EV_T_PING), &checked, &passed) == -1);

    /* a clause that goes keeps its slot empty, so that records evaluated
     * with the old filter still name the right clauses */
    a.cl[0] = a.cl[1];
    a.ncl = 1;
    dispatch_changed(td);
    dispatch_flush(td);
    CHECK_EQ_INT(s.nfilter[EV_T_ALL], 2);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][0], REC);     /* never holds */
    CHECK_EQ_INT(s.cprog[EV_T_ALL][0], 10);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][1], REC | STOP);
    deliver_item(filtered_item(EV_T_ALL, 0x2));
    CHECK(log_is("a:6 b:6 "));
    CHECK_EQ_INT(a.placed, 0x1);
    CHECK_EQ_INT(a.held, 0x1);
    deliver_item(filtered_item(EV_T_ALL, 0x1));
    CHECK(log_is("b:6 "));
    /* its counts stay with it */
    CHECK(dispatch_clause_counts(td, a.c, ev(EV_T_ALL), 2, &checked,
                                 &passed) == 0);
    CHECK_EQ_INT(checked, c2);

    /* a new clause takes a slot never used before, not the empty one */
    c.want[EV_T_ALL] = REC;
    clause(&c, EV_T_ALL, 0, REC, 7, 0);
    add(&c, &cond_ops);
    dispatch_flush(td);
    CHECK_EQ_INT(s.nfilter[EV_T_ALL], 3);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][2], REC);
    deliver_item(filtered_item(EV_T_ALL, 0x4));
    CHECK(log_is("b:6 c:6 "));
    CHECK_EQ_INT(c.placed, 0x1);
    CHECK_EQ_INT(c.held, 0x1);

    /* a consumer removed: its slot may be taken again once the others
     * are used; here the filter keeps the rest where they were */
    dispatch_remove(td, a.c);
    dispatch_flush(td);
    CHECK_EQ_INT(s.nfilter[EV_T_ALL], 3);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][0], REC); /* both empty: never hold */
    CHECK_EQ_INT(s.cprog[EV_T_ALL][0], 10);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][1], REC);
    CHECK_EQ_INT(s.cprog[EV_T_ALL][1], 10);
    CHECK_EQ_INT(s.cbits[EV_T_ALL][2], REC);

    /* more clauses than a filter holds: the first consumer's 8 fit, 4 of
     * the second's; its other 4 are its own to evaluate, so it is told
     * of every event */
    big.want[EV_U_ALL] = STOP;
    big2.want[EV_U_ALL] = REC;
    for (i = 0; i < 8; i++) {
        clause(&big, EV_U_ALL, i, STOP, 100 + i, 0);
        clause(&big2, EV_U_ALL, i, REC, 200 + i, 0);
    }
    add(&big, &cond_ops);
    add(&big2, &cond_ops);
    dispatch_flush(td);
    CHECK_EQ_INT(s.nfilter[EV_U_ALL], DAPTO_FILTER_CLAUSES);
    CHECK_EQ_INT(s.uncond[EV_U_ALL], REC);
    CHECK_EQ_INT(s.state[EV_U_ALL], REC | DAPTO_STATE_FILTER);
    CHECK_EQ_INT(s.cbits[EV_U_ALL][7], STOP);
    CHECK_EQ_INT(s.cbits[EV_U_ALL][8], REC);
    deliver_item(filtered_item(EV_U_ALL, 0));
    CHECK(log_is("big2:10 "));
    CHECK_EQ_INT(big2.placed, 0xf);
    CHECK_EQ_INT(big2.held, 0);
    deliver_item(filtered_item(EV_U_ALL, 0x480));
    CHECK(log_is("big:10 big2:10 "));
    CHECK_EQ_INT(big.placed, 0xff);
    CHECK_EQ_INT(big.held, 0x80);
    CHECK_EQ_INT(big2.held, 0x4);
    /* one consumer alone may not give more than DISPATCH_CLAUSES: the
     * rest it folds into its unconditional bits */
    dispatch_remove(td, big2.c);
    for (i = 0; i < DISPATCH_CLAUSES + 2; i++)
        clause(&big, EV_U_ALL, i, STOP, 100 + i, 0);
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_U_ALL], STOP | DAPTO_STATE_FILTER);
    deliver_item(filtered_item(EV_U_ALL, 0));
    CHECK(log_is("big:10 "));

    /* the condition's consumer wants nothing unconditionally and no
     * clause: it is not told */
    big.ncl = 0;
    big.want[EV_U_ALL] = 0;
    dispatch_changed(td);
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_U_ALL], 0);
    CHECK(s.clears[EV_U_ALL] >= 1);
    deliver_item(filtered_item(EV_U_ALL, 0xfff));
    CHECK(log_is(""));

    /* a filter that cannot be written: every consumer is told, the
     * clauses' bits go into the state unconditionally */
    s.refuse_filter = 1;
    dispatch_changed(td);
    dispatch_flush(td);
    CHECK_EQ_INT(s.state[EV_T_ALL], REC);
    deliver_item(event_item(EV_T_ALL, 0));
    CHECK(log_is("b:6 c:6 "));
    CHECK_EQ_INT(c.placed, 0);
    s.refuse_filter = 0;

    /* a new run: new region, no filters, no counts until written again */
    deliver_item(other_item(READER_HELLO));
    CHECK(dispatch_event_counts(td, ev(EV_T_ALL), &checked, &passed) == -1);
    dispatch_flush(td);
    CHECK(s.state[EV_T_ALL] & DAPTO_STATE_FILTER);
    CHECK(dispatch_event_counts(td, ev(EV_T_ALL), &checked, &passed) == 0);
    end();
    registry_free(reg);
}

/* <design#checkpoints> A consumer that keeps a state: a count, saved and
 * restored by the checkpoints. */
static void *q_save(void *arg, size_t *bytes)
{
    struct tc *t = arg;
    unsigned int *v = xmalloc(sizeof *v);

    *v = t->told;
    *bytes = sizeof *v;
    return v;
}

static void q_restore(void *arg, const void *saved)
{
    struct tc *t = arg;

    t->told = saved != NULL ? *(const unsigned int *)saved : 0;
}

static void q_release(void *arg, void *saved)
{
    (void)arg;
    free(saved);
}

static const struct ckpt_ops q_state = {q_save, q_restore, q_release};

static const struct consumer_ops state_ops = {
    .name = "state",
    .want = tc_want,
    .deliver = tc_deliver,
    .notice = tc_notice,
    .state = &q_state,
};

/* A replay's move (dispatch_quiet): only the consumers that keep a state
 * (participants of the checkpoints) and are not absent from the one
 * restored are told, of items, function records and counted events
 * alike; the codes they want are what a move reads; turning a consumer
 * on or off, or forgetting it, lets go of what the checkpoints hold of
 * it. */
static void test_quiet(void)
{
    struct registry *reg = make_registry(1);
    struct session s;
    struct tc a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"};
    struct reader_fn fns[2];
    struct reader_ev evs[2];
    char *where = NULL;
    uint64_t mask;
    struct reader_item it;

    memset(fns, 0, sizeof fns);
    begin(&s, reg);
    s.ckpts = ckpts_create(1 << 20);
    dispatch_free(td);
    td = dispatch_create(&s); /* (again: with the checkpoints) */
    a.want[EV_T_ALL] = REC;
    a.want[EV_ENTER] = REC;
    a.want[EV_LEAVE] = REC;
    add(&a, &state_ops);
    give_more(&a, 1, 0, 0);
    b.want[EV_T_ALL] = STOP;
    b.want[EV_U_PING] = REC;
    b.stop = "b";
    add(&b, &tc_ops);
    c.want[EV_U_ALL] = REC;
    add(&c, &state_ops);
    memset(&c.more, 0, sizeof c.more);
    c.more.counts = tc_counts;
    dispatch_set_hooks(td, c.c, &c.more);
    dispatch_flush(td);

    /* not quiet: everyone */
    it = event_item(EV_T_ALL, 1);
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 1);
    free(where);
    where = NULL;
    CHECK(log_is("a:6 b:6 "));
    CHECK(dispatch_told(td, b.c));

    /* quiet: the participants only; what they want */
    mask = dispatch_quiet(td, 1);
    CHECK(mask & READER_ITEMS_BIT);
    CHECK(mask & reader_code_bit(EV_T_ALL));
    CHECK(mask & reader_code_bit(EV_ENTER));
    CHECK(mask & reader_code_bit(EV_U_ALL));
    CHECK(!(mask & reader_code_bit(EV_U_PING))); /* b's alone */
    CHECK(!(mask & reader_code_bit(EV_T_PING)));
    CHECK(!dispatch_told(td, b.c));
    CHECK(dispatch_told(td, a.c));
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 0);
    free(where);
    where = NULL;
    CHECK(log_is("a:6 "));
    dispatch_changed(td);
    CHECK_EQ_INT(flush_direct(), 1);
    CHECK_EQ_INT(dispatch_functions(td, fns, 2), 2);
    CHECK(log_is("a:fn2 "));
    for (int i = 0; i < 2; i++) {
        evs[i].event = registry_event(reg, EV_U_ALL);
        evs[i].tid = 42;
        evs[i].ns = i;
    }
    dispatch_changed(td);
    CHECK_EQ_INT(flush_counting(), 1);
    CHECK_EQ_INT(dispatch_counts(td, evs, 2), 2);
    CHECK(log_is("c:10x2 "));

    /* a participant absent from the checkpoint restored: told nothing */
    ckpts_take(s.ckpts, 0);
    dispatch_forget(td, c.c);
    ckpts_restore(s.ckpts, 0);
    CHECK(!dispatch_told(td, c.c));
    CHECK(dispatch_told(td, a.c));
    mask = dispatch_quiet(td, 1);
    CHECK(!(mask & reader_code_bit(EV_U_ALL)));
    CHECK_EQ_INT(dispatch_counts(td, evs, 2), 2);
    CHECK(log_is(""));
    ckpts_settle(s.ckpts);
    CHECK_EQ_INT(dispatch_counts(td, evs, 2), 2);
    CHECK(log_is("c:10x2 "));
    /* turned off and on: forgotten too */
    a.told = 5;
    ckpts_take(s.ckpts, 10);
    dispatch_enable(td, a.c, 0);
    dispatch_enable(td, a.c, 1);
    ckpts_restore(s.ckpts, 10);
    CHECK(!dispatch_told(td, a.c));
    CHECK_EQ_INT(a.told, 0);
    ckpts_settle(s.ckpts);

    /* loud again: everyone */
    dispatch_quiet(td, 0);
    CHECK(dispatch_told(td, b.c));
    CHECK_EQ_INT(dispatch_item(td, &it, &where), 1);
    free(where);
    CHECK(log_is("a:6 b:6 "));
    end();
    ckpts_free(s.ckpts);
    registry_free(reg);
}

int main(void)
{
    test_quiet();
    test_states();
    test_delivery();
    test_changes();
    test_runs();
    test_direct();
    test_counts();
    test_stop();
    test_post();
    test_filters();
    test_processes();
    return unit_done("dispatch-test");
}
