/* SPDX-License-Identifier: MIT */
/*
 * question.c - questions answered in the program <protocol#question>:
 * each question is a definition in the program's question area and one
 * or two clauses of a consumer of its events (the counted event, and the
 * start of a duration); answers are the threads' tables merged.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "cond.h"
#include "dapto.h"
#include "protocol.h"
#include "qarea.h"
#include "question.h"
#include "relate.h"
#include "xmalloc.h"

/* A clause program that always holds: the start of a duration, or a
 * question without a condition. */
static const unsigned char always[] = {DAPTO_FOP_CONST, 1, 0, 0, 0, 0, 0, 0, 0,
                                       DAPTO_FOP_END};

struct question {
    char *name;
    char *on, *from, *param, *keyparam[2], *cond;
    enum question_value value;
    unsigned int nkeys;          /* the user's keys */
    enum question_key key[2];
    int hist;
    uint32_t entries;
    unsigned char *prog;         /* NULL: always */
    size_t prog_len;
    unsigned int index;          /* in the question area */
    /* -within or -outside <design#relations>: the component (NULL:
     * none), the clause made with it for the current process, and why
     * the program cannot answer it there (static; NULL: it can) */
    char *within;
    int outside;
    unsigned char *wprog;
    const char *within_why;

    /* resolved against the interface of the process it was last
     * published to (each process's question area holds its own copy, its
     * qarea's def[index]: <design#processes>) */
    int nest;                    /* enter to leave: key 0 is the name */
    struct dapto_question def;

    struct question_answer kept; /* at the end of the last run */
    int has_kept;
    char *kept_where;            /* where it was answered then */
};

struct questions {
    struct session *session;
    struct dispatch *dispatch;
    struct sink *sink;
    struct consumer *consumer;
    struct question *q[QUESTION_MAX];
    unsigned int n;
    int no_print; /* do not print the answers at the end */
    struct relations *rel;
    /* the measurement window, and its events */
    enum question_window window;
    char *win_from, *win_to;
};

static struct question *find(const struct questions *qs, const char *name)
{
    unsigned int i;

    for (i = 0; i < qs->n; i++)
        if (strcmp(qs->q[i]->name, name) == 0)
            return qs->q[i];
    return NULL;
}

