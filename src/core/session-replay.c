/* SPDX-License-Identifier: MIT */
/*
 * session-replay.c - a recording played as the program <design#replay>:
 * the source's items (and its batches of function entries and exits and
 * of counted events) handed to the same hooks as a live run's, a batch a
 * turn of the loop so that a front end stays responsive over millions of
 * events; play, pause, seek and the end of the play.
 */
#include "config.h"

#include <string.h>

#include "dapto.h"
#include "loop.h"
#include "session-int.h"
#include "xmalloc.h"

static int replay_prepare(void *arg)
{
    struct session *s = arg;

    return s->state == SESSION_RUNNING ? 0 : -1;
}

/* Function entries and exits taken from the source at a time. */
#define REPLAY_FNS 1024

/* Hand FNS (N of them, numbered from FIRST) to the functions hook, and
 * those it does not take (the direct path was turned off meanwhile) as
 * the built-in enter and leave events, each of which may stop the play.
 * Returns 1 when the session stopped at one of them. */
static int replay_fns(struct session *s, const struct reader_fn *fns,
                      unsigned int n, uint64_t first)
{
    struct registry *reg = s->source.registry(s->source.arg);
    unsigned int taken = 0, i;

    if (s->hooks.functions != NULL)
        taken = s->hooks.functions(s->hooks.arg, fns, n);
    for (i = taken; i < n; i++) {
        struct reader_item item;
        struct decode_value v;

        memset(&item, 0, sizeof item);
        memset(&v, 0, sizeof v);
        item.kind = READER_EVENT;
        item.code = fns[i].enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE;
        item.tid = fns[i].tid;
        item.ns = fns[i].ns;
        item.stop = 0;
        item.event = registry_event(reg, item.code);
        item.nvalues = 1;
        item.values = &v;
        v.kind = DAPTO_K_STR;
        v.interned = 1;
        v.s = fns[i].name;
        v.len = fns[i].len;
        s->seq = first + i;
        if (deliver(s, &item)) {
            /* stopped there: the ones after it are read again next */
            s->source.seek(s->source.arg, first + i + 1);
            s->stop = -1;
            return 1;
        }
    }
    s->seq = first + n - 1;
    return 0;
}

/* Hand EVS (N of them, numbered from FIRST) to the counts hook.  Those
 * it does not take (the consumers changed meanwhile) are read again
 * from the source: returns 0 then, and the next is to be an item. */
static int replay_counts(struct session *s, const struct reader_ev *evs,
                         unsigned int n, uint64_t first)
{
    unsigned int taken = 0;

    if (s->hooks.counts != NULL)
        taken = s->hooks.counts(s->hooks.arg, evs, n);
    if (taken > 0)
        s->seq = first + taken - 1;
    if (taken == n)
        return 1;
    s->source.seek(s->source.arg, first + taken);
    return 0;
}

static void replay_finish(void *arg)
{
    struct session *s = arg;
    /* (one loop, one replay) */
    static struct reader_fn fns[REPLAY_FNS];
    static struct reader_ev evs[REPLAY_FNS];
    struct reader_item item;
    unsigned int n = 0, k;
    uint64_t first;
    int counts = 1; /* (0: an item first, after a batch not all taken) */

    while (s->state == SESSION_RUNNING && n < SESSION_DIRECT_BATCH) {
        /* <design#dispatch>: functions in batches, without items */
        if (s->direct && s->source.functions != NULL &&
            (k = s->source.functions(s->source.arg, fns, REPLAY_FNS,
                                     &first)) > 0) {
            n += k;
            if (replay_fns(s, fns, k, first))
                return;
            continue;
        }
        if (counts && s->counting && s->source.counts != NULL &&
            (k = s->source.counts(s->source.arg, evs, REPLAY_FNS, &first)) >
                0) {
            n += k;
            counts = replay_counts(s, evs, k, first);
            continue;
        }
        counts = 1;
        if (!s->source.next(s->source.arg, &item, &s->seq)) {
            replay_ended(s, 0);
            return;
        }
        n++;
        /* every event may stop the replay */
        if (item.kind == READER_EVENT)
            item.stop = 0;
        if (deliver(s, &item)) {
            s->stop = -1;
            return;
        }
        if (n >= SESSION_BATCH && !s->direct)
            break;
    }
}

static void replay_watch(struct session *s, int on)
{
    if (on && !s->watching)
        loop_add_hook(s->loop, replay_prepare, replay_finish, s);
    else if (!on && s->watching)
        loop_remove_hook(s->loop, s);
    s->watching = on;
}

int replay_run(struct session *s)
{
    s->source.seek(s->source.arg, 0);
    s->seq = 0;
    s->state = SESSION_RUNNING;
    s->reading = 1;
    s->ended = 0;
    s->killed = 0;
    s->stop = -1;
    replay_watch(s, 1);
    changed(s);
    return 0;
}

void replay_stop(struct session *s, enum session_why why)
{
    s->state = SESSION_STOPPED;
    s->why = why;
    changed(s);
}

void replay_ended(struct session *s, int killed)
{
    replay_watch(s, 0);
    s->state = SESSION_IDLE;
    s->ended = 1;
    s->killed = killed;
    s->end_status = killed ? 0 : s->source.status;
    s->end_signo = killed ? 9 : s->source.signo;
    changed(s);
}

void session_set_source(struct session *s, const struct session_source *src)
{
    discard(s);
    s->source = *src;
    s->seq = 0;
}

int session_replaying(const struct session *s)
{
    return s->source.next != NULL;
}

uint64_t session_position(const struct session *s)
{
    return s->seq;
}

int session_seek(struct session *s, uint64_t seq, char **cause)
{
    if (s->source.next == NULL) {
        xcause(cause, "only a recording can go back or to an event");
        return -1;
    }
    if (s->state == SESSION_IDLE) {
        s->ended = 0;
        s->killed = 0;
        replay_watch(s, 1);
    }
    s->source.seek(s->source.arg, seq);
    s->seq = seq > 0 ? seq - 1 : 0; /* (the event before it was given) */
    if (s->state != SESSION_STOPPED) {
        /* a step of goto, not a pause to tell */
        s->hush++;
        replay_stop(s, SESSION_INTERRUPTED);
        s->hush--;
    }
    return 0;
}
