/* SPDX-License-Identifier: MIT */
/*
 * fault-trail.c - the last events before an error.  See fault-trail.h.
 *
 * The trail is read only while the program is stopped (an error stops
 * every thread first), from the region's checked geometry; each slot is
 * validated by the trail's own protocol, then decoded like a record of
 * the ring by the run's reader, so that names and interned strings come
 * out as they do everywhere else.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "clock.h"
#include "dapto.h"
#include "decode.h"
#include "dispatch.h"
#include "fault-trail.h"
#include "loop.h"
#include "session.h"
#include "sink.h"
#include "protocol.h"
#include "reader.h"
#include "region.h"
#include "symnames.h"
#include "trail.h"
#include "ttrail.h"
#include "value.h"
#include "xmalloc.h"

struct fault_trail {
    struct session *session;
    struct dispatch *dispatch;
    struct sink *say;
    struct consumer *consumer;
    unsigned int n; /* events to keep and show; 0: none */
    int functions;  /* -finstrument-functions' entries and exits too */
    /* The coarse clock of the threads' trails <protocol#ttrail>: written
     * every TICK_MS once two threads of a process have trails (their
     * order matters). */
    struct loop *loop;
    uint64_t next_ms;
    int ticking;
};

#define TICK_MS 1

static unsigned char trail_want(void *arg, const struct registry_event *ev)
{
    struct fault_trail *ft = arg;

    if (ft->n == 0)
        return 0;
    /* the hooks keep functions in the trail only when asked to */
    if (ft->functions && ev->aspect != NULL && ev->aspect->event_base == 0 &&
        (ev->code == DAPTO_EV_ENTER || ev->code == DAPTO_EV_LEAVE))
        return DAPTO_STATE_TRAIL | DAPTO_STATE_FTRAIL;
    return DAPTO_STATE_TRAIL;
}

static uint64_t now_ms(void)
{
    return clock_monotonic_ns() / 1000000u;
}

/* The loop's hooks: while two threads of a process have trails, write
 * the clock every TICK_MS (the runtime wakes the loop when a thread takes
 * one); else no sooner than needed. */
static int tick_prepare(void *arg)
{
    struct fault_trail *ft = arg;
    uint64_t now;

    if (!ft->ticking || ft->n == 0 ||
        session_state(ft->session) != SESSION_RUNNING)
        return -1;
    now = now_ms();
    return ft->next_ms <= now ? 0 : (int)(ft->next_ms - now);
}

static void tick_finish(void *arg)
{
    struct fault_trail *ft = arg;
    uint64_t now;
    unsigned int i, n;

    if (ft->n == 0 || session_state(ft->session) != SESSION_RUNNING)
        return;
    n = session_nprocs(ft->session) > 0 ? session_nprocs(ft->session) : 1;
    for (i = 0; !ft->ticking && i < n; i++) {
        struct channel *ch = session_process_channel(ft->session, i);

        if (ch != NULL && channel_trails_taken(ch) >= 2)
            ft->ticking = 1;
    }
    now = now_ms();
    if (!ft->ticking || now < ft->next_ms)
        return;
    for (i = 0; i < n; i++) {
        struct channel *ch = session_process_channel(ft->session, i);

        if (ch != NULL)
            channel_tick(ch);
    }
    ft->next_ms = now + TICK_MS;
}

static void trail_deliver(void *arg, struct dispatch_event *de)
{
    /* the trail is read after the fact; nothing to do per event */
    (void)arg;
    (void)de;
}

static const struct consumer_ops trail_ops = {
    .name = "errors-trail",
    .want = trail_want,
    .deliver = trail_deliver,
};

/* The channel of the session, or NULL. */
static struct channel *trail_channel(const struct fault_trail *ft)
{
    return ft->session != NULL ? session_channel(ft->session) : NULL;
}

/* A run begins, or a process joins it: its channel keeps the events it
 * delivers. */
static void trail_started(void *arg, const struct reader_item *item)
{
    struct fault_trail *ft = arg;
    struct channel *ch = trail_channel(ft);

    (void)item;
    if (ch != NULL)
        channel_keep(ch, ft->n);
    ft->ticking = 0;
    ft->next_ms = 0;
}

static const struct consumer_hooks trail_more = {
    .started = trail_started,
    .joined = trail_started, /* (each process's channel keeps its own) */
};

struct fault_trail *fault_trail_create(struct session *s, struct dispatch *d,
                                       struct sink *say, unsigned int n)
{
    struct fault_trail *ft = xcalloc(1, sizeof *ft);

