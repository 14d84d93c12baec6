/* SPDX-License-Identifier: MIT */
/*
 * recread.c - the reader of recordings (recread.h, <design#recordings>).
 * Each stream file is mapped and cut into packets first (recstream.c);
 * noosa's stream is then read whole for the definitions; events come out
 * of a merge of the streams by time, noosa's first at equal times.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "dapto.h"
#include "protocol.h"
#include "recfile.h"
#include "recread-int.h"
#include "xmalloc.h"

void rnote(struct recread *r, const char *fmt, ...)
{
    va_list ap;
    char *text;

    if (r->mute)
        return;
    va_start(ap, fmt);
    text = xvasprintf(fmt, ap);
    va_end(ap);
    if (r->collect) {
        r->pnotes = xreallocarray(r->pnotes, r->npnotes + 1,
                                  sizeof *r->pnotes);
        r->pnotes[r->npnotes++] = xstrdup(text);
    }
    if (r->opts.note != NULL)
        r->opts.note(r->opts.arg, text);
    free(text);
}

/* Find the stream whose event comes next (r->best: the earliest; of
 * equal times, the first stream's), and up to when it stays so
 * (r->last). */
void recread_best(struct recread *r)
{
    struct rstream *best = NULL;

    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];

        if (s->have && (best == NULL || s->ts < best->ts))
            best = s;
    }
    r->best = best;
    r->last = UINT64_MAX;
    for (size_t i = 0; best != NULL && i < r->nstreams; i++) {
        struct rstream *o = &r->streams[i];
        /* (an earlier stream's next is after best's: o->ts > 0) */
        uint64_t t = o < best ? o->ts - 1 : o->ts;

        if (o != best && o->have && t < r->last)
            r->last = t;
    }
}

/* The stream that holds the next event, or NULL at the end. */
struct rstream *recread_pick(struct recread *r)
{
    struct rstream *s = r->cur;

    if (s != NULL) {
        r->cur = NULL;
        recstream_advance(r, s);
        if (!s->have || s->ts > r->last)
            recread_best(r);
    }
    return r->best;
}

/* Every stream from its start. */
static void rrewind(struct recread *r)
{
    r->seq = 0;
    r->cur = NULL;
    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];

        s->pi = 0;
        s->pos = s->end = 0;
        recstream_advance(r, s);
    }
    recread_best(r);
}

/* Step over the next N events without giving them, only those at times
 * before BEFORE (the first at or after it is the next): how many there
 * were. */
uint64_t recread_skip(struct recread *r, uint64_t n, uint64_t before)
{
    uint64_t done = 0, codes = 0, ts;

    while (done < n) {
        struct rstream *s = recread_pick(r);
        uint64_t last;

        if (s == NULL || s->ts >= before)
            break;
        r->cur = s; /* what S holds is given */
        r->seq++;
        done++;
        last = r->last < before - 1 ? r->last : before - 1;
        if (done < n && s->pos < s->end) {
            uint64_t k = n - done;
            unsigned int got = recstream_skip_run(
                r, s, last, k > UINT_MAX ? UINT_MAX : (unsigned int)k, &codes,
                &ts);

            r->seq += got;
            done += got;
        }
    }
    return done;
}

void recread_rewind(struct recread *r)
{
    recread_seek(r, 0);
}

/* The index made again when a packet it called whole was not
 * (recstream_enter()): the streams cut and checked whole, then indexed;
 * event numbers may have moved (recread_generation()). */
static void rreindex(struct recread *r)
{
    r->index_stale = 0;
    r->indexed = 0;
    for (size_t i = 0; i < r->npnotes; i++)
        free(r->pnotes[i]);
    r->npnotes = 0;
    r->collect = 1;
    for (size_t i = 1; i < r->nstreams; i++)
        recstream_packets(r, &r->streams[i]);
    r->collect = 0;
    recindex_build(r);
    if (r->indexed)
        recindex_save(r);
    r->generation++;
}

void recread_seek(struct recread *r, uint64_t seq)
{
    if (r->index_stale)
        rreindex(r);
    if (r->indexed) {
        recindex_seek(r, seq);
        if (!r->index_stale)
            return;
        /* its sync point did not hold (said): made again, and the move
         * made with that one; read from the start if that fails too */
        rreindex(r);
        if (r->indexed) {
            recindex_seek(r, seq);
            if (!r->index_stale)
                return;
        }
        r->index_stale = 0;
        r->indexed = 0;
    }
    rrewind(r);
    recread_skip(r, seq, UINT64_MAX);
}

