/* SPDX-License-Identifier: MIT */
/*
 * noosa-replay.c - a recording played as the program (<design#replay>):
 * the reader of recordings as the session's source, and the moves in it
 * that front ends ask for by name (goto, by number or time; step back,
 * reverse-step, reverse-continue) and the position a front end shows
 * (noosa.h).  The moves themselves, with the consumers' checkpoints,
 * are the session's (<design#checkpoints>).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "clock.h"
#include "dapto.h"
#include "dispatch.h"
#include "noosa-int.h"
#include "reader.h"
#include "recread.h"
#include "registry.h"
#include "xmalloc.h"

/* What the reader says of the file (a packet not whole, an index made
 * again) is said once, when it is first read, so it is said even in a
 * move's quiet part (<design#checkpoints>), which mutes only what the
 * consumers say again. */
static void replay_note(void *arg, const char *text)
{
    struct noosa *n = arg;
    int muted = n->sink.muted;

    n->sink.muted = 0;
    sink_fresh_line(&n->sink);
    sink_sayf(&n->sink, "note: %s\n", text);
    n->sink.muted = muted;
}

/* The recording's items; a function's entry or exit becomes the built-in
 * enter or leave with the name the recorder found (the program is gone:
 * its addresses mean nothing now). */
static int replay_next(void *arg, struct reader_item *item, uint64_t *seq)
{
    struct noosa *n = arg;
    const struct registry_event *ev;
    const char *name;
    uint32_t len;

    if (!recread_next(n->replay, item, seq))
        return 0;
    if (item->kind != READER_FUNCTION)
        return 1;
    ev = registry_event(recread_registry(n->replay),
                        item->enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE);
    name = recread_item_function(n->replay, &len);
    if (ev == NULL || name == NULL || ev->nparams != 1)
        return 1;
    n->replay_name->kind = DAPTO_K_STR;
    n->replay_name->interned = 1;
    n->replay_name->s = name;
    n->replay_name->len = len;
    item->kind = READER_EVENT;
    item->code = ev->code;
    item->event = ev;
    item->nvalues = 1;
    item->values = n->replay_name;
    return 1;
}

static unsigned int replay_functions(void *arg, struct reader_fn *fns,
                                     unsigned int max, uint64_t *seq)
{
    struct noosa *n = arg;

    return recread_functions(n->replay, fns, max, seq);
}

static unsigned int replay_counts(void *arg, struct reader_ev *evs,
                                  unsigned int max, uint64_t *seq)
{
    struct noosa *n = arg;
    const unsigned char *counted;
    unsigned int limit;

    if ((counted = dispatch_counted(n->dispatch, &limit)) == NULL)
        return 0;
    return recread_counts(n->replay, counted, limit, evs, max, seq);
}

static void replay_seek(void *arg, uint64_t seq)
{
    struct noosa *n = arg;

    recread_seek(n->replay, seq);
}

static uint64_t replay_find(void *arg, uint64_t from, uint64_t to,
                            uint64_t mask, uint64_t *until)
{
    struct noosa *n = arg;

    return recread_find(n->replay, from, to, mask, until);
}

static int replay_find_back(void *arg, uint64_t from, uint64_t to,
                            uint64_t mask, uint64_t *start, uint64_t *end)
{
    struct noosa *n = arg;

    return recread_find_back(n->replay, from, to, mask, start, end);
}

static uint64_t replay_count(void *arg)
{
    struct noosa *n = arg;

    return recread_count(n->replay);
}

static unsigned int replay_generation(void *arg)
{
    struct noosa *n = arg;

    return recread_generation(n->replay);
}

static uint64_t replay_number(void *arg, uint64_t seq)
{
    struct noosa *n = arg;

    return recread_event_number(n->replay, seq);
}

static struct registry *replay_registry(void *arg)
{
    struct noosa *n = arg;

    return recread_registry(n->replay);
}