    ft->session = s;
    ft->dispatch = d;
    ft->say = say;
    ft->n = n > FAULT_TRAIL_MAX ? FAULT_TRAIL_MAX : n;
    ft->consumer = dispatch_add(d, &trail_ops, ft);
    dispatch_set_hooks(d, ft->consumer, &trail_more);
    if (s != NULL)
        session_set_trail_events(s, ft->n);
    ft->loop = s != NULL ? session_loop(s) : NULL;
    if (ft->loop != NULL)
        loop_add_hook(ft->loop, tick_prepare, tick_finish, ft);
    return ft;
}

void fault_trail_free(struct fault_trail *ft)
{
    if (ft == NULL)
        return;
    if (ft->loop != NULL)
        loop_remove_hook(ft->loop, ft);
    free(ft);
}

void fault_trail_set_functions(struct fault_trail *ft, int on)
{
    if ((on != 0) != ft->functions)
        dispatch_changed(ft->dispatch);
    ft->functions = on != 0;
}

int fault_trail_functions(const struct fault_trail *ft)
{
    return ft->functions;
}

void fault_trail_set(struct fault_trail *ft, unsigned int n)
{
    struct channel *ch = trail_channel(ft);

    if (n > FAULT_TRAIL_MAX)
        n = FAULT_TRAIL_MAX;
    if ((n != 0) != (ft->n != 0))
        dispatch_changed(ft->dispatch);
    ft->n = n;
    if (ft->session != NULL)
        session_set_trail_events(ft->session, n);
    if (ch != NULL)
        channel_keep(ch, n);
}

unsigned int fault_trail_get(const struct fault_trail *ft)
{
    return ft->n;
}

/* Cut the values of the slot record REC (header H) after the last whole
 * value: a slot may end in the middle of one <protocol#trail>. */
static void whole_values(struct dapto_record *h, const unsigned char *rec)
{
    struct decode_cursor c;
    struct decode_value v;
    size_t last = 0;

    decode_init(&c, rec + DAPTO_RECORD_HEADER, h->len);
    while (!decode_at_end(&c)) {
        char *why = NULL;

        if (decode_value(&c, &v, &why) != 0) {
            free(why);
            break;
        }
        last = c.off;
    }
    h->len = (uint32_t)last;
}

/* Say one decoded event. */
static void say_event(struct sink *say, const struct reader_item *item)
{
    const struct registry_event *e = item->event;
    unsigned int i;

    sink_sayf(say, "  %s", e->name);
    for (i = 0; i < item->nvalues && i < e->nparams; i++) {
        char *text = value_text(&item->values[i]);

        sink_sayf(say, " %s=%s", e->params[i].name, text);
        free(text);
    }
    if (item->nvalues < e->nparams)
        sink_say(say, " ...");
    sink_sayf(say, " (thread %d)\n", (int)item->tid);
}

/* Say a function's entry or exit (-finstrument-functions). */
static void say_function(struct sink *say, struct symnames *names,
                         const struct reader_item *item)
{
    size_t len = 0;
    const char *name = names != NULL
                           ? symnames_name(names, item->function, &len)
                           : NULL;

    if (name != NULL)
        sink_sayf(say, "  %s function %.*s (thread %d)\n",
                  item->enter ? "enter" : "leave", (int)len, name,
                  (int)item->tid);
    else
        sink_sayf(say, "  %s function 0x%llx (thread %d)\n",
                  item->enter ? "enter" : "leave",
                  (unsigned long long)item->function, (int)item->tid);
}

/* One of the last events: a copy of its record, where it came from. */
struct last {
    uint64_t ms;    /* the run's coarse clock: the order between threads */
    uint64_t sub;   /* the order within its thread: its time, or its index
                       in the thread's own trail */
    uint64_t back;  /* its thread's events of the same tick after it */
    uint64_t order; /* in the order collected */
    uint32_t tid;
    uint32_t size;
    _Alignas(8) unsigned char rec[TRAIL_RECORD_MAX];
};

struct lasts {
    struct channel *ch;
    struct last *v;
    size_t n, cap;
    unsigned int bad;    /* slots that could not be read */
    int coarse;          /* some came from threads' own trails */
    uint32_t *owners;    /* threads with a trail of their own */
    unsigned int nowners;
};

static struct last *add_slot(struct lasts *l)
{
    l->v = xgrow(l->v, l->n, &l->cap, sizeof *l->v);
    l->v[l->n].order = l->n;
    return &l->v[l->n++];
}

static int has_trail(const struct lasts *l, uint32_t tid)
{
    for (unsigned int i = 0; i < l->nowners; i++)
        if (l->owners[i] == tid)
            return 1;
    return 0;
}

