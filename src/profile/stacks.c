/* SPDX-License-Identifier: MIT */
/*
 * stacks.c - per-thread component stacks.  See stacks.h.
 *
 * Threads are found through a small hash of thread ids; component names
 * through the calling-context tree's name table, with a cache by string
 * address for names whose address is stable during a run (the reader's
 * interned names and the dispatcher's function names), fronted by a
 * direct-mapped table of the names found last, so that the hot path of an
 * interned enter (the thread seen last, a name found there) probes no
 * hash.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "dapto.h"
#include "dispatch.h"
#include "probes.h"
#include "session.h"
#include "sink.h"
#include "reader.h"
#include "stacks.h"
#include "symnames.h"
#include "xmalloc.h"

#define STACKS_EMPTY UINT32_MAX
/* Names by the string's address looked up without the hash, direct
 * mapped (a front of the address cache). */
#define STACKS_NEAR 256
/* Changes kept for the watchers before they are told. */
#define STACKS_PENDING 512
/* Distinct mismatches reported before the stacks stop telling. */
#define STACKS_MAX_CASES 64

struct frame {
    uint32_t node;
    uint32_t name; /* the node's name, at hand for leaves */
    int64_t ns;
    /* the child last pushed on this frame, by name (a loop calling the
     * same function again finds it here) */
    uint32_t child_name;
    uint32_t child;
};

struct tstack {
    pid_t tid;
    struct frame *f;
    size_t n, cap;
    uint32_t top_name, top; /* the same for the empty stack */
};

struct listener {
    stacks_listener fn;
    void *arg;
};

struct watcher {
    stacks_watcher fn;
    void *arg;
};

struct ptrname {
    const char *p;
    uint32_t name;
};

/* The name of a function by its address (STACKS_EMPTY: excluded). */
struct fnname {
    uint64_t addr;
    uint32_t name;
    uint32_t used;
};

struct mcase {
    uint32_t leave, top; /* top: STACKS_EMPTY for an empty stack */
};

struct stacks {
    struct session *session;   /* NULL in unit tests */
    struct dispatch *dispatch;
    struct sink *say;
    struct consumer *consumer;
    struct cct *cct;
    int users;
    int partial; /* taken into use while the program ran */

    struct tstack *threads;
    size_t nthreads, threads_cap;
    uint32_t *tid_slots; /* thread indexes by tid */
    size_t tid_mask;
    size_t last;         /* index of the thread seen last */

    struct ptrname *ptrs; /* name numbers by stable address */
    size_t ptr_mask, nptrs;
    struct ptrname near[STACKS_NEAR]; /* the last found at each slot */

    struct fnname *fns; /* name numbers by function address, for */
    size_t fn_mask, nfns; /* symnames stamp fn_stamp */
    uint64_t fn_stamp;
    struct fnname fn_last; /* the last one found */

    struct listener *listeners;
    size_t nlisteners;
    struct watcher *watchers;
    size_t nwatchers;
    struct stacks_change pending[STACKS_PENDING];
    size_t npending;

    struct mcase *cases;
    size_t ncases, cases_cap;

    const struct registry_aspect *builtin; /* recognised in this run */
};

static size_t hash_word(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    return (size_t)x;
}

/* --- threads ------------------------------------------------------------ */

static void tids_rehash(struct stacks *st, size_t mask)
{
    size_t i, j;

    free(st->tid_slots);
    st->tid_slots = xreallocarray(NULL, mask + 1, sizeof *st->tid_slots);
    memset(st->tid_slots, 0xff, (mask + 1) * sizeof *st->tid_slots);
    st->tid_mask = mask;
    for (i = 0; i < st->nthreads; i++) {
        for (j = hash_word((uint64_t)st->threads[i].tid) & mask;
             st->tid_slots[j] != STACKS_EMPTY; j = (j + 1) & mask)
            ;
        st->tid_slots[j] = (uint32_t)i;
    }
}

/* thread() when TID is not the thread seen last. */
static struct tstack *thread_find(struct stacks *st, pid_t tid, int add)
{
    size_t j;
    uint32_t i;