int noosa_replay_open(struct noosa *n, char **cause)
{
    struct recread_opts ro;
    struct session_source src;
    const char *prog, *args;
    char *argv[2];

    memset(&ro, 0, sizeof ro);
    ro.note = replay_note;
    ro.arg = n;
    ro.index = RECREAD_INDEX_BUILD;
    if (recread_open(&n->replay, n->replay_dir, &ro, cause) != 0)
        return -1;
    n->replay_name = xcalloc(1, sizeof *n->replay_name);
    memset(&src, 0, sizeof src);
    src.next = replay_next;
    src.functions = replay_functions;
    src.counts = replay_counts;
    src.seek = replay_seek;
    src.find = replay_find;
    src.find_back = replay_find_back;
    src.count = replay_count;
    src.generation = replay_generation;
    src.number = replay_number;
    src.registry = replay_registry;
    src.pid = recread_pid(n->replay);
    recread_ended(n->replay, &src.status, &src.signo);
    src.name = n->replay_dir;
    src.arg = n;
    session_set_source(n->session, &src);
    prog = recread_env(n->replay, "program");
    argv[0] = xstrdup(prog != NULL ? prog : n->replay_dir);
    argv[1] = NULL;
    session_set_program(n->session, argv);
    args = recread_env(n->replay, "args");
    sink_sayf(&n->sink, "Recording %s of %s%s%s (format %s): `run' plays it.\n",
              n->replay_dir, argv[0], args != NULL && *args != '\0' ? " " : "",
              args != NULL ? args : "", recread_version(n->replay));
    free(argv[0]);
    /* <design#event-numbers>: found now rather than at the first stop */
    recread_events(n->replay);
    noosa_interface_changed(n);
    dispatch_flush(n->dispatch);
    return 0;
}

uint64_t noosa_replay_quiet(void *arg, int on)
{
    struct noosa *n = arg;

    if (on) {
        n->sink.muted = 1;
        return dispatch_quiet(n->dispatch, 1);
    }
    dispatch_quiet(n->dispatch, 0);
    n->sink.muted = 0;
    if (n->sink.muted_errors > 0) {
        sink_fresh_line(&n->sink);
        sink_sayf(&n->sink, "note: %lu error%s while the events before this "
                  "move's were handed over again (not shown): %s\n",
                  n->sink.muted_errors, n->sink.muted_errors == 1 ? "" : "s",
                  n->sink.muted_first);
        free(n->sink.muted_first);
        n->sink.muted_first = NULL;
        n->sink.muted_errors = 0;
    }
    return 0;
}

/* The moves. */

static int not_replay(struct noosa *n, char **cause)
{
    if (n->replay != NULL)
        return 0;
    xcause(cause, "not a recording: only a recording goes back or to an "
           "event");
    return -1;
}

uint64_t noosa_event_at(const struct noosa *n)
{
    if (n->replay == NULL)
        return session_position(n->session);
    return recread_event_number(n->replay, session_position(n->session));
}

/* <design#event-numbers> Event NUMBER, as noosa dump numbers it, is the
 * reader's item SEQ, which the session moves to. */
int noosa_goto(struct noosa *n, uint64_t number, char **cause)
{
    uint64_t count, seq;

    if (not_replay(n, cause) != 0)
        return -1;
    if (number == 0) {
        xcause(cause, "events are numbered from 1 (as noosa dump numbers "
               "them)");
        return -1;
    }
    count = recread_events(n->replay);
    seq = recread_event_seq(n->replay, number);
    if (seq == UINT64_MAX) {
        /* past the end: said, and the play stays where it is */
        if (count == 0)
            xcause(cause, "the recording has no events: no event %llu",
                   (unsigned long long)number);
        else
            xcause(cause, "the recording has %llu event%s (numbered 1 to "
                   "%llu, as noosa dump numbers them): no event %llu",
                   (unsigned long long)count, count == 1 ? "" : "s",
                   (unsigned long long)count, (unsigned long long)number);
        return -1;
    }
    return session_goto(n->session, seq, cause);
}

