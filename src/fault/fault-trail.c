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
#include "dapto.h"
#include "decode.h"
#include "dispatch.h"
#include "fault-trail.h"
#include "session.h"
#include "sink.h"
#include "protocol.h"
#include "reader.h"
#include "region.h"
#include "trail.h"
#include "value.h"
#include "xmalloc.h"

struct fault_trail {
    struct session *session;
    struct dispatch *dispatch;
    struct sink *say;
    struct consumer *consumer;
    unsigned int n; /* events to keep and show; 0: none */
};

static unsigned char trail_want(void *arg, const struct registry_event *ev)
{
    struct fault_trail *ft = arg;

    (void)ev;
    return ft->n != 0 ? DAPTO_STATE_TRAIL : 0;
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
    return ft;
}

void fault_trail_free(struct fault_trail *ft)
{
    free(ft);
}

void fault_trail_set(struct fault_trail *ft, unsigned int n)
{
    struct channel *ch = trail_channel(ft);

    if (n > FAULT_TRAIL_MAX)
        n = FAULT_TRAIL_MAX;
    if ((n != 0) != (ft->n != 0))
        dispatch_changed(ft->dispatch);
    ft->n = n;
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

/* One of the last events: a copy of its record, where it came from. */
struct last {
    uint64_t time;
    uint64_t order; /* in the order collected: trail, then kept */
    uint32_t size;
    _Alignas(8) unsigned char rec[TRAIL_RECORD_MAX];
};

struct lasts {
    struct last *v;
    size_t n, cap;
    unsigned int bad; /* trail slots that could not be read */
};

static void add_last(void *arg, const unsigned char *rec, uint32_t size)
{
    struct lasts *l = arg;
    struct dapto_record h;
    struct last *e;

    if (size < DAPTO_RECORD_HEADER || size > TRAIL_RECORD_MAX)
        return;
    l->v = xgrow(l->v, l->n, &l->cap, sizeof *l->v);
    e = &l->v[l->n];
    memcpy(&h, rec, sizeof h);
    e->time = h.time;
    e->order = l->n++;
    e->size = size;
    memcpy(e->rec, rec, size);
}

static int by_time(const void *a, const void *b)
{
    const struct last *x = a, *y = b;

    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The last WANT events of the program's trail (those it did not deliver)
 * into L. */
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
static void say_last(struct sink *say, struct channel *ch, struct last *e)
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
    if (item.kind != READER_EVENT) {
        sink_sayf(say, "  (an event that cannot be read: %s)\n",
                    item.kind == READER_ERROR ? item.message
                                              : "not an event");
        return;
    }
    say_event(say, &item);
}

void fault_trail_say(struct fault_trail *ft)
{
    struct sink *say = ft->say;
    struct channel *ch = trail_channel(ft);
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
    /* The program's trail holds the events it did not deliver; noosa
     * kept those it took from the ring, and those still in the ring are
     * read where they are <protocol#trail>. */
    trail_lasts(channel_region(ch), ft->n, &l);
    channel_kept(ch, add_last, &l);
    if (l.n == 0) {
        sink_say(say, "Last events: none before the error.\n");
        if (l.bad != 0)
            sink_sayf(say, "  (%u could not be read: the program "
                        "overwrote them)\n", l.bad);
        free(l.v);
        return;
    }
    qsort(l.v, l.n, sizeof *l.v, by_time);
    first = l.n > ft->n ? l.n - ft->n : 0;
    sink_sayf(say, "Last %zu event%s before the error (oldest first):\n",
                l.n - first, l.n - first == 1 ? "" : "s");
    for (i = first; i < l.n; i++)
        say_last(say, ch, &l.v[i]);
    if (l.bad != 0)
        sink_sayf(say, "  (%u more could not be read: the program "
                    "overwrote them)\n", l.bad);
    free(l.v);
}