    for (j = hash_word((uint64_t)tid) & st->tid_mask;
         (i = st->tid_slots[j]) != STACKS_EMPTY; j = (j + 1) & st->tid_mask) {
        if (st->threads[i].tid == tid) {
            st->last = i;
            return &st->threads[i];
        }
    }
    if (!add)
        return NULL;
    st->threads = xgrow(st->threads, st->nthreads, &st->threads_cap,
                        sizeof *st->threads);
    i = (uint32_t)st->nthreads++;
    memset(&st->threads[i], 0, sizeof st->threads[i]);
    st->threads[i].tid = tid;
    st->threads[i].top_name = STACKS_EMPTY;
    st->tid_slots[j] = i;
    if (st->nthreads * 2 > st->tid_mask)
        tids_rehash(st, st->tid_mask * 2 + 1);
    st->last = i;
    return &st->threads[i];
}

/* Thread TID's stack, or NULL (ADD: created when new). */
static inline struct tstack *thread(struct stacks *st, pid_t tid, int add)
{
    if (st->last < st->nthreads && st->threads[st->last].tid == tid)
        return &st->threads[st->last];
    if (st->nthreads == 0 && !add)
        return NULL;
    return thread_find(st, tid, add);
}

static const struct tstack *cthread(const struct stacks *st, pid_t tid)
{
    return thread((struct stacks *)st, tid, 0);
}

/* --- names -------------------------------------------------------------- */

static void ptrs_clear(struct stacks *st)
{
    memset(st->near, 0, sizeof st->near);
    free(st->ptrs);
    st->ptr_mask = 255;
    st->ptrs = xcalloc(st->ptr_mask + 1, sizeof *st->ptrs);
    st->nptrs = 0;
}

static void ptrs_add(struct stacks *st, const char *p, uint32_t name)
{
    size_t j;

    if ((st->nptrs + 1) * 2 > st->ptr_mask) {
        struct ptrname *old = st->ptrs;
        size_t oldn = st->ptr_mask + 1, i;

        st->ptr_mask = st->ptr_mask * 2 + 1;
        st->ptrs = xcalloc(st->ptr_mask + 1, sizeof *st->ptrs);
        for (i = 0; i < oldn; i++) {
            if (old[i].p == NULL)
                continue;
            for (j = hash_word((uintptr_t)old[i].p) & st->ptr_mask;
                 st->ptrs[j].p != NULL; j = (j + 1) & st->ptr_mask)
                ;
            st->ptrs[j] = old[i];
        }
        free(old);
    }
    for (j = hash_word((uintptr_t)p) & st->ptr_mask; st->ptrs[j].p != NULL;
         j = (j + 1) & st->ptr_mask)
        ;
    st->ptrs[j].p = p;
    st->ptrs[j].name = name;
    st->nptrs++;
}

/* The name number of S (stable at its address), through the address
 * cache. */
static uint32_t name_of_stable(struct stacks *st, const char *s, size_t len)
{
    uint32_t name;
    size_t j;

    for (j = hash_word((uintptr_t)s) & st->ptr_mask; st->ptrs[j].p != NULL;
         j = (j + 1) & st->ptr_mask) {
        if (st->ptrs[j].p == s)
            return st->ptrs[j].name;
    }
    name = cct_intern(st->cct, s, len);
    ptrs_add(st, s, name);
    return name;
}

/* The name number of S, through the address caches when STABLE. */
static inline uint32_t name_of(struct stacks *st, const char *s, size_t len,
                               int stable)
{
    struct ptrname *near;

    if (!stable)
        return cct_intern(st->cct, s, len);
    near = &st->near[((uintptr_t)s >> 4) % STACKS_NEAR];
    if (near->p != s) {
        near->name = name_of_stable(st, s, len);
        near->p = s;
    }
    return near->name;
}

static void fns_clear(struct stacks *st)
{
    st->fn_last.used = 0;
    free(st->fns);
    st->fn_mask = 1023;
    st->fns = xcalloc(st->fn_mask + 1, sizeof *st->fns);
    st->nfns = 0;
}

static void fns_grow(struct stacks *st)
{
    struct fnname *old = st->fns;
    size_t oldn = st->fn_mask + 1, i, j;

    st->fn_mask = st->fn_mask * 2 + 1;
    st->fns = xcalloc(st->fn_mask + 1, sizeof *st->fns);
    for (i = 0; i < oldn; i++) {
        if (!old[i].used)
            continue;
        for (j = hash_word(old[i].addr) & st->fn_mask; st->fns[j].used;
             j = (j + 1) & st->fn_mask)
            ;
        st->fns[j] = old[i];
    }
    free(old);
}

/* The name number of the function at ADDR (not in the cache; its slot
 * would be J), STACKS_EMPTY when excluded. */
