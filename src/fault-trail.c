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
#include "interp.h"
#include "protocol.h"
#include "reader.h"
#include "region.h"
#include "trail.h"
#include "value.h"
#include "xmalloc.h"

struct fault_trail {
    struct interp *in;
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

struct fault_trail *fault_trail_create(struct interp *in, unsigned int n)
{
    struct fault_trail *ft = xcalloc(1, sizeof *ft);

    ft->in = in;
    ft->n = n > FAULT_TRAIL_MAX ? FAULT_TRAIL_MAX : n;
    ft->consumer = dispatch_add(in->dispatch, &trail_ops, ft);
    return ft;
}

void fault_trail_free(struct fault_trail *ft)
{
    free(ft);
}

void fault_trail_set(struct fault_trail *ft, unsigned int n)
{
    if (n > FAULT_TRAIL_MAX)
        n = FAULT_TRAIL_MAX;
    if ((n != 0) != (ft->n != 0))
        dispatch_changed(ft->in->dispatch);
    ft->n = n;
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
static void say_event(struct interp *in, const struct reader_item *item)
{
    const struct registry_event *e = item->event;
    unsigned int i;

    interp_sayf(in, "  %s", e->name);
    for (i = 0; i < item->nvalues && i < e->nparams; i++) {
        char *text = value_text(&item->values[i]);

        interp_sayf(in, " %s=%s", e->params[i].name, text);
        free(text);
    }
    if (item->nvalues < e->nparams)
        interp_say(in, " ...");
    interp_sayf(in, " (thread %d)\n", (int)item->tid);
}

void fault_trail_say(struct fault_trail *ft)
{
    struct interp *in = ft->in;
    struct channel *ch = session_channel(in->session);
    const struct region *reg;
    struct trail t;
    uint64_t next, want, i;
    unsigned int bad = 0;
    _Alignas(8) unsigned char buf[TRAIL_RECORD_MAX];

    if (ft->n == 0) {
        interp_say(in, "Last events: not kept (\"errors last N\" keeps "
                   "them).\n");
        return;
    }
    if (ch == NULL || channel_status(ch) != CHANNEL_ACTIVE) {
        interp_say(in, "Last events: none (the program is not "
                   "monitored).\n");
        return;
    }
    reg = channel_region(ch);
    trail_init(&t, reg);
    next = trail_next(&t);
    want = ft->n;
    if (want > reg->geom.trail_slots)
        want = reg->geom.trail_slots;
    if (want > next)
        want = next;
    if (want == 0) {
        interp_say(in, "Last events: none before the error.\n");
        return;
    }
    interp_sayf(in, "Last %llu event%s before the error (oldest first):\n",
                (unsigned long long)want, want == 1 ? "" : "s");
    for (i = next - want; i < next; i++) {
        struct dapto_record h;
        struct reader_item item;
        long len = trail_read(&t, i, buf, sizeof buf);
        size_t size;

        if (len < 0) {
            bad++;
            continue;
        }
        memcpy(&h, buf, sizeof h);
        /* a slot is a copy: no mailbox waits for it */
        h.flags &= (uint16_t)~DAPTO_RECF_STOP;
        if (h.flags & DAPTO_RECF_TRUNC)
            whole_values(&h, buf);
        size = (DAPTO_RECORD_HEADER + (size_t)h.len + 7) & ~(size_t)7;
        memset(buf + DAPTO_RECORD_HEADER + h.len, 0,
               size - DAPTO_RECORD_HEADER - h.len);
        h.size = (uint32_t)size;
        memcpy(buf, &h, sizeof h);
        reader_record(channel_reader(ch), buf, size, NULL, 0, &item);
        if (item.kind != READER_EVENT) {
            interp_sayf(in, "  (an event that cannot be read: %s)\n",
                        item.kind == READER_ERROR ? item.message
                                                  : "not an event");
            continue;
        }
        say_event(in, &item);
    }
    if (bad != 0)
        interp_sayf(in, "  (%u more could not be read: the program "
                    "overwrote them)\n", bad);
}