uint64_t recread_seek_time(struct recread *r, uint64_t ns)
{
    uint64_t from = 0;

    if (r->index_stale)
        rreindex(r);
    if (r->indexed && r->nsyncs > 0) {
        /* the last sync point before NS: the first event at NS is after
         * it (and before the next) */
        size_t lo = 0, hi = r->nsyncs;

        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;

            if (r->syncs[mid].ts < ns)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo > 0)
            from = r->syncs[lo - 1].seq;
    }
    {
        unsigned int gen = r->generation;

        recread_seek(r, from);
        if (r->generation != gen)
            return recread_seek_time(r, ns); /* (numbered again) */
    }
    if (ns > 0)
        recread_skip(r, UINT64_MAX, ns);
    return r->seq;
}

uint64_t recread_position(const struct recread *r)
{
    return r->seq;
}

uint64_t recread_count(const struct recread *r)
{
    return r->indexed ? r->nevents : UINT64_MAX;
}

uint64_t recread_last_time(const struct recread *r)
{
    uint64_t last = 0;

    for (size_t i = 0; r->indexed && i < r->nstreams; i++) {
        const struct rstream *s = &r->streams[i];

        if (s->npackets > 0 && s->packets[s->npackets - 1].last_ts > last)
            last = s->packets[s->npackets - 1].last_ts;
    }
    return last;
}

unsigned int recread_generation(const struct recread *r)
{
    return r->generation;
}

int recread_indexed(const struct recread *r)
{
    return r->indexed;
}

uint64_t recread_find(const struct recread *r, uint64_t from, uint64_t to,
                      uint64_t mask, uint64_t *until)
{
    uint64_t every = r->every;
    size_t j;

    *until = to;
    if (!r->indexed || from >= to)
        return from < to ? from : to;
    for (j = from / every; j < r->nsyncs && j * every < to; j++) {
        if (r->syncs[j].codes & mask) {
            uint64_t at = j * every > from ? j * every : from;

            while (j < r->nsyncs && (r->syncs[j].codes & mask) &&
                   j * every < to)
                j++;
            *until = j * every < to ? j * every : to;
            return at;
        }
    }
    return to;
}

int recread_find_back(const struct recread *r, uint64_t from, uint64_t to,
                      uint64_t mask, uint64_t *start, uint64_t *end)
{
    uint64_t every = r->every;
    size_t j;

    if (from >= to)
        return 0;
    if (!r->indexed) {
        *start = from;
        *end = to;
        return 1;
    }
    for (j = (to - 1) / every + 1; j-- > from / every;) {
        if (j < r->nsyncs && (r->syncs[j].codes & mask)) {
            *end = (j + 1) * every < to ? (j + 1) * every : to;
            while (j > from / every && (r->syncs[j - 1].codes & mask))
                j--;
            *start = j * every > from ? j * every : from;
            return 1;
        }
    }
    return 0;
}

int recread_next(struct recread *r, struct reader_item *item, uint64_t *seq)
{
    struct rstream *best = recread_pick(r);

    r->cur = best;
    if (best == NULL)
        return 0;
    *item = best->item;
    if (seq != NULL)
        *seq = r->seq;
    r->seq++;
    return 1;
}

/* Event numbers <design#event-numbers>: the reader numbers every item
 * (the index's sync points, the moves, the checkpoints use these); the
 * events the user sees are numbered from 1 without the items that are
 * not events, translated here by the numbers of those (few) items. */

int recread_is_event(const struct reader_item *it)
{
    return it->kind == READER_EVENT || it->kind == READER_FUNCTION;
}

void recread_other(struct recread *r, uint64_t seq)
{
    r->others = xgrow(r->others, r->nothers, &r->aothers, sizeof *r->others);
    r->others[r->nothers++] = seq;
}

/* The items that are not events, where the index's pass did not see
 * them (an index read from its file; no index), found by a reader of its
 * own, so that R's place, the item it gave, what it said of the file and
 * its index stay as they were (a translation may come at any time): with
 * an index, only its stretches that may hold one are read. */
