/* SPDX-License-Identifier: MIT */
/*
 * session-replay.c - a recording played as the program <design#replay>:
 * the source's items (and its batches of function entries and exits and
 * of counted events) handed to the same hooks as a live run's, a batch a
 * turn of the loop so that a front end stays responsive over millions of
 * events; play, pause and the end of the play; and the moves
 * (<design#checkpoints>): a checkpoint of the consumers that keep a
 * state taken every so often while playing, a move restoring the latest
 * before its event and handing them the events from there quietly, only
 * the stretches of the source that hold events they want, and the search
 * back for the last stop (reverse-continue) by the same quiet plays.
 */
#include "config.h"

#include <string.h>

#include "checkpoint.h"
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
            s->next = first + i + 1;
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
    s->next = first + taken;
    return 0;
}

static void replay_seek(struct session *s, uint64_t seq)
{
    s->source.seek(s->source.arg, seq);
    s->next = seq;
}

/* The source's numbers moved (its index was made again): what the
 * checkpoints say of them no longer holds. */
static void replay_generation(struct session *s)
{
    unsigned int g;

    if (s->source.generation == NULL)
        return;
    g = s->source.generation(s->source.arg);
    if (g != s->generation) {
        s->generation = g;
        s->valid = 0;
        if (s->ckpts != NULL)
            ckpts_clear(s->ckpts);
    }
}

/* Hand the items before GOAL from where the source is (NEXT) to the
 * consumers that keep a state, quietly; the loop's hook does it. */
static void replay_quietly(struct session *s, uint64_t target)
{
    s->quiet = 1;
    s->goal = target;
    s->until = s->next;
    s->mask = s->hooks.quiet != NULL ? s->hooks.quiet(s->hooks.arg, 1)
                                     : READER_ALL_CODES;
    s->mask |= READER_ITEMS_BIT;
}

static void replay_search_on(struct session *s);

/* The quiet part of a move is over (the next item is GOAL). */
static void replay_loud(struct session *s)
{
    s->quiet = 0;
    if (s->ckpts != NULL)
        ckpts_settle(s->ckpts);
    if (s->hooks.quiet != NULL)
        s->hooks.quiet(s->hooks.arg, 0);
}

/* Start a move to SEQ from the consumers' state: the latest checkpoint
 * at or before it, or where the play stands when that is nearer (or
 * when no consumer keeps a state); the quiet part then runs in the
 * loop. */
static void replay_from_best(struct session *s, uint64_t seq)
{
    struct ckpts *ck = s->ckpts;
    uint64_t c;

    replay_generation(s);
    if (ck == NULL || !ckpts_active(ck)) {
        replay_seek(s, seq);
        s->valid = 1;
        return;
    }
    if (ckpts_count(ck) == 0 && s->valid && s->next == 0)
        ckpts_take(ck, 0); /* (moves before any run: from the start) */
    c = ckpts_before(ck, seq);
    if (s->valid && s->next <= seq && (c == UINT64_MAX || c <= s->next)) {
        /* on from here */
        replay_seek(s, s->next);
    } else if (c != UINT64_MAX) {
        ckpts_restore(ck, c);
        replay_seek(s, c);
    } else {
        /* no checkpoint: from the start, every state empty */
        ckpts_restore(ck, UINT64_MAX);
        ckpts_settle(ck);
        replay_seek(s, 0);
    }
    s->valid = 1;
    if (s->next < seq)
        replay_quietly(s, seq);
}

static void replay_finish(void *arg);

/* Make the loop play (the state running, its hook in). */
static void replay_watch(struct session *s, int on)
{
    if (on && !s->watching)
        loop_add_hook(s->loop, replay_prepare, replay_finish, s);
    else if (!on && s->watching)
        loop_remove_hook(s->loop, s);
    s->watching = on;
}

/* A reverse search found where to stop, or found nothing back to the
 * start. */
static void replay_searched(struct session *s)
{
    if (s->found > 0) {
        s->searching = 0;
        s->stop_at = s->found - 1;
        replay_from_best(s, s->found - 1);
        return;
    }
    if (s->from == 0) {
        s->searching = 0;
        message(s, "No stop before event %llu: back at the first event.",
                (unsigned long long)(s->source.number != NULL
                                         ? s->source.number(s->source.arg,
                                                            s->origin)
                                         : s->origin));
        s->stop_at = 0;
        replay_from_best(s, 0);
        return;
    }
    replay_search_on(s);
}