int noosa_goto_time(struct noosa *n, int64_t ns, char **cause)
{
    uint64_t seq;
    char at[32], last[32];

    if (not_replay(n, cause) != 0)
        return -1;
    seq = recread_seek_time(n->replay, ns > 0 ? (uint64_t)ns : 0);
    if (seq == recread_count(n->replay)) {
        clock_format(ns, at, sizeof at);
        clock_format((int64_t)recread_last_time(n->replay), last,
                     sizeof last);
        xcause(cause, "no event at or after %s: the recording's last is at "
               "%s", at, last);
        return -1;
    }
    return session_goto(n->session, seq, cause);
}

/* Where a move back starts from: the event stopped at, or past the last
 * when the play has ended.  -1 with *cause when there is none (the play
 * runs, or has not begun). */
static int back_from(struct noosa *n, const char *what, uint64_t *before,
                     char **cause)
{
    int status, signo;

    if (not_replay(n, cause) != 0)
        return -1;
    switch (session_state(n->session)) {
    case SESSION_RUNNING:
        xcause(cause, "%s: the recording is being played (stop it first)",
               what);
        return -1;
    case SESSION_IDLE:
        if (!session_ended(n->session, &status, &signo)) {
            xcause(cause, "%s: the recording is not being played (run or "
                   "goto first)", what);
            return -1;
        }
        *before = recread_count(n->replay);
        return 0;
    case SESSION_STOPPED:
        *before = session_position(n->session);
        return 0;
    }
    return -1;
}

/* Whether IT is an event of the program. */
static int an_event(void *arg, const struct reader_item *it)
{
    (void)arg;
    return it->kind == READER_EVENT && it->event != NULL;
}

int noosa_step_back(struct noosa *n, char **cause)
{
    uint64_t before, seq;

    if (back_from(n, "step back", &before, cause) != 0)
        return -1;
    if (!session_find_back(n->session, before, READER_ALL_CODES &
                                                   ~READER_ITEMS_BIT,
                           an_event, NULL, &seq)) {
        xcause(cause, "step back: at the first event already");
        return -1;
    }
    return session_goto(n->session, seq, cause);
}

/* Whether IT is an event that step stops at (a visible one). */
static int visible(void *arg, const struct reader_item *it)
{
    (void)arg;
    return it->kind == READER_EVENT && it->event != NULL &&
           it->event->visible;
}

int noosa_reverse_step(struct noosa *n, char **cause)
{
    struct registry *reg;
    uint64_t before, seq, mask = 0;

    if (back_from(n, "reverse-step", &before, cause) != 0)
        return -1;
    reg = recread_registry(n->replay);
    for (unsigned int code = 0; code < registry_event_limit(reg); code++) {
        const struct registry_event *ev = registry_event(reg, code);

        if (ev != NULL && ev->visible)
            mask |= reader_code_bit(code);
    }
    if (mask == 0 ||
        !session_find_back(n->session, before, mask, visible, NULL, &seq)) {
        if (session_state(n->session) == SESSION_STOPPED)
            xcause(cause, "reverse-step: no visible event before event %llu",
                   (unsigned long long)noosa_event_at(n));
        else
            xcause(cause, "reverse-step: no visible event in the "
                   "recording");
        return -1;
    }
    return session_goto(n->session, seq, cause);
}

int noosa_reverse_continue(struct noosa *n, char **cause)
{
    uint64_t before;

    if (back_from(n, "reverse-continue", &before, cause) != 0)
        return -1;
    return session_reverse(n->session, before, cause);
}

int noosa_position(const struct noosa *n, struct noosa_position *pos)
{
    memset(pos, 0, sizeof *pos);
    if (n->replay == NULL)
        return 0;
    /* <design#event-numbers> */
    pos->count = recread_events(n->replay);
    pos->last_ns = (int64_t)recread_last_time(n->replay);
    pos->stopped = session_state(n->session) == SESSION_STOPPED;
    pos->event = noosa_event_at(n);
    pos->ns = n->stop_ns;
    pos->checkpoints = ckpts_count(n->ckpts);
    pos->checkpoint_bytes = ckpts_bytes(n->ckpts);
    pos->indexed = recread_indexed(n->replay);
    return 1;
}