static void rothers(struct recread *r)
{
    struct recread_opts o = {NULL, NULL, RECREAD_INDEX_USE};
    struct recread *w;
    struct reader_item it;
    uint64_t at, from = 0, until, to, q;
    char *cause = NULL;

    r->nothers = 0;
    r->others_known = 1;
    r->items = r->indexed ? r->nevents : 0;
    if (recread_open(&w, r->dir, &o, &cause) != 0) {
        free(cause); /* (R said what it could not read) */
        return;
    }
    w->keep_index = 0; /* (its index made again is not written) */
    w->mute++;
    to = w->indexed ? w->nevents : UINT64_MAX;
    while ((at = recread_find(w, from, to, READER_ITEMS_BIT, &until)) < to) {
        recread_seek(w, at);
        while (w->seq < until && recread_next(w, &it, &q))
            if (!recread_is_event(&it))
                recread_other(r, q);
        if (w->seq < until)
            break; /* the end */
        from = until;
    }
    if (!r->indexed)
        r->items = w->indexed ? w->nevents : w->seq;
    recread_free(w);
}

/* How many of the items that are not events come before item SEQ. */
static uint64_t rothers_before(struct recread *r, uint64_t seq)
{
    size_t lo = 0, hi;

    if (!r->others_known)
        rothers(r);
    hi = r->nothers;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (r->others[mid] < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t recread_event_number(struct recread *r, uint64_t seq)
{
    return seq + 1 - rothers_before(r, seq + 1);
}

uint64_t recread_event_seq(struct recread *r, uint64_t number)
{
    size_t lo = 0, hi;
    uint64_t seq;

    if (number == 0 || number > recread_events(r))
        return UINT64_MAX;
    /* others[i] - i never goes down: the items that are not events
     * before event NUMBER are those with others[i] - i < NUMBER */
    hi = r->nothers;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (r->others[mid] - mid < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    seq = number - 1 + lo;
    return seq;
}

uint64_t recread_events(struct recread *r)
{
    if (!r->others_known)
        rothers(r);
    return r->items - r->nothers;
}

uint64_t recread_item_bit(const struct reader_item *it)
{
    switch (it->kind) {
    case READER_EVENT:
        return reader_code_bit(it->code);
    case READER_FUNCTION:
        return reader_code_bit(it->enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE);
    default:
        return READER_ITEMS_BIT;
    }
}

/* Whether the event S holds is a function's entry or exit that
 * recread_functions() gives. */
static inline int rfn_is(const struct recread *r, const struct rstream *s)
{
    const struct reader_item *it = &s->item;

    return it->kind == READER_FUNCTION ||
           (it->kind == READER_EVENT &&
            (it->code == DAPTO_EV_ENTER || it->code == DAPTO_EV_LEAVE) &&
            it->event->aspect == r->builtin);
}

/* The entry or exit S holds (rfn_is()) as *FN. */
static void rfn_item(const struct recread *r, const struct rstream *s,
                     struct reader_fn *fn)
{
    const struct reader_item *it = &s->item;

    if (it->kind == READER_FUNCTION) {
        fn->name = r->funcs[s->func].name;
        fn->len = r->funcs[s->func].len;
        fn->enter = it->enter;
    } else {
        fn->name = it->values[0].s;
        fn->len = it->values[0].len;
        fn->enter = it->code == DAPTO_EV_ENTER;
    }
    fn->function = 0;
    fn->ns = it->ns;
    fn->tid = s->tid;
}

/* recread_functions() from S, which holds an entry or exit, and what
 * follows it in its packet (out of line: the caller's test is on every
 * item's way).  The run ends where the packet does or at an event it
 * does not take: the next call reads that the general way (rpick()), so
 * that what is said of it is said after the events before it are given,
 * as one by one. */
static __attribute__((noinline)) unsigned int rfn_take(struct recread *r,
                                                       struct rstream *s,
                                                       struct reader_fn *fns,
                                                       unsigned int max,
                                                       uint64_t *seq)
{
    unsigned int n;

    rfn_item(r, s, &fns[0]);
    if (seq != NULL)
        *seq = r->seq;
    r->cur = s; /* what S holds is given */
    n = 1 + recstream_fn_run(r, s, r->last, fns + 1, max - 1);
    r->seq += n;
    return n;
}

unsigned int recread_functions(struct recread *r, struct reader_fn *fns,
                               unsigned int max, uint64_t *seq)
{
    struct rstream *s;

    if (!r->named || max == 0)
        return 0;
    s = recread_pick(r);
    if (s == NULL || !rfn_is(r, s))
        return 0;
    return rfn_take(r, s, fns, max, seq);
}

unsigned int recread_counts(struct recread *r, const unsigned char *counted,
                            unsigned int limit, struct reader_ev *evs,
                            unsigned int max, uint64_t *seq)
{
    struct rstream *s = recread_pick(r);
    unsigned int n;

    if (s == NULL || max == 0 || s->item.kind != READER_EVENT ||
        s->item.code >= limit || !counted[s->item.code] || rfn_is(r, s))
        return 0;
    evs[0].event = s->item.event;
    evs[0].ns = s->item.ns;
    evs[0].tid = s->tid;
    if (seq != NULL)
        *seq = r->seq;
    r->cur = s; /* what S holds is given */
    /* (the run ends with its packet, as rfn_take()'s) */
    n = 1 + recstream_count_run(r, s, counted, limit, evs + 1, max - 1);
    r->seq += n;
    return n;
}

/* Opening. */

int recread_is_recording(const char *dir)
{
    char *path = xasprintf("%s/%s", dir, RECFILE_METADATA);
    struct stat st;
    int rc = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
             access(path, R_OK) == 0;

    free(path);
    return rc;
}

static int rstream_cmp(const void *a, const void *b)
{
    const struct rstream *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return strcmp(x->name, y->name);
}

int recread_open(struct recread **out, const char *dir,
                 const struct recread_opts *opts, char **cause)
{
    struct recread *r;
    struct stat st;
    char *path;
    DIR *d;
    struct dirent *de;
    size_t cap = 0;

    if (stat(dir, &st) != 0) {
        xcause(cause, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        xcause(cause, "%s is not a recording (not a directory)", dir);
        return -1;
    }
    path = xasprintf("%s/%s", dir, RECFILE_METADATA);
    if (access(path, F_OK) != 0) {
        xcause(cause, "%s is not a recording (it has no %s)", dir,
               RECFILE_METADATA);
        free(path);
        return -1;
    }
    r = xcalloc(1, sizeof *r);
    if (opts != NULL)
        r->opts = *opts;
    r->dir = xstrdup(dir);
    if (recmeta_read(r, path, cause) != 0) {
        free(path);
        goto fail;
    }
    free(path);

    d = opendir(dir);
    if (d == NULL) {
        xcause(cause, "%s: %s", dir, strerror(errno));
        goto fail;
    }
    while ((de = readdir(d)) != NULL) {
        struct rstream s;
        size_t plen = strlen(RECFILE_THREAD_PREFIX);

        memset(&s, 0, sizeof s);
        if (strcmp(de->d_name, RECFILE_NOOSA_STREAM) == 0) {
            s.tid = 0;
        } else if (strncmp(de->d_name, RECFILE_THREAD_PREFIX, plen) == 0) {
            char *end;
            long tid = strtol(de->d_name + plen, &end, 10);

            if (*end != '\0' || tid <= 0)
                continue;
            s.tid = (pid_t)tid;
        } else {
            continue;
        }
        s.name = xstrdup(de->d_name);
        path = xasprintf("%s/%s", dir, de->d_name);
        if (recstream_map(r, &s, path) != 0) {
            free(path);
            free(s.name);
            continue;
        }
        free(path);
        r->streams = xgrow(r->streams, r->nstreams, &cap, sizeof *r->streams);
        r->streams[r->nstreams++] = s;
    }
    closedir(d);
    qsort(r->streams, r->nstreams, sizeof *r->streams, rstream_cmp);
    r->have_noosa = r->nstreams > 0 && r->streams[0].tid == 0;
    if (!r->have_noosa) {
        xcause(cause, "%s is not a recording (it has no %s)", dir,
               RECFILE_NOOSA_STREAM);
        goto fail;
    }

    r->reg = registry_create();
    clock_init(&r->clock, 0);
    r->clock.start_ns = 0;
    r->reader = reader_create(r->reg, &r->clock, 0);
    /* noosa's own stream is read whole (the definitions); the others are
     * cut into packets as the index says, else here, every packet
     * checked */
    recstream_packets(r, &r->streams[0]);
    if (r->opts.index == RECREAD_INDEX_NONE || !recindex_load(r)) {
        r->collect = 1;
        for (size_t i = 1; i < r->nstreams; i++)
            recstream_packets(r, &r->streams[i]);
        r->collect = 0;
    }
    for (size_t i = 0; i < r->nstreams; i++) {
        if (r->streams[i].discarded > 0) {
            rnote(r, "%s: its %llu earlier events were not kept (a flight "
                  "recording)", r->streams[i].name,
                  (unsigned long long)r->streams[i].discarded);
            r->dropped += r->streams[i].discarded;
        }
    }
    recmeta_classes(r);
    recstream_definitions(r, &r->streams[0]);
    {
        const struct registry_event *e =
            registry_event(r->reg, DAPTO_EV_ENTER);

        if (e != NULL && strcmp(e->aspect->name, "dapto") == 0 &&
            e->nparams == 1 && e->params[0].kind == DAPTO_K_STR) {
            const struct registry_event *l =
                registry_event(r->reg, DAPTO_EV_LEAVE);

            if (l != NULL && l->aspect == e->aspect && l->nparams == 1 &&
                l->params[0].kind == DAPTO_K_STR)
                r->builtin = e->aspect;
        }
        r->named = r->builtin != NULL && r->builtin->event_base == 0;
    }
    if (r->lost > 0)
        rnote(r, "the recording says %llu events were lost",
              (unsigned long long)r->lost);
    if (!r->indexed && r->opts.index == RECREAD_INDEX_BUILD) {
        recindex_build(r);
        if (r->indexed)
            recindex_save(r);
    }
    recread_rewind(r);
    *out = r;
    return 0;

fail:
    recread_free(r);
    return -1;
}

void recread_free(struct recread *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];

        if (s->map != NULL)
            munmap(s->map, s->size);
        free(s->packets);
        free(s->values);
        free(s->name);
    }
    free(r->streams);
    for (size_t i = 0; i < r->nnames; i++)
        free(r->names[i].text);
    free(r->names);
    for (size_t i = 0; i < r->nfuncs; i++)
        free(r->funcs[i].name);
    free(r->funcs);
    free(r->aspects);
    free(r->aspect_at);
    free(r->syncs);
    free(r->others);
    for (size_t i = 0; i < r->npnotes; i++)
        free(r->pnotes[i]);
    free(r->pnotes);
    for (size_t i = 0; i < r->nclasses; i++)
        free(r->classes[i].name);
    free(r->classes);
    reader_free(r->reader);
    registry_free(r->reg);
    free(r->raw);
    free(r->metadata);
    free(r->env_value);
    free(r->version);
    free(r->dir);
    free(r);
}

struct registry *recread_registry(const struct recread *r)
{
    return r->reg;
}

const char *recread_version(const struct recread *r)
{
    return r->version;
}

pid_t recread_pid(const struct recread *r)
{
    return r->pid;
}

int recread_ended(const struct recread *r, int *status, int *signo)
{
    *status = r->status;
    *signo = r->signo;
    return r->ended;
}

uint64_t recread_lost(const struct recread *r)
{
    return r->lost;
}

uint64_t recread_dropped(const struct recread *r)
{
    return r->dropped;
}

const char *recread_item_function(const struct recread *r, uint32_t *len)
{
    const struct rfunc *f;

    if (r->cur == NULL || r->cur->item.kind != READER_FUNCTION ||
        r->cur->func >= r->nfuncs)
        return NULL;
    f = &r->funcs[r->cur->func];
    *len = f->len;
    return f->name;
}

const char *recread_function(const struct recread *r, uint64_t addr)
{
    for (size_t i = 0; i < r->nfuncs; i++)
        if (r->funcs[i].name != NULL && r->funcs[i].addr == addr)
            return r->funcs[i].name;
    return NULL;
}

size_t recread_nthreads(const struct recread *r)
{
    return r->have_noosa ? r->nstreams - 1 : r->nstreams;
}

pid_t recread_thread(const struct recread *r, size_t i)
{
    return r->streams[i + (r->have_noosa ? 1 : 0)].tid;
}