static uint32_t fn_name_new(struct stacks *st, struct symnames *sn,
                            uint64_t addr, size_t j)
{
    const char *s;
    size_t len;
    uint32_t name;

    s = symnames_name(sn, addr, &len);
    /* the string stays at its address for every lookup of ADDR */
    name = s != NULL ? name_of(st, s, len, 1) : STACKS_EMPTY;
    st->fns[j].addr = addr;
    st->fns[j].name = name;
    st->fns[j].used = 1;
    if (++st->nfns * 2 > st->fn_mask)
        fns_grow(st);
    return name;
}

/* The name number of the function at ADDR, STACKS_EMPTY when excluded. */
static inline uint32_t fn_name(struct stacks *st, struct symnames *sn,
                               uint64_t addr)
{
    size_t j;

    if (st->fn_last.addr == addr && st->fn_last.used)
        return st->fn_last.name;
    for (j = hash_word(addr) & st->fn_mask; st->fns[j].used;
         j = (j + 1) & st->fn_mask) {
        if (st->fns[j].addr == addr) {
            st->fn_last = st->fns[j];
            return st->fns[j].name;
        }
    }
    return fn_name_new(st, sn, addr, j);
}

/* --- changes ------------------------------------------------------------ */

/* Tell the watchers the changes kept for them. */
static void flush(struct stacks *st)
{
    size_t i;

    for (i = 0; i < st->nwatchers && st->npending > 0; i++)
        st->watchers[i].fn(st->watchers[i].arg, st->pending, st->npending);
    st->npending = 0;
}

/* Tell the listeners, and keep a push or pop for the watchers, with
 * thread T's stack as it is now (NODE: its innermost). */
static inline void tell(struct stacks *st, int what, const struct tstack *t,
                        uint32_t node, uint32_t name, int64_t ns)
{
    struct stacks_change *c;
    size_t i;

    if (st->nlisteners > 0) {
        const char *text = cct_text(st->cct, name);

        for (i = 0; i < st->nlisteners; i++)
            st->listeners[i].fn(st->listeners[i].arg, what, t->tid, text, ns);
    }
    if (what == STACKS_MISMATCH || st->nwatchers == 0)
        return;
    if (st->npending == STACKS_PENDING)
        flush(st);
    c = &st->pending[st->npending++];
    c->ns = ns;
    c->tid = t->tid;
    c->node = node;
    c->what = what;
}

static inline void push(struct stacks *st, struct tstack *t, uint32_t name,
                        int64_t ns)
{
    uint32_t *memo_name, *memo, node;
    struct frame *f;

    if (t->n == t->cap)
        t->f = xgrow(t->f, t->n, &t->cap, sizeof *t->f);
    if (t->n > 0) {
        f = &t->f[t->n - 1];
        memo_name = &f->child_name;
        memo = &f->child;
        node = f->node;
    } else {
        memo_name = &t->top_name;
        memo = &t->top;
        node = CCT_ROOT;
    }
    if (*memo_name != name) {
        *memo = cct_child(st->cct, node, name);
        *memo_name = name;
    }
    f = &t->f[t->n++];
    f->node = *memo;
    f->name = name;
    f->ns = ns;
    f->child_name = STACKS_EMPTY;
    tell(st, STACKS_PUSH, t, f->node, name, ns);
}

static inline void pop(struct stacks *st, struct tstack *t, int64_t ns)
{
    uint32_t name = t->f[t->n - 1].name;

    t->n--;
    tell(st, STACKS_POP, t, t->n > 0 ? t->f[t->n - 1].node : CCT_ROOT, name,
         ns);
}

/* Report a leave of LEAVE over TOP (STACKS_EMPTY: an empty stack) once
 * per distinct case. */
static void report(struct stacks *st, pid_t tid, uint32_t leave, uint32_t top)
{
    size_t i;

    for (i = 0; i < st->ncases; i++) {
        if (st->cases[i].leave == leave && st->cases[i].top == top)
            return;
    }
    if (st->ncases > STACKS_MAX_CASES)
        return;
    st->cases = xgrow(st->cases, st->ncases, &st->cases_cap,
                      sizeof *st->cases);
    st->cases[st->ncases].leave = leave;
    st->cases[st->ncases].top = top;
    st->ncases++;
    if (st->say == NULL)
        return;
    sink_fresh_line(st->say);
    if (st->ncases > STACKS_MAX_CASES)
        sink_say(st->say, "warning: more leaves do not match their enters; "
                           "they are no longer reported\n");
    else if (top == STACKS_EMPTY)
        sink_sayf(st->say, "warning: leave \"%s\" without an enter "
                    "(thread %d)\n", cct_text(st->cct, leave), (int)tid);
    else
        sink_sayf(st->say, "warning: leave \"%s\" does not match the "
                    "innermost enter \"%s\" (thread %d)\n",
                    cct_text(st->cct, leave), cct_text(st->cct, top),
                    (int)tid);
}