/* The next quiet play of a reverse search: from the latest checkpoint
 * before where the last one began. */
static void replay_search_on(struct session *s)
{
    uint64_t hi = s->from, c = UINT64_MAX;

    if (s->ckpts != NULL && ckpts_active(s->ckpts))
        c = hi > 0 ? ckpts_before(s->ckpts, hi - 1) : UINT64_MAX;
    if (c == UINT64_MAX) {
        c = 0;
        if (s->ckpts != NULL) {
            ckpts_restore(s->ckpts, UINT64_MAX);
            ckpts_settle(s->ckpts);
        }
    } else {
        ckpts_restore(s->ckpts, c);
    }
    replay_seek(s, c);
    s->valid = 1;
    s->from = c;
    s->found = 0;
    replay_quietly(s, hi);
}

/* The loop's hook: a batch of the source's items. */
static void replay_finish(void *arg)
{
    struct session *s = arg;
    /* (one loop, one replay) */
    static struct reader_fn fns[REPLAY_FNS];
    static struct reader_ev evs[REPLAY_FNS];
    struct reader_item item;
    unsigned int n = 0, k, max;
    uint64_t first;
    int counts = 1; /* (0: an item first, after a batch not all taken) */

    while (s->state == SESSION_RUNNING && n < SESSION_DIRECT_BATCH) {
        uint64_t room = UINT64_MAX;

        if (s->quiet) {
            if (s->next >= s->goal) {
                replay_loud(s);
                if (s->searching)
                    replay_searched(s);
                continue;
            }
            if (s->next >= s->until) {
                /* on to the next stretch that holds what they want */
                uint64_t until = s->goal, w = s->next;

                if (s->source.find != NULL)
                    w = s->source.find(s->source.arg, s->next, s->goal,
                                       s->mask, &until);
                if (w > s->next)
                    replay_seek(s, w);
                s->until = w < s->goal ? until : s->goal;
                if (s->until <= s->next)
                    s->until = s->next + 1;
                continue;
            }
            room = s->until - s->next;
        }
        if (s->ckpts != NULL && ckpts_due(s->ckpts, s->next))
            ckpts_take(s->ckpts, s->next);
        max = room < REPLAY_FNS ? (unsigned int)room : REPLAY_FNS;
        /* <design#dispatch>: functions in batches, without items (not
         * up to where a move stops: that one is an item) */
        if (s->direct && s->source.functions != NULL &&
            (s->stop_at == UINT64_MAX || s->quiet) &&
            (k = s->source.functions(s->source.arg, fns, max, &first)) > 0) {
            n += k;
            s->next = first + k;
            if (replay_fns(s, fns, k, first))
                return;
            continue;
        }
        if (counts && s->counting && s->source.counts != NULL &&
            (s->stop_at == UINT64_MAX || s->quiet) &&
            (k = s->source.counts(s->source.arg, evs, max, &first)) > 0) {
            n += k;
            s->next = first + k;
            counts = replay_counts(s, evs, k, first);
            continue;
        }
        counts = 1;
        if (!s->source.next(s->source.arg, &item, &s->seq)) {
            if (s->quiet) {
                /* (the source ended before the target) */
                s->next = s->goal;
                continue;
            }
            replay_ended(s, 0);
            return;
        }
        s->next = s->seq + 1;
        n++;
        /* every event may stop the replay */
        if (item.kind == READER_EVENT)
            item.stop = 0;
        s->arrived = !s->quiet && s->stop_at != UINT64_MAX &&
                     s->seq >= s->stop_at && item.kind == READER_EVENT;
        if (deliver(s, &item)) {
            s->arrived = 0;
            s->stop_at = UINT64_MAX;
            s->stop = -1;
            return;
        }
        s->arrived = 0;
        if (n >= SESSION_BATCH && !s->direct)
            break;
    }
}

void replay_init(struct session *s)
{
    s->stop_at = UINT64_MAX;
    s->goal = UINT64_MAX;
}

int replay_run(struct session *s)
{
    replay_generation(s);
    if (s->ckpts != NULL)
        ckpts_clear(s->ckpts);
    if (s->quiet)
        replay_loud(s);
    s->searching = 0;
    s->stop_at = UINT64_MAX;
    replay_seek(s, 0);
    s->valid = 1;
    s->seq = 0;
    s->state = SESSION_RUNNING;
    s->reading = 1;
    s->ended = 0;
    s->killed = 0;
    s->stop = -1;
    /* the state the play starts from */
    if (s->ckpts != NULL)
        ckpts_take(s->ckpts, 0);
    replay_watch(s, 1);
    changed(s);
    return 0;
}