/* A record of the shared trail or of those noosa kept <protocol#trail>:
 * timed exactly.  A thread's with a trail of its own is there already. */
static void add_last(void *arg, const unsigned char *rec, uint32_t size)
{
    struct lasts *l = arg;
    struct dapto_record h;
    struct last *e;
    int64_t ns;

    if (size < DAPTO_RECORD_HEADER || size > TRAIL_RECORD_MAX)
        return;
    memcpy(&h, rec, sizeof h);
    if (has_trail(l, h.tid))
        return;
    e = add_slot(l);
    ns = channel_ns(l->ch, h.time);
    e->ms = ns > 0 ? (uint64_t)ns / 1000000u : 0;
    e->sub = h.time;
    e->tid = h.tid;
    e->size = size;
    memcpy(e->rec, rec, size);
}

/* An event of a thread's own trail <protocol#ttrail> (owner L->owner). */
struct ttrail_ctx {
    struct lasts *l;
    uint32_t owner;
};

static void add_kept(void *arg, const struct ttrail_event *te)
{
    struct ttrail_ctx *c = arg;
    struct last *e = add_slot(c->l);
    struct dapto_record h;
    unsigned int off = 0;

    memset(&h, 0, sizeof h);
    h.code = te->code;
    h.tid = c->owner;
    h.len = te->len;
    h.size = DAPTO_RECORD_HEADER + te->len;
    /* a value cut to fit says so on its tag <protocol#ttrail> */
    while (off < te->len) {
        struct decode_cursor cur;
        struct decode_value v;
        char *why = NULL;

        if (te->values[off] & DAPTO_K_TRUNC) {
            h.flags |= DAPTO_RECF_TRUNC;
            break;
        }
        decode_init(&cur, te->values + off, te->len - off);
        if (decode_value(&cur, &v, &why) != 0) {
            free(why);
            h.flags |= DAPTO_RECF_TRUNC;
            break;
        }
        off += (unsigned int)cur.off;
    }
    e->ms = te->tick;
    e->sub = te->index;
    e->tid = c->owner;
    e->size = h.size;
    memcpy(e->rec, &h, sizeof h);
    memcpy(e->rec + DAPTO_RECORD_HEADER, te->values, te->len);
    c->l->coarse = 1;
}

/* The last WANT events of each thread's own trail into L. */
static void ttrail_lasts(const struct ttrail_area *a, uint64_t want,
                         struct lasts *l)
{
    for (uint32_t i = 0; i < a->count; i++) {
        struct ttrail_ctx c = {l, 0};

        ttrail_read(a, i, want, &c.owner, &l->bad, add_kept, &c);
        if (c.owner != 0) {
            l->owners = xreallocarray(l->owners, l->nowners + 1,
                                      sizeof *l->owners);
            l->owners[l->nowners++] = c.owner;
        }
    }
}

/* Without threads' own trails: by time, then as collected. */
static int by_time(const void *a, const void *b, void *arg)
{
    const struct last *x = a, *y = b;

    (void)arg;
    if (x->sub != y->sub)
        return x->sub < y->sub ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Each thread's events in its order, for counting BACK. */
static int by_thread(const void *a, const void *b)
{
    const struct last *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->sub != y->sub)
        return x->sub < y->sub ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* With them: by the coarse clock; within a tick, whose order between
 * threads is unknown, the threads' events from the end taken in turn (so
 * that the last of the tick are every thread's last), the thread of the
 * error (*ARG) last among them; within a thread, in its order. */
static int by_tick(const void *a, const void *b, void *arg)
{
    const struct last *x = a, *y = b;
    uint32_t tid = (uint32_t)*(const pid_t *)arg;
    int fx = x->tid == tid, fy = y->tid == tid;

    if (x->ms != y->ms)
        return x->ms < y->ms ? -1 : 1;
    if (x->back != y->back)
        return x->back > y->back ? -1 : 1;
    if (fx != fy)
        return fx - fy;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->sub != y->sub)
        return x->sub < y->sub ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Count each event's BACK (L's events sorted by thread). */
static void count_back(struct lasts *l)
{
    size_t i, j, k;

    qsort(l->v, l->n, sizeof *l->v, by_thread);
    for (i = 0; i < l->n; i = j) {
        for (j = i + 1; j < l->n && l->v[j].tid == l->v[i].tid &&
                        l->v[j].ms == l->v[i].ms;
             j++)
            ;
        for (k = i; k < j; k++)
            l->v[k].back = j - 1 - k;
    }
}