/* A leave of NAME that does not match the innermost enter of T. */
static void leave_mismatch(struct stacks *st, struct tstack *t, uint32_t name,
                           int64_t ns)
{
    uint32_t top;
    size_t k;

    if (t->n == 0) {
        if (!st->partial)
            report(st, t->tid, name, STACKS_EMPTY);
        return;
    }
    top = t->f[t->n - 1].name;
    for (k = t->n - 1; k > 0; k--) {
        if (t->f[k - 1].name == name)
            break;
    }
    if (k == 0) {
        /* no frame of that name: an enter from before we looked, or a
         * stray leave */
        if (!st->partial)
            report(st, t->tid, name, top);
        return;
    }
    report(st, t->tid, name, top);
    tell(st, STACKS_MISMATCH, t, t->f[t->n - 1].node, name, ns);
    while (t->n >= k)
        pop(st, t, ns);
}

static inline void leave(struct stacks *st, struct tstack *t, uint32_t name,
                         int64_t ns)
{
    if (t->n > 0 && t->f[t->n - 1].name == name)
        pop(st, t, ns);
    else
        leave_mismatch(st, t, name, ns);
}

static void enter_name(struct stacks *st, pid_t tid, uint32_t name, int64_t ns)
{
    push(st, thread(st, tid, 1), name, ns);
}

static void leave_name(struct stacks *st, pid_t tid, uint32_t name, int64_t ns)
{
    leave(st, thread(st, tid, 1), name, ns);
}

void stacks_enter(struct stacks *st, pid_t tid, const char *name, size_t len,
                  int64_t ns)
{
    enter_name(st, tid, name_of(st, name, len, 0), ns);
    flush(st);
}

void stacks_leave(struct stacks *st, pid_t tid, const char *name, size_t len,
                  int64_t ns)
{
    leave_name(st, tid, name_of(st, name, len, 0), ns);
    flush(st);
}

void stacks_functions(struct stacks *st, struct symnames *sn,
                      const struct reader_fn *fns, size_t n)
{
    struct tstack *t = NULL;
    size_t i;

    if (st->users == 0)
        return;
    if (symnames_stamp(sn) != st->fn_stamp) {
        fns_clear(st);
        st->fn_stamp = symnames_stamp(sn);
    }
    for (i = 0; i < n; i++) {
        const struct reader_fn *f = &fns[i];
        uint32_t name = f->name == NULL ? fn_name(st, sn, f->function)
                                        : name_of(st, f->name, f->len, 1);

        if (name == STACKS_EMPTY)
            continue;
        /* (thread() may move every stack when it adds one) */
        if (t == NULL || t->tid != f->tid)
            t = thread(st, f->tid, 1);
        if (f->enter)
            push(st, t, name, f->ns);
        else
            leave(st, t, name, f->ns);
    }
    flush(st);
}

/* --- the consumer --------------------------------------------------------- */

/* Whether EV is the built-in enter (1) or leave (2); else 0.  The
 * built-in aspect, once recognised, is remembered for the run. */
static int builtin_kind(struct stacks *st, const struct registry_event *ev)
{
    /* a probe that enters or leaves a component <design#probes> */
    if (ev->role != 0)
        return ev->role == REGISTRY_ROLE_ENTER ? 1 : 2;
    if (ev->aspect == NULL || ev->aspect->event_base != 0 ||
        ev->code > DAPTO_EV_LEAVE)
        return 0;
    if (ev->aspect != st->builtin) {
        if (strcmp(ev->aspect->name, "dapto") != 0 || ev->nparams != 1)
            return 0;
        st->builtin = ev->aspect;
    }
    if (ev->code == DAPTO_EV_ENTER)
        return 1;
    if (ev->code == DAPTO_EV_LEAVE)
        return 2;
    return 0;
}

static unsigned char want(void *arg, const struct registry_event *ev)
{
    struct stacks *st = arg;

    return st->users > 0 && builtin_kind(st, ev) ? DAPTO_STATE_RECORD : 0;
}