/* Parameter NAME of EV: its index, or -1. */
static int param_index(const struct registry_event *ev, const char *name)
{
    unsigned int i;

    for (i = 0; i < ev->nparams; i++)
        if (strcmp(ev->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

static const char *kind_name(unsigned char kind)
{
    switch (kind) {
    case DAPTO_K_INT:
        return "int";
    case DAPTO_K_LONG:
        return "long";
    case DAPTO_K_DOUBLE:
        return "double";
    case DAPTO_K_STR:
        return "str";
    case DAPTO_K_PTR:
        return "pointer";
    default:
        return "a value of the program's own type";
    }
}

/* Fill Q's definition against event ON (and FROM) of an interface.
 * Returns 0, or -1 with *cause. */
static int shape(struct question *q, const struct registry_event *on,
                 const struct registry_event *from, char **cause)
{
    struct dapto_question *d = &q->def;
    unsigned int i, k = 0;
    int idx;

    memset(d, 0, sizeof *d);
    q->nest = q->value == QUESTION_DURATION && from == NULL;
    if (q->nest) {
        /* enter to leave of the same component: the name is key 0 */
        if (strcmp(on->name, "leave") != 0 || on->nparams < 1 ||
            on->params[0].kind != DAPTO_K_STR) {
            xcause(cause, "a duration needs -from EVENT, or leave as the "
                   "event (from the enter of the same component)");
            return -1;
        }
        d->key[k] = DAPTO_QK_STR;
        d->key_arg[k++] = 0;
    }
    for (i = 0; i < q->nkeys; i++) {
        if (q->key[i] == QUESTION_KEY_THREAD) {
            d->key[k++] = DAPTO_QK_TID;
            continue;
        }
        idx = param_index(on, q->keyparam[i]);
        if (idx < 0) {
            xcause(cause, "event %s has no parameter %s", on->name, q->keyparam[i]);
            return -1;
        }
        if (q->nest && idx == 0)
            continue; /* the component: key 0 already */
        if (k == 2) {
            xcause(cause, "a duration from enter to leave is already grouped "
                   "by component: one more key at most");
            return -1;
        }
        switch (on->params[idx].kind) {
        case DAPTO_K_INT:
        case DAPTO_K_LONG:
        case DAPTO_K_PTR:
            d->key[k] = DAPTO_QK_INT;
            break;
        case DAPTO_K_STR:
            d->key[k] = DAPTO_QK_STR;
            break;
        default:
            xcause(cause, "cannot group by %s: it is %s", q->keyparam[i],
                   kind_name(on->params[idx].kind));
            return -1;
        }
        d->key_arg[k++] = (uint8_t)idx;
    }
    d->nkeys = (uint8_t)k;
    switch (q->value) {
    case QUESTION_COUNT:
        d->value = DAPTO_QV_NONE;
        break;
    case QUESTION_PARAM:
        idx = param_index(on, q->param);
        if (idx < 0) {
            xcause(cause, "event %s has no parameter %s", on->name, q->param);
            return -1;
        }
        switch (on->params[idx].kind) {
        case DAPTO_K_INT:
        case DAPTO_K_LONG:
        case DAPTO_K_PTR:
            d->value = DAPTO_QV_INT;
            break;
        case DAPTO_K_DOUBLE:
            d->value = DAPTO_QV_DOUBLE;
            break;
        default:
            xcause(cause, "cannot sum %s: it is %s", q->param,
                   kind_name(on->params[idx].kind));
            return -1;
        }
        d->value_arg = (uint8_t)idx;
        break;
    case QUESTION_DURATION:
        d->value = q->nest ? DAPTO_QV_NEST : DAPTO_QV_SINCE;
        break;
    }
    if (from != NULL && from->code == on->code) {
        xcause(cause, "a duration from %s to itself", on->name);
        return -1;
    }
    d->flags = q->hist ? DAPTO_QF_HIST : 0;
    if (qarea_shape(d, q->entries) != 0) {
        xcause(cause, "bad table size %" PRIu32 ": should be a power of two "
               "up to 1048576", q->entries);
        return -1;
    }
    if (d->tab_size > QAREA_SLOT) {
        xcause(cause, "a table of %" PRIu32 " keys takes %" PRIu32 " bytes a "
               "thread, more than the 2 MiB a thread has", q->entries, d->tab_size);
        return -1;
    }
    return 0;
}

/* Resolve Q's events in REG: ON and FROM (NULL when none), or -1 with
 * *cause. */
static int resolve(const struct question *q, struct registry *reg,
                   const struct registry_event **on,
                   const struct registry_event **from, char **cause)
{
    *from = NULL;
    *on = reg != NULL ? registry_event_by_name(reg, q->on) : NULL;
    if (*on == NULL) {
        xcause(cause, "unknown event \"%s\"", q->on);
        return -1;
    }
    if (q->from != NULL) {
        *from = registry_event_by_name(reg, q->from);
        if (*from == NULL) {
            xcause(cause, "unknown event \"%s\"", q->from);
            return -1;
        }
    }
    return 0;
}

/* Whether Q is defined in channel CH's question area; its area then. */
static struct qarea *published(const struct question *q, struct channel *ch)
{
    struct qarea *qa = ch != NULL ? channel_questions(ch, NULL) : NULL;

    return qa != NULL && qa->def[q->index].epoch != 0 ? qa : NULL;
}

/* Write Q's definition into the current process's program when it is not
 * there yet: 0, or -1 when the program cannot answer (*why, static). */
static int publish(struct questions *qs, struct question *q, const char **why)
{
    struct channel *ch = session_channel(qs->session);
    const struct registry_event *on, *from;
    struct qarea *qa;
    char *cause = NULL;
    double npt;

    if (ch == NULL) {
        *why = "no program runs";
        return -1;
    }
    if (published(q, ch) != NULL)
        return 0;
    if ((qa = channel_questions(ch, why)) == NULL)
        return -1;
    if (resolve(q, session_registry(qs->session), &on, &from, &cause) != 0 ||
        shape(q, on, from, &cause) != 0) {
        sink_error(qs->sink, "question %s: %s", q->name, cause);
        free(cause);
        *why = "its events are not the program's";
        return -1;
    }
    npt = channel_ns_per_tick(ch);
    q->def.mult = (uint64_t)(npt * 4294967296.0 + 0.5);
    if (qarea_define(qa, q->index, &q->def, why) != 0)
        return -1;
    q->def = qa->def[q->index];
    if (q->has_kept) {
        question_answer_free(&q->kept);
        q->has_kept = 0;
    }
    return 0;
}

/* Whether EV starts Q's durations: its -from event, or enter for a
 * duration from enter to leave. */
static int starts_at(const struct question *q, const struct registry_event *ev)
{
    if (q->from != NULL)
        return registry_event_named(ev, q->from);
    return q->nest && strcmp(ev->name, "enter") == 0;
}

/* consumer_ops.want: a filter where a question counts or starts. */
static unsigned char q_want(void *arg, const struct registry_event *ev)
{
    struct questions *qs = arg;
    unsigned int i;

    for (i = 0; i < qs->n; i++) {
        struct question *q = qs->q[i];

        if (registry_event_named(ev, q->on) || starts_at(q, ev))
            return DAPTO_STATE_FILTER;
    }
    if (qs->window == QUESTION_WINDOW_EVENTS &&
        (registry_event_named(ev, qs->win_from) || registry_event_named(ev, qs->win_to)))
        return DAPTO_STATE_FILTER;
    return 0;
}

/* The clause program of Q's counted event: its condition, under -within
 * or -outside when it has one (NULL with q->within_why when the program
 * cannot test the component); *LEN its bytes. */
static const unsigned char *counted_prog(struct questions *qs, struct question *q,
                                         size_t *len)
{
    const unsigned char *p = q->prog != NULL ? q->prog : always;
    size_t n = q->prog != NULL ? q->prog_len : sizeof always;
    int comp, w;

    q->within_why = NULL;
    if (q->within == NULL) {
        *len = n;
        return p;
    }
    comp = qs->rel != NULL ? relations_comp(qs->rel, q->within, &q->within_why) : -1;
    if (comp < 0) {
        if (q->within_why == NULL)
            q->within_why = "components are not known";
        return NULL;
    }
    if (q->wprog == NULL)
        q->wprog = xmalloc(DAPTO_FILTER_MAX);
    w = cond_within((unsigned int)comp, q->outside, q->prog, q->prog_len, q->wprog,
                    DAPTO_FILTER_MAX);
    if (w < 0) {
        q->within_why = "the condition is too long";
        return NULL;
    }
    *len = (size_t)w;
    return q->wprog;
}

/* The window's clauses on EV into CL (at most MAX), and its first state
 * in the current process's area. */
static unsigned int window_clauses(struct questions *qs, const struct registry_event *ev,
                                   struct dispatch_clause *cl, unsigned int max)
{
    struct channel *ch = session_channel(qs->session);
    struct qarea *qa = ch != NULL ? channel_questions(ch, NULL) : NULL;
    unsigned int n = 0, k;

    if (qa != NULL && !qa->window_set)
        qarea_window(qa, qs->window != QUESTION_WINDOW_OPEN);
    if (qs->window != QUESTION_WINDOW_EVENTS)
        return 0;
    for (k = 0; k < 2 && n < max; k++) {
        if (!registry_event_named(ev, k == 0 ? qs->win_to : qs->win_from))
            continue;
        memset(&cl[n], 0, sizeof cl[n]);
        cl[n].prog = always;
        cl[n].len = sizeof always;
        cl[n].tag = 2 * QUESTION_MAX + k;
        cl[n].qflags = DAPTO_CL_WINDOW;
        cl[n].count = k; /* the close first: an event that is both opens */
        n++;
    }
    return n;
}

static unsigned int q_clauses(void *arg, const struct registry_event *ev,
                              unsigned char *uncond, struct dispatch_clause *cl,
                              unsigned int max)
{
    struct questions *qs = arg;
    unsigned int i, n = 0;
    const char *why;

    *uncond = 0;
    for (i = 0; i < qs->n && n < max; i++) {
        struct question *q = qs->q[i];
        int start = starts_at(q, ev);

        if (!start && !registry_event_named(ev, q->on))
            continue;
        if (publish(qs, q, &why) != 0)
            continue;
        memset(&cl[n], 0, sizeof cl[n]);
        if (start) {
            cl[n].prog = always;
            cl[n].len = sizeof always;
        } else if ((cl[n].prog = counted_prog(qs, q, &cl[n].len)) == NULL) {
            continue;
        }
        cl[n].bits = 0;
        cl[n].tag = q->index * 2 + (unsigned int)start;
        cl[n].qflags = start ? DAPTO_CL_QSTART : DAPTO_CL_QUESTION;
        cl[n].question = q->index;
        n++;
    }
    n += window_clauses(qs, ev, cl + n, max - n);
    return n;
}

static void q_started(void *arg, const struct reader_item *item)
{
    struct questions *qs = arg;
    unsigned int i;

    (void)item;
    /* a new run: definitions are written again as its filters are (its
     * channels are new, their areas empty) */
    (void)i;
    dispatch_changed(qs->dispatch);
}

static const struct consumer_ops question_ops = {
    .name = "question",
    .want = q_want,
    .clauses = q_clauses,
};

static const struct consumer_hooks question_hooks = {
    .started = q_started,
};

struct questions *questions_create(struct session *s, struct dispatch *d,
                                   struct sink *sink)
{
    struct questions *qs = xcalloc(1, sizeof *qs);

    qs->session = s;
    qs->dispatch = d;
    qs->sink = sink;
    qs->consumer = dispatch_add(d, &question_ops, qs);
    dispatch_set_hooks(d, qs->consumer, &question_hooks);
    return qs;
}

static void question_free(struct question *q)
{
    unsigned int i;

    free(q->name);
    free(q->on);
    free(q->from);
    free(q->param);
    for (i = 0; i < 2; i++)
        free(q->keyparam[i]);
    free(q->cond);
    free(q->prog);
    free(q->within);
    free(q->wprog);
    free(q->kept_where);
    if (q->has_kept)
        question_answer_free(&q->kept);
    free(q);
}

void questions_free(struct questions *qs)
{
    unsigned int i;

    if (qs == NULL)
        return;
    for (i = 0; i < qs->n; i++)
        question_free(qs->q[i]);
    free(qs->win_from);
    free(qs->win_to);
    free(qs);
}

void questions_set_relations(struct questions *qs, struct relations *rel)
{
    qs->rel = rel;
}

static char *dup_or_null(const char *s)
{
    return s != NULL ? xstrdup(s) : NULL;
}

int questions_add(struct questions *qs, const struct question_spec *spec,
                  struct registry *reg, char **cause)
{
    const struct registry_event *on, *from;
    struct question *q;
    unsigned int i, index;
    int used[QUESTION_MAX] = {0};

    if (find(qs, spec->name) != NULL) {
        xcause(cause, "question %s exists already", spec->name);
        return -1;
    }
    if (qs->n == QUESTION_MAX) {
        xcause(cause, "%d questions at most", QUESTION_MAX);
        return -1;
    }
    for (i = 0; i < qs->n; i++)
        used[qs->q[i]->index] = 1;
    for (index = 0; used[index]; index++)
        ;
    q = xcalloc(1, sizeof *q);
    q->name = xstrdup(spec->name);
    q->on = xstrdup(spec->on);
    q->from = dup_or_null(spec->from);
    q->param = dup_or_null(spec->param);
    q->value = spec->value;
    q->nkeys = spec->nkeys < 2 ? spec->nkeys : 2;
    for (i = 0; i < q->nkeys; i++) {
        q->key[i] = spec->key[i].kind;
        q->keyparam[i] = dup_or_null(spec->key[i].param);
    }
    q->hist = spec->hist;
    q->entries = spec->entries != 0 ? spec->entries : 256;
    q->cond = dup_or_null(spec->cond);
    if (spec->prog != NULL) {
        q->prog = xmalloc(spec->prog_len);
        memcpy(q->prog, spec->prog, spec->prog_len);
        q->prog_len = spec->prog_len;
    }
    q->index = index;
    q->within = dup_or_null(spec->within);
    q->outside = spec->outside;
    if (resolve(q, reg, &on, &from, cause) != 0 || shape(q, on, from, cause) != 0) {
        question_free(q);
        return -1;
    }
    if (q->within != NULL && qs->rel != NULL)
        relations_use(qs->rel, 1, 0);
    qs->q[qs->n++] = q;
    dispatch_changed(qs->dispatch);
    return 0;
}

/* The question area of process I of the run where Q is defined, or
 * NULL (no such process, or not there). */
static struct qarea *published_at(const struct questions *qs,
                                  const struct question *q, unsigned int i)
{
    return published(q, session_process_channel(qs->session, i));
}

/* How many channels to look at: every process's (one without
 * processes, a recording's or the describe pass's: the current). */
static unsigned int nchannels(const struct questions *qs)
{
    unsigned int n = session_nprocs(qs->session);

    return n > 0 ? n : 1;
}

int questions_delete(struct questions *qs, const char *name)
{
    struct question *q = find(qs, name);
    struct qarea *qa;
    unsigned int i;

    if (q == NULL)
        return -1;
    for (i = 0; qs->q[i] != q; i++)
        ;
    memmove(&qs->q[i], &qs->q[i + 1], (qs->n - i - 1) * sizeof qs->q[0]);
    qs->n--;
    if (q->within != NULL && qs->rel != NULL)
        relations_use(qs->rel, 0, 0);
    /* the clauses go first; then nothing counts into the definition */
    dispatch_sync(qs->dispatch);
    for (i = 0; i < nchannels(qs); i++)
        if ((qa = published_at(qs, q, i)) != NULL)
            qarea_undefine(qa, q->index);
    question_free(q);
    return 0;
}

int questions_reset(struct questions *qs, const char *name)
{
    struct question *q = find(qs, name);
    struct qarea *qa;

    if (q == NULL)
        return -1;
    if (q->has_kept) {
        question_answer_free(&q->kept);
        q->has_kept = 0;
    }
    for (unsigned int i = 0; i < nchannels(qs); i++)
        if ((qa = published_at(qs, q, i)) != NULL)
            qarea_reset(qa, q->index);
    return 0;
}

int questions_has(const struct questions *qs, const char *name)
{
    return find(qs, name) != NULL;
}

unsigned int questions_count(const struct questions *qs)
{
    return qs->n;
}

const char *questions_name(const struct questions *qs, unsigned int i)
{
    return i < qs->n ? qs->q[i]->name : NULL;
}

/* Whether Q's key I is the component: the name of enter or leave. */
static int is_component(const struct question *q, unsigned int i)
{
    return q->key[i] == QUESTION_KEY_PARAM && strcmp(q->keyparam[i], "name") == 0 &&
           (strcmp(q->on, "leave") == 0 || strcmp(q->on, "enter") == 0);
}

char *questions_describe(const struct questions *qs, const char *name)
{
    const struct question *q = find(qs, name);
    char *s, *t;
    unsigned int i;

    if (q == NULL)
        return NULL;
    switch (q->value) {
    case QUESTION_COUNT:
        s = xasprintf("count of %s", q->on);
        break;
    case QUESTION_PARAM:
        s = xasprintf("%s of %s", q->param, q->on);
        break;
    default:
        s = q->from != NULL ? xasprintf("duration from %s to %s", q->from, q->on)
                            : xasprintf("duration from enter to leave");
        break;
    }
    for (i = 0; i < q->nkeys; i++) {
        t = xasprintf("%s%s%s", s, i == 0 ? " by " : " and ",
                      q->key[i] == QUESTION_KEY_THREAD ? "thread"
                      : is_component(q, i)             ? "component"
                                                       : q->keyparam[i]);
        free(s);
        s = t;
    }
    if (q->cond != NULL) {
        t = xasprintf("%s if {%s}", s, q->cond);
        free(s);
        s = t;
    }
    if (q->within != NULL) {
        t = xasprintf("%s %s %s", s, q->outside ? "outside" : "within", q->within);
        free(s);
        s = t;
    }
    if (q->hist) {
        t = xasprintf("%s, histogram", s);
        free(s);
        s = t;
    }
    return s;
}

/* Where Q is answered in the current (or just ended) run. */
static char *where_now(const struct questions *qs, const struct question *q)
{
    struct channel *ch = session_channel(qs->session);
    struct registry *reg = session_registry(qs->session);
    const struct registry_event *on;
    uint64_t checked, passed;
    const char *why = NULL;

    if (ch == NULL)
        return xstrdup("when the program runs");
    if (channel_questions(ch, &why) == NULL)
        return xasprintf("not answered: %s", why);
    if (published(q, ch) == NULL)
        return xstrdup("not answered: its events are not the program's");
    if (q->within_why != NULL)
        return xasprintf("not answered: %s", q->within_why);
    on = reg != NULL ? registry_event_by_name(reg, q->on) : NULL;
    if (on == NULL || dispatch_clause_counts(qs->dispatch, qs->consumer, on,
                                             q->index * 2, &checked, &passed) != 0)
        return xstrdup("not answered: no room for its clause in the event's filter");
    return xasprintf("in the program: %" PRIu64 " events checked, %" PRIu64 " counted",
                     checked, passed);
}

char *questions_where(const struct questions *qs, const char *name)
{
    const struct question *q = find(qs, name);

    if (q == NULL)
        return NULL;
    if (q->has_kept)
        return xasprintf("%s (the run has ended)",
                         q->kept_where != NULL ? q->kept_where : "answered");
    if (session_state(qs->session) == SESSION_IDLE)
        return xstrdup("when the program runs");
    return where_now(qs, q);
}

/* ---- answers ---- */

int64_t question_bucket_low(unsigned int b)
{
    if (b == 64)
        return 0;
    if (b > 64)
        return b - 64 >= 64 ? INT64_MAX : (int64_t)1 << (b - 65);
    /* 64 - k: (-2^k, -2^(k-1)] */
    if (64 - b >= 64)
        return INT64_MIN;
    return -(((int64_t)1 << (64 - b)) - 1);
}

static char *key_text(const struct dapto_question *d, const unsigned char *e,
                      unsigned int i, unsigned int *t, int ptr)
{
    const struct dapto_qentry *qe = (const struct dapto_qentry *)(const void *)e;
    uint64_t len;

    switch (d->key[i]) {
    case DAPTO_QK_STR:
        len = qe->key[i];
        {
            const char *txt = (const char *)e + d->text_off + *t * DAPTO_Q_TEXT;
            int n = len < DAPTO_Q_TEXT ? (int)len : DAPTO_Q_TEXT;
            char *s = xasprintf("%.*s%s", n, txt, len > DAPTO_Q_TEXT ? "..." : "");

            ++*t;
            return s;
        }
    case DAPTO_QK_TID:
        return xasprintf("%" PRIu64, qe->key[i]);
    default:
        if (ptr)
            return xasprintf("0x%" PRIx64, qe->key[i]);
        return xasprintf("%" PRId64, (int64_t)qe->key[i]);
    }
}

static int row_cmp(const void *a, const void *b)
{
    const struct question_row *x = a, *y = b;
    int c;
    unsigned int i;

    for (i = 0; i < 2; i++) {
        if (x->key[i] == NULL || y->key[i] == NULL)
            break;
        if ((c = strcmp(x->key[i], y->key[i])) != 0)
            return c;
    }
    return 0;
}

/* Merge row B into A (same keys). */
static void row_merge(struct question_row *a, const struct question_row *b, int hist)
{
    unsigned int i;

    if (a->count == 0) {
        a->min = b->min;
        a->max = b->max;
        a->dmin = b->dmin;
        a->dmax = b->dmax;
    } else if (b->count != 0) {
        a->min = b->min < a->min ? b->min : a->min;
        a->max = b->max > a->max ? b->max : a->max;
        a->dmin = b->dmin < a->dmin ? b->dmin : a->dmin;
        a->dmax = b->dmax > a->dmax ? b->dmax : a->dmax;
    }
    a->count += b->count;
    a->sum = (int64_t)((uint64_t)a->sum + (uint64_t)b->sum);
    a->dsum += b->dsum;
    if (hist)
        for (i = 0; i < DAPTO_Q_HIST; i++)
            a->hist[i] += b->hist[i];
}

static void row_free(struct question_row *r)
{
    free(r->key[0]);
    free(r->key[1]);
    free(r->hist);
}

/* Read Q's tables from QA into A. */
static void read_tables(struct questions *qs, struct question *q,
                        const struct qarea *qa, struct question_answer *a)
{
    const struct dapto_question *d = &qa->def[q->index];
    const struct registry_event *on =
        registry_event_by_name(session_registry(qs->session), q->on);
    unsigned char *buf = xmalloc(d->ent_size);
    struct dapto_qtable t;
    size_t cap = 0, i, j;
    uint32_t slot, e, nthreads = qarea_threads(qa);
    unsigned int k, first = q->nest && !(q->nkeys > 0 &&
                                         q->key[0] == QUESTION_KEY_PARAM &&
                                         strcmp(q->keyparam[0], "name") == 0)
                                ? 1 : 0;
    int torn;

    for (slot = 0; slot < nthreads; slot++) {
        if (!qarea_table(qa, q->index, slot, &t))
            continue;
        a->threads++;
        a->overflow += t.overflow;
        a->lost += t.lost;
        a->unmatched += t.unmatched;
        for (e = 0; e < d->nent; e++) {
            struct dapto_qentry *qe = (struct dapto_qentry *)(void *)buf;
            struct question_row *r;
            unsigned int ti = 0;

            if (!qarea_entry(qa, q->index, slot, e, buf, &torn))
                continue;
            a->torn += torn != 0;
            if (a->nrows == cap) {
                cap = cap ? 2 * cap : 64;
                a->rows = xreallocarray(a->rows, cap, sizeof *a->rows);
            }
            r = &a->rows[a->nrows++];
            memset(r, 0, sizeof *r);
            for (k = 0; k < d->nkeys; k++) {
                int ptr = d->key[k] == DAPTO_QK_INT && on != NULL &&
                          d->key_arg[k] < on->nparams &&
                          on->params[d->key_arg[k]].kind == DAPTO_K_PTR;
                char *s = key_text(d, buf, k, &ti, ptr);

                if (k >= first)
                    r->key[k - first] = s;
                else
                    free(s);
            }
            r->count = qe->count;
            if (d->value == DAPTO_QV_DOUBLE) {
                memcpy(&r->dsum, &qe->sum, 8);
                memcpy(&r->dmin, &qe->min, 8);
                memcpy(&r->dmax, &qe->max, 8);
            } else {
                r->sum = (int64_t)qe->sum;
                r->min = (int64_t)qe->min;
                r->max = (int64_t)qe->max;
            }
            if (q->hist) {
                r->hist = xcalloc(DAPTO_Q_HIST, sizeof *r->hist);
                memcpy(r->hist, buf + d->hist_off, DAPTO_Q_HIST * sizeof *r->hist);
            }
        }
    }
    free(buf);
    /* the same keys from several threads (or without the implicit
     * component) make one row */
    if (a->nrows > 1)
        qsort(a->rows, a->nrows, sizeof *a->rows, row_cmp);
    for (i = 0, j = 0; i < a->nrows; i++) {
        if (j > 0 && row_cmp(&a->rows[j - 1], &a->rows[i]) == 0) {
            row_merge(&a->rows[j - 1], &a->rows[i], q->hist);
            row_free(&a->rows[i]);
        } else {
            a->rows[j++] = a->rows[i];
        }
    }
    a->nrows = j;
}

static void answer_head(const struct question *q, struct question_answer *a)
{
    unsigned int i;

    memset(a, 0, sizeof *a);
    a->nkeys = q->nkeys;
    for (i = 0; i < q->nkeys; i++)
        a->keyname[i] = q->key[i] == QUESTION_KEY_THREAD ? "thread"
                        : is_component(q, i)             ? "component"
                                                         : q->keyparam[i];
    a->value = q->value;
    a->is_double = q->def.value == DAPTO_QV_DOUBLE;
    a->hist = q->hist;
}

/* Copy answer A (its rows deep) into *TO. */
static void answer_copy(const struct question_answer *a, struct question_answer *to)
{
    size_t i;
    unsigned int k;

    *to = *a;
    to->rows = a->nrows ? xcalloc(a->nrows, sizeof *to->rows) : NULL;
    for (i = 0; i < a->nrows; i++) {
        to->rows[i] = a->rows[i];
        for (k = 0; k < 2; k++)
            to->rows[i].key[k] = dup_or_null(a->rows[i].key[k]);
        if (a->rows[i].hist != NULL) {
            to->rows[i].hist = xmalloc(DAPTO_Q_HIST * sizeof *to->rows[i].hist);
            memcpy(to->rows[i].hist, a->rows[i].hist,
                   DAPTO_Q_HIST * sizeof *to->rows[i].hist);
        }
    }
}

/* What the program looked at and counted for Q (the current process's
 * counters), and of its event when that is a derived one. */
static void answer_counts(struct questions *qs, const struct question *q,
                          struct question_answer *a)
{
    struct registry *reg = session_registry(qs->session);
    const struct registry_event *on = reg != NULL ? registry_event_by_name(reg, q->on) : NULL;

    a->has_counts = on != NULL && dispatch_clause_counts(qs->dispatch, qs->consumer, on,
                                                         q->index * 2, &a->checked,
                                                         &a->recorded) == 0;
    a->has_derived = qs->rel != NULL && relations_has(qs->rel, q->on) &&
                     relations_counts(qs->rel, q->on, &a->dchecked, &a->drecorded) == 0;
}

int questions_answer(struct questions *qs, const char *name,
                     struct question_answer *a, char **cause)
{
    struct question *q = find(qs, name);
    struct channel *ch = session_channel(qs->session);
    struct qarea *qa;
    const char *why = NULL;
    unsigned int i, n = 0;

    if (q == NULL) {
        xcause(cause, "no question %s", name);
        return -1;
    }
    if (q->has_kept) {
        answer_copy(&q->kept, a);
        return 0;
    }
    /* every process's tables, merged <design#processes> */
    answer_head(q, a);
    for (i = 0; i < nchannels(qs); i++) {
        if ((qa = published_at(qs, q, i)) == NULL)
            continue;
        read_tables(qs, q, qa, a);
        a->no_slot += qarea_no_slot(qa);
        n++;
    }
    if (n == 0) {
        if (ch != NULL)
            channel_questions(ch, &why);
        xcause(cause, "question %s has no answer yet: %s", name,
               why != NULL ? why : ch == NULL ? "the program has not run"
                                              : "its events have not been counted");
        return -1;
    }
    answer_counts(qs, q, a);
    return 0;
}

void question_answer_free(struct question_answer *a)
{
    size_t i;

    for (i = 0; i < a->nrows; i++)
        row_free(&a->rows[i]);
    free(a->rows);
    a->rows = NULL;
    a->nrows = 0;
}

int questions_window(struct questions *qs, enum question_window w, const char *from,
                     const char *to, char **cause)
{
    struct registry *reg = session_registry(qs->session);
    unsigned int i;

    if (w == QUESTION_WINDOW_EVENTS) {
        if (reg != NULL && registry_event_by_name(reg, from) == NULL) {
            xcause(cause, "unknown event \"%s\"", from);
            return -1;
        }
        if (reg != NULL && registry_event_by_name(reg, to) == NULL) {
            xcause(cause, "unknown event \"%s\"", to);
            return -1;
        }
    }
    free(qs->win_from);
    free(qs->win_to);
    qs->win_from = w == QUESTION_WINDOW_EVENTS ? xstrdup(from) : NULL;
    qs->win_to = w == QUESTION_WINDOW_EVENTS ? xstrdup(to) : NULL;
    qs->window = w;
    /* every process now; a process that joins, at its first clauses */
    for (i = 0; i < nchannels(qs); i++) {
        struct channel *ch = session_process_channel(qs->session, i);
        struct qarea *qa = ch != NULL ? channel_questions(ch, NULL) : NULL;

        if (qa != NULL)
            qarea_window(qa, w != QUESTION_WINDOW_OPEN);
    }
    dispatch_changed(qs->dispatch);
    return 0;
}

char *questions_window_text(const struct questions *qs)
{
    struct channel *ch = session_channel(qs->session);
    struct qarea *qa = ch != NULL && session_state(qs->session) != SESSION_IDLE
                           ? channel_questions(ch, NULL)
                           : NULL;
    const char *now = qa == NULL         ? ""
                      : qarea_window_closed(qa) ? " (closed now)"
                                                : " (open now)";

    switch (qs->window) {
    case QUESTION_WINDOW_OPEN:
        return xstrdup("open: questions count");
    case QUESTION_WINDOW_CLOSED:
        return xstrdup("closed: questions count nothing");
    default:
        return xasprintf("opened by %s, closed by %s%s", qs->win_from, qs->win_to, now);
    }
}

void questions_ended(struct questions *qs)
{
    unsigned int i;

    for (i = 0; i < qs->n; i++) {
        struct question *q = qs->q[i];
        struct question_answer a;

        if (q->has_kept || questions_answer(qs, q->name, &a, NULL) != 0)
            continue;
        free(q->kept_where);
        q->kept_where = where_now(qs, q);
        a.final = 1;
        q->kept = a;
        q->has_kept = 1;
        if (!qs->no_print) {
            char *desc = questions_describe(qs, q->name), *text;

            question_sort(&q->kept, QUESTION_SORT_COUNT);
            text = question_format(&q->kept, q->name, desc, 20);
            sink_fresh_line(qs->sink);
            sink_say(qs->sink, text);
            free(text);
            free(desc);
        }
    }
}

int questions_print_at_end(const struct questions *qs)
{
    return !qs->no_print;
}

void questions_set_print_at_end(struct questions *qs, int on)
{
    qs->no_print = !on;
}