/* The last WANT events of the program's shared trail (those it did not
 * deliver) into L. */
static void trail_lasts(const struct region *reg, uint64_t want,
                        struct lasts *l)
{
    struct trail t;
    uint64_t next, i;
    _Alignas(8) unsigned char buf[TRAIL_RECORD_MAX];

    trail_init(&t, reg);
    next = trail_next(&t);
    if (want > reg->geom.trail_slots)
        want = reg->geom.trail_slots;
    if (want > next)
        want = next;
    for (i = next - want; i < next; i++) {
        long len = trail_read(&t, i, buf, sizeof buf);

        if (len < 0)
            l->bad++;
        else
            add_last(l, buf, (uint32_t)len);
    }
}

/* Say the event of the record E (a copy: cut values are dropped). */
static void say_last(struct sink *say, struct channel *ch,
                     struct symnames *names, struct last *e)
{
    struct dapto_record h;
    struct reader_item item;
    size_t size;

    memcpy(&h, e->rec, sizeof h);
    h.len = e->size - DAPTO_RECORD_HEADER;
    /* a copy: no mailbox waits for it */
    h.flags &= (uint16_t)~DAPTO_RECF_STOP;
    if (h.flags & DAPTO_RECF_TRUNC)
        whole_values(&h, e->rec);
    size = (DAPTO_RECORD_HEADER + (size_t)h.len + 7) & ~(size_t)7;
    memset(e->rec + DAPTO_RECORD_HEADER + h.len, 0,
           size - DAPTO_RECORD_HEADER - h.len);
    h.size = (uint32_t)size;
    memcpy(e->rec, &h, sizeof h);
    reader_record(channel_reader(ch), e->rec, size, NULL, 0, &item);
    if (item.kind == READER_FUNCTION) {
        say_function(say, names, &item);
        return;
    }
    if (item.kind != READER_EVENT) {
        sink_sayf(say, "  (an event that cannot be read: %s)\n",
                    item.kind == READER_ERROR ? item.message
                                              : "not an event");
        return;
    }
    say_event(say, &item);
}

/* Whether the events from FIRST on are of more than one thread. */
static int several_threads(const struct lasts *l, size_t first)
{
    for (size_t i = first + 1; i < l->n; i++)
        if (l->v[i].tid != l->v[first].tid)
            return 1;
    return 0;
}

void fault_trail_say(struct fault_trail *ft, pid_t tid)
{
    struct sink *say = ft->say;
    struct channel *ch = trail_channel(ft);
    const struct ttrail_area *tt;
    struct lasts l = {0};
    size_t i, first;

    if (ft->n == 0) {
        sink_say(say, "Last events: not kept (\"errors last N\" keeps "
                   "them).\n");
        return;
    }
    if (ch == NULL || channel_status(ch) != CHANNEL_ACTIVE) {
        sink_say(say, "Last events: none (the program is not "
                   "monitored).\n");
        return;
    }
    l.ch = ch;
    /* Each thread's own trail holds its last events <protocol#ttrail>;
     * the shared trail those of the other threads that the program did
     * not deliver, noosa kept those it took from the ring, and those still
     * in the ring are read where they are <protocol#trail>. */
    tt = channel_ttrails(ch);
    if (tt != NULL)
        ttrail_lasts(tt, ft->n, &l);
    trail_lasts(channel_region(ch), ft->n, &l);
    channel_kept(ch, add_last, &l);
    if (l.n == 0) {
        sink_say(say, "Last events: none before the error.\n");
        if (l.bad != 0)
            sink_sayf(say, "  (%u could not be read: the program "
                        "overwrote them)\n", l.bad);
        free(l.v);
        free(l.owners);
        return;
    }
    if (l.coarse)
        count_back(&l);
    qsort_r(l.v, l.n, sizeof *l.v, l.coarse ? by_tick : by_time, &tid);
    first = l.n > ft->n ? l.n - ft->n : 0;
    sink_sayf(say, "Last %zu event%s before the error (oldest first%s):\n",
                l.n - first, l.n - first == 1 ? "" : "s",
                l.coarse && several_threads(&l, first)
                    ? "; between threads, to the millisecond" : "");
    for (i = first; i < l.n; i++)
        say_last(say, ch, ft->dispatch != NULL ? dispatch_symnames(ft->dispatch)
                                               : NULL, &l.v[i]);
    if (l.bad != 0)
        sink_sayf(say, "  (%u more could not be read: the program "
                    "overwrote them)\n", l.bad);
    free(l.v);
    free(l.owners);
}