static void deliver(void *arg, struct dispatch_event *de)
{
    struct stacks *st = arg;
    const struct reader_item *item = de->item;
    const struct decode_value *v;
    int kind = builtin_kind(st, de->event);
    uint32_t name;

    if (kind == 0 || st->users == 0)
        return;
    if (de->event->role != 0) {
        /* the component its arguments name */
        char buf[512];
        size_t len = probe_component_name(item, buf, sizeof buf);

        name = name_of(st, buf, len, 0);
        if (kind == 2) {
            /* a probe may leave what it never entered (CPython 3.11's
             * function__return fires for every frame, its entry only
             * for those entered from C): only the innermost is left */
            struct tstack *t = thread(st, item->tid, 1);

            if (t->n > 0 && t->f[t->n - 1].name == name) {
                pop(st, t, item->ns);
                flush(st);
            }
            return;
        }
    } else {
        if (item->nvalues < 1 || item->values[0].kind != DAPTO_K_STR)
            return;
        v = &item->values[0];
        name = name_of(st, v->s, v->len, v->interned);
    }
    if (kind == 1)
        enter_name(st, item->tid, name, item->ns);
    else
        leave_name(st, item->tid, name, item->ns);
    flush(st);
}

static void started(void *arg, const struct reader_item *hello)
{
    struct stacks *st = arg;

    (void)hello;
    stacks_clear(st);
    st->partial = 0;
    st->builtin = NULL;
}

static void functions(void *arg, const struct reader_fn *fns, unsigned int n)
{
    struct stacks *st = arg;

    stacks_functions(st, dispatch_symnames(st->dispatch), fns, n);
}

/* <design#checkpoints> The stacks saved: every thread's frames (the
 * calling-context tree only grows, so its nodes and names stay). */
struct saved_thread {
    pid_t tid;
    size_t n;
    struct frame *f;
};

struct saved_stacks {
    int partial;
    const struct registry_aspect *builtin;
    size_t nthreads;
    struct saved_thread *t;
};

static void *state_save(void *arg, size_t *bytes)
{
    struct stacks *st = arg;
    struct saved_stacks *s = xcalloc(1, sizeof *s);

    s->partial = st->partial;
    s->builtin = st->builtin;
    s->nthreads = st->nthreads;
    s->t = xcalloc(st->nthreads + 1, sizeof *s->t);
    *bytes = sizeof *s + (st->nthreads + 1) * sizeof *s->t;
    for (size_t i = 0; i < st->nthreads; i++) {
        const struct tstack *t = &st->threads[i];

        s->t[i].tid = t->tid;
        s->t[i].n = t->n;
        if (t->n > 0) {
            s->t[i].f = xreallocarray(NULL, t->n, sizeof *t->f);
            memcpy(s->t[i].f, t->f, t->n * sizeof *t->f);
            *bytes += t->n * sizeof *t->f;
        }
    }
    return s;
}

static void state_restore(void *arg, const void *saved)
{
    struct stacks *st = arg;
    const struct saved_stacks *s = saved;
    size_t told = st->ncases;

    stacks_clear(st);
    st->ncases = told; /* (what was said stays said) */
    if (s == NULL) {
        /* empty, and what was entered before is not known */
        st->partial = st->users > 0;
        return;
    }
    st->partial = s->partial;
    st->builtin = s->builtin;
    for (size_t i = 0; i < s->nthreads; i++) {
        struct tstack *t = thread(st, s->t[i].tid, 1);

        t->n = t->cap = s->t[i].n;
        t->f = NULL;
        if (t->n > 0) {
            t->f = xreallocarray(NULL, t->n, sizeof *t->f);
            memcpy(t->f, s->t[i].f, t->n * sizeof *t->f);
            /* (the memos of the children pushed last are found again) */
            for (size_t k = 0; k < t->n; k++)
                t->f[k].child_name = STACKS_EMPTY;
        }
        t->top_name = STACKS_EMPTY;
    }
}

static void state_release(void *arg, void *saved)
{
    struct saved_stacks *s = saved;

    (void)arg;
    for (size_t i = 0; i < s->nthreads; i++)
        free(s->t[i].f);
    free(s->t);
    free(s);
}

static const struct ckpt_ops stacks_state = {
    .save = state_save,
    .restore = state_restore,
    .release = state_release,
};