void replay_stop(struct session *s, enum session_why why)
{
    if (s->quiet) {
        /* paused in the middle of a move: where the play stands */
        replay_loud(s);
        s->searching = 0;
    }
    s->stop_at = UINT64_MAX;
    s->state = SESSION_STOPPED;
    s->why = why;
    changed(s);
}

void replay_ended(struct session *s, int killed)
{
    replay_watch(s, 0);
    if (s->quiet)
        replay_loud(s);
    s->searching = 0;
    s->stop_at = UINT64_MAX;
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
    s->next = 0;
    s->valid = 1;
    s->generation = src->generation != NULL ? src->generation(src->arg) : 0;
}

void session_set_checkpoints(struct session *s, struct ckpts *ck)
{
    s->ckpts = ck;
}

struct ckpts *session_checkpoints(const struct session *s)
{
    return s->ckpts;
}

int session_replaying(const struct session *s)
{
    return s->source.next != NULL;
}

uint64_t session_position(const struct session *s)
{
    return s->seq;
}

int session_quiet(const struct session *s)
{
    return s->quiet;
}

int session_arrived(const struct session *s)
{
    return s->arrived;
}

uint64_t session_count(const struct session *s)
{
    return s->source.count != NULL ? s->source.count(s->source.arg)
                                   : UINT64_MAX;
}

/* A move begins: the play runs (a new one when it had ended). */
static int replay_move(struct session *s, char **cause)
{
    if (s->source.next == NULL) {
        xcause(cause, "only a recording can go back or to an event");
        return -1;
    }
    if (s->state == SESSION_IDLE) {
        s->ended = 0;
        s->killed = 0;
    }
    if (s->quiet)
        replay_loud(s);
    s->searching = 0;
    s->stop = -1;
    s->reading = 1;
    s->state = SESSION_RUNNING;
    replay_watch(s, 1);
    /* (said before anything is restored: what was done at the stop is
     * seen as it was) */
    changed(s);
    return 0;
}

int session_goto(struct session *s, uint64_t seq, char **cause)
{
    uint64_t count = session_count(s);

    if (s->source.next != NULL && count != UINT64_MAX && seq >= count) {
        xcause(cause, "the recording has items 0 to %llu: no item %llu",
               (unsigned long long)(count - 1), (unsigned long long)seq);
        return -1;
    }
    if (replay_move(s, cause) != 0)
        return -1;
    s->stop_at = seq;
    replay_from_best(s, seq);
    return 0;
}

int session_reverse(struct session *s, uint64_t before, char **cause)
{
    if (replay_move(s, cause) != 0)
        return -1;
    s->stop_at = UINT64_MAX;
    s->searching = 1;
    s->from = before;
    s->origin = before;
    if (s->ckpts != NULL && ckpts_count(s->ckpts) == 0 && s->valid &&
        s->next == 0)
        ckpts_take(s->ckpts, 0);
    replay_search_on(s);
    return 0;
}

int session_find_back(struct session *s, uint64_t before, uint64_t mask,
                      int (*pred)(void *arg, const struct reader_item *it),
                      void *arg, uint64_t *seq)
{
    uint64_t to = before, start, end;
    int found = 0;

    if (s->source.next == NULL)
        return 0;
    if (before > 0) {
        /* the item just before, most often the one (a step back) */
        struct reader_item item;
        uint64_t at;

        s->source.seek(s->source.arg, before - 1);
        if (s->source.next(s->source.arg, &item, &at) && at == before - 1 &&
            pred(arg, &item)) {
            *seq = at;
            s->source.seek(s->source.arg, s->next);
            return 1;
        }
    }
    while (to > 0 && !found) {
        struct reader_item item;
        uint64_t at;

        if (s->source.find_back == NULL) {
            start = 0;
            end = to;
        } else if (!s->source.find_back(s->source.arg, 0, to, mask, &start,
                                        &end)) {
            break;
        }
        s->source.seek(s->source.arg, start);
        while (s->source.next(s->source.arg, &item, &at) && at < end) {
            if (pred(arg, &item)) {
                *seq = at;
                found = 1;
            }
        }
        to = start;
    }
    /* the source where the play stands */
    s->source.seek(s->source.arg, s->next);
    return found;
}