static const struct consumer_ops stacks_ops = {
    .name = "stacks",
    .want = want,
    .deliver = deliver,
    .state = &stacks_state,
};

static const struct consumer_hooks stacks_more = {
    .started = started,
    .functions = functions,
};

struct stacks *stacks_create(struct session *s, struct dispatch *d,
                             struct sink *say)
{
    struct stacks *st = xcalloc(1, sizeof *st);

    st->session = s;
    st->dispatch = d;
    st->say = say;
    st->cct = cct_create();
    tids_rehash(st, 15);
    ptrs_clear(st);
    fns_clear(st);
    if (d != NULL) {
        st->consumer = dispatch_add(d, &stacks_ops, st);
        dispatch_set_hooks(d, st->consumer, &stacks_more);
    }
    return st;
}

void stacks_free(struct stacks *st)
{
    size_t i;

    if (st == NULL)
        return;
    for (i = 0; i < st->nthreads; i++)
        free(st->threads[i].f);
    free(st->threads);
    free(st->tid_slots);
    free(st->ptrs);
    free(st->fns);
    free(st->listeners);
    free(st->watchers);
    free(st->cases);
    cct_free(st->cct);
    free(st);
}

void stacks_use(struct stacks *st, int on)
{
    if (on) {
        if (st->users++ == 0 && st->session != NULL &&
            session_state(st->session) != SESSION_IDLE)
            st->partial = 1;
    } else if (st->users > 0 && --st->users == 0) {
        stacks_clear(st);
    }
    if (st->consumer != NULL) {
        /* <design#checkpoints>: taken into use or out of it, the stacks
         * saved no longer tell where the play stands */
        if (on ? st->users == 1 : st->users == 0)
            dispatch_forget(st->dispatch, st->consumer);
        dispatch_changed(st->dispatch);
    }
}

int stacks_used(const struct stacks *st)
{
    return st->users > 0;
}

unsigned int stacks_depth(const struct stacks *st, pid_t tid)
{
    const struct tstack *t = cthread(st, tid);

    return t != NULL ? (unsigned int)t->n : 0;
}

const char *stacks_frame(const struct stacks *st, pid_t tid, unsigned int i,
                         int64_t *entered_ns)
{
    const struct tstack *t = cthread(st, tid);

    if (t == NULL || i >= t->n)
        return NULL;
    if (entered_ns != NULL)
        *entered_ns = t->f[i].ns;
    return cct_text(st->cct, t->f[i].name);
}

uint32_t stacks_context(const struct stacks *st, pid_t tid)
{
    const struct tstack *t = cthread(st, tid);

    return t != NULL && t->n > 0 ? t->f[t->n - 1].node : CCT_ROOT;
}

struct cct *stacks_cct(const struct stacks *st)
{
    return st->cct;
}

unsigned int stacks_nthreads(const struct stacks *st)
{
    return (unsigned int)st->nthreads;
}

pid_t stacks_thread(const struct stacks *st, unsigned int i)
{
    return i < st->nthreads ? st->threads[i].tid : 0;
}

void stacks_listen(struct stacks *st, stacks_listener fn, void *arg)
{
    st->listeners = xreallocarray(st->listeners, st->nlisteners + 1,
                                  sizeof *st->listeners);
    st->listeners[st->nlisteners].fn = fn;
    st->listeners[st->nlisteners].arg = arg;
    st->nlisteners++;
}

void stacks_watch(struct stacks *st, stacks_watcher fn, void *arg)
{
    st->watchers = xreallocarray(st->watchers, st->nwatchers + 1,
                                 sizeof *st->watchers);
    st->watchers[st->nwatchers].fn = fn;
    st->watchers[st->nwatchers].arg = arg;
    st->nwatchers++;
}

void stacks_unlisten(struct stacks *st, stacks_listener fn, void *arg)
{
    size_t i;

    for (i = 0; i < st->nlisteners; i++) {
        if (st->listeners[i].fn == fn && st->listeners[i].arg == arg) {
            memmove(&st->listeners[i], &st->listeners[i + 1],
                    (st->nlisteners - i - 1) * sizeof *st->listeners);
            st->nlisteners--;
            return;
        }
    }
}

void stacks_clear(struct stacks *st)
{
    size_t i;

    for (i = 0; i < st->nthreads; i++)
        free(st->threads[i].f);
    st->nthreads = 0;
    st->last = 0;
    tids_rehash(st, 15);
    ptrs_clear(st);
    fns_clear(st);
    st->ncases = 0;
}
