/* SPDX-License-Identifier: MIT */
/*
 * recording-reader.c - libFuzzer harness for the reader of recordings
 * (src/record/recread.c): packets, their checks, noosa's own event
 * classes (aspect descriptions, names, functions) and the program's
 * events, on arbitrary bytes, read in full and then exported.
 *
 * Input: a 32-bit little-endian length L, L bytes of noosa's stream, then
 * the stream of thread 1.  The metadata is a fixed one of the current
 * version; the files go into a directory of the harness's own.  When bit
 * 31 of L is set, the harness makes the check of every packet it can
 * find right before it writes a stream, so that mutations reach the
 * events and not only the packets' checks.  When bit 30 is set, the
 * thread's bytes are also the stream of a thread 2 (so that two streams
 * are merged, their times equal).
 *
 * The events are read four ways: one by one (recread_next()); with runs
 * of function entries and exits taken by recread_functions() and of the
 * program's events by recread_counts() (every event counted; runs of at
 * most 1, 2, 3, 5, 64 and 1024 in turn); with runs of functions of at
 * most 1024; with runs of events only.  They must give the same events
 * in the same order, numbered alike, and say the same about what they
 * skip; and the order must be the merge of the streams by time (of
 * equal times, the stream of the lower thread id first, noosa's own as
 * 0), done here again the plain way.
 *
 * Then the moves (recread_seek(), recread_seek_time()): to every event
 * (or to events spread over a long input) and past the last, each must
 * give the event read one by one there; and again with the recording
 * opened anew, its index read from where the first opening kept it.
 * Then that index with a byte changed and its check made right again
 * (an index this noosa did not make): whether it is used or made again,
 * every move must still give the event read one by one.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "recfile.h"
#include "recread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;

static void put(const char *name, const void *buf, size_t len)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL)
        abort();
    if (len > 0)
        fwrite(buf, 1, len, f);
    fclose(f);
}

/* Make the check of each packet in BUF right. */
static void fix_checks(uint8_t *buf, size_t len)
{
    size_t off = 0;

    while (off + RECFILE_PACKET_HEADER <= len) {
        uint64_t bits = recfile_get64(buf + off + RECFILE_OFF_PACKET);
        size_t plen = (size_t)(bits / 8);

        if (recfile_get32(buf + off) != RECFILE_MAGIC ||
            plen < RECFILE_PACKET_HEADER || plen > len - off)
            return;
        recfile_put32(buf + off + RECFILE_OFF_CHECK, 0);
        recfile_put32(buf + off + RECFILE_OFF_CHECK,
                      recfile_check(buf + off, plen));
        off += plen;
    }
}

static void cleanup(void)
{
    static const char *const names[] = {
        "metadata", RECFILE_NOOSA_STREAM, RECFILE_THREAD_PREFIX "1",
        RECFILE_THREAD_PREFIX "2", "export.json", "export.pb",
        RECFILE_INDEX};
    char path[512];

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* An event given: its thread (stream), time and code. */
struct given {
    pid_t tid;
    uint64_t ts;
    unsigned int code;
};

/* What a way of reading gave, as text, and the events in order. */
struct said {
    char *text;
    size_t len, cap;
    struct given *ev;
    size_t nev, aev;
};

static void give(struct said *w, pid_t tid, int64_t ns, unsigned int code)
{
    if (w->nev == w->aev) {
        w->aev = w->aev > 0 ? 2 * w->aev : 256;
        w->ev = realloc(w->ev, w->aev * sizeof *w->ev);
        if (w->ev == NULL)
            abort();
    }
    w->ev[w->nev].tid = tid;
    w->ev[w->nev].ts = (uint64_t)ns;
    w->ev[w->nev].code = code;
    w->nev++;
}

/* Whether the events of W are the merge of their streams: each stream's
 * events kept in the order given, the merge taking at each step the
 * stream whose next is earliest, of equal times the one of the lowest
 * thread id. */
static int merged(const struct said *w)
{
    pid_t tids[8];
    size_t at[8], nt = 0;

    /* the streams by thread id; at[i], the place of stream i's next */
    for (size_t k = 0; k < w->nev; k++) {
        size_t i = 0;

        while (i < nt && tids[i] != w->ev[k].tid)
            i++;
        if (i < nt)
            continue;
        if (nt == 8)
            abort();
        for (i = nt++; i > 0 && tids[i - 1] > w->ev[k].tid; i--) {
            tids[i] = tids[i - 1];
            at[i] = at[i - 1];
        }
        tids[i] = w->ev[k].tid;
        at[i] = k;
    }
    for (size_t k = 0; k < w->nev; k++) {
        size_t best = nt;

        for (size_t i = 0; i < nt; i++)
            if (at[i] < w->nev &&
                (best == nt || w->ev[at[i]].ts < w->ev[at[best]].ts))
                best = i;
        if (best == nt || at[best] != k)
            return 0;
        do
            at[best]++;
        while (at[best] < w->nev && w->ev[at[best]].tid != tids[best]);
    }
    return 1;
}

static void say(struct said *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(struct said *w, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(w->text + w->len, w->cap - w->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            abort();
        if (w->len + (size_t)n < w->cap)
            break;
        w->cap = 2 * (w->len + (size_t)n + 1);
        w->text = realloc(w->text, w->cap);
        if (w->text == NULL)
            abort();
    }
    w->len += (size_t)n;
}

static struct said *saying; /* where notes go while reading */

static void note(void *arg, const char *text)
{
    (void)arg;
    if (saying != NULL)
        say(saying, "note %s\n", text);
}

/* An entry or exit as it is said either way. */
static void say_fn(struct said *w, uint64_t seq, int enter, pid_t tid,
                   int64_t ns, const char *name)
{
    say(w, "%llu %s %d %lld %s\n", (unsigned long long)seq,
        enter ? "enter" : "leave", (int)tid, (long long)ns, name);
}

/* An item's code as the ways compare them: functions as the built-in
 * enter and leave they are given as. */
static unsigned int item_code(const struct reader_item *it)
{
    if (it->kind == READER_FUNCTION)
        return it->enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE;
    return it->code;
}

/* The moves: to event K of W (every one, or spread over a long input)
 * and past the last, by number and by time, each giving what reading
 * one by one gave there. */
static void check_moves(struct recread *r, const struct said *w)
{
    size_t step = w->nev > 4096 ? w->nev / 1024 : 1;
    struct reader_item it;
    uint64_t seq;

    saying = NULL;
    for (size_t k = w->nev + 1; k-- > 0;) {
        if (k % step != 0 && k != w->nev && k + 1 != w->nev)
            continue;
        recread_seek(r, k);
        if (k == w->nev) {
            if (recread_next(r, &it, &seq))
                abort();
            continue;
        }
        if (!recread_next(r, &it, &seq) || seq != k ||
            it.tid != w->ev[k].tid || (uint64_t)it.ns != w->ev[k].ts ||
            item_code(&it) != w->ev[k].code) {
            fprintf(stderr, "recording-reader: goto %zu gave %llu (thread "
                    "%d, %lld), not thread %d, %llu\n", k,
                    (unsigned long long)seq, (int)it.tid, (long long)it.ns,
                    (int)w->ev[k].tid, (unsigned long long)w->ev[k].ts);
            abort();
        }
        if (k % (step * 7) == 0) {
            /* the first event at or after its time */
            size_t j = 0;

            while (j < w->nev && w->ev[j].ts < w->ev[k].ts)
                j++;
            if (recread_seek_time(r, w->ev[k].ts) != j ||
                !recread_next(r, &it, &seq) || seq != j)
                abort();
        }
    }
}

/* Event numbers <design#event-numbers>: the events alone, from 1, both
 * ways, as a reading one by one counts them. */
static void check_numbers(struct recread *r)
{
    struct reader_item it;
    uint64_t seq, events = 0, total = recread_events(r);

    recread_rewind(r);
    while (recread_next(r, &it, &seq)) {
        if (recread_is_event(&it) && recread_event_seq(r, ++events) != seq)
            abort();
        if (recread_event_number(r, seq) != events)
            abort();
    }
    if (events != total || recread_event_seq(r, 0) != UINT64_MAX ||
        recread_event_seq(r, total + 1) != UINT64_MAX)
        abort();
}

/* Every event counted, for recread_counts(). */
static unsigned char counted[DAPTO_EVENT_CODE_MAX + 1];

/* Read R from its start into W: one by one (MAX 0), or with runs of
 * entries and exits of at most MAX (-1: 1, 2, 3, 5, 64, 1024 in turn),
 * and runs of counted events too (COUNTS; MAX -2: those alone). */
static void read_all(struct recread *r, struct said *w, int max, int counts)
{
    static const unsigned int maxes[] = {1, 2, 3, 5, 64, 1024};
    struct reader_fn fns[1024];
    struct reader_ev evs[1024];
    struct reader_item it;
    uint64_t seq, first, count = 0;
    unsigned int turn = 0;

    saying = w;
    recread_rewind(r);
    for (;;) {
        unsigned int n = 0;

        if (max != 0 && max != -2)
            n = recread_functions(r, fns,
                                  max > 0 ? (unsigned int)max
                                          : maxes[turn++ % 6], &first);
        if (n > 0) {
            if (first != count)
                abort();
            for (unsigned int i = 0; i < n; i++) {
                say_fn(w, count++, fns[i].enter, fns[i].tid, fns[i].ns,
                       fns[i].name);
                give(w, fns[i].tid, fns[i].ns,
                     fns[i].enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE);
            }
            continue;
        }
        if (counts)
            n = recread_counts(r, counted, sizeof counted, evs,
                               maxes[turn++ % 6], &first);
        if (n > 0) {
            if (first != count)
                abort();
            for (unsigned int i = 0; i < n; i++) {
                say(w, "%llu kind %d code %u %d %lld\n",
                    (unsigned long long)count++, (int)READER_EVENT,
                    evs[i].event->code, (int)evs[i].tid,
                    (long long)evs[i].ns);
                give(w, evs[i].tid, evs[i].ns, evs[i].event->code);
            }
            continue;
        }
        if (!recread_next(r, &it, &seq))
            break;
        if (seq != count)
            abort();
        count++;
        give(w, it.tid, it.ns, item_code(&it));
        if (it.kind == READER_FUNCTION) {
            uint32_t len;
            const char *name = recread_item_function(r, &len);

            say_fn(w, seq, it.enter, it.tid, it.ns, name != NULL ? name : "?");
        } else if (it.kind == READER_EVENT &&
                   (it.code == DAPTO_EV_ENTER || it.code == DAPTO_EV_LEAVE) &&
                   strcmp(it.event->aspect->name, "dapto") == 0 &&
                   it.nvalues == 1 && it.values[0].kind == DAPTO_K_STR &&
                   it.values[0].interned) {
            say_fn(w, seq, it.code == DAPTO_EV_ENTER, it.tid, it.ns,
                   it.values[0].s);
        } else {
            say(w, "%llu kind %d code %u %d %lld\n", (unsigned long long)seq,
                (int)it.kind, it.code, (int)it.tid, (long long)it.ns);
            if (it.kind == READER_EVENT && it.nvalues > 0 &&
                it.values[0].kind == DAPTO_K_STR)
                (void)strlen(it.values[0].s);
        }
    }
    saying = NULL;
}

/* The kept index with byte AT (of the part its check covers) changed by
 * X and its check made right: opened with it, the recording reads and
 * moves as W says, whatever the index then holds. */
static void check_changed_index(const struct said *w, size_t at,
                                unsigned int x)
{
    struct recread_opts o = {note, NULL, RECREAD_INDEX_BUILD};
    unsigned char *idx;
    char path[512], *cause = NULL;
    struct recread *r;
    struct said again;
    size_t len;
    uint64_t h;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, RECFILE_INDEX);
    if ((f = fopen(path, "rb")) == NULL)
        abort();
    fseek(f, 0, SEEK_END);
    len = (size_t)ftell(f);
    rewind(f);
    idx = malloc(len + 1);
    if (len < 16 || fread(idx, 1, len, f) != len)
        abort();
    fclose(f);
    idx[at % (len - 8)] ^= (unsigned char)(x != 0 ? x : 1);
    h = recfile_hash(idx, len - 8);
    for (int i = 0; i < 8; i++)
        idx[len - 8 + i] = (unsigned char)(h >> (8 * i));
    put(RECFILE_INDEX, idx, len);
    free(idx);
    if (recread_open(&r, dir, &o, &cause) != 0) {
        fprintf(stderr, "recording-reader: an index changed at %zu: %s\n",
                at % (len - 8), cause);
        abort();
    }
    memset(&again, 0, sizeof again);
    read_all(r, &again, 0, 0);
    if (again.nev != w->nev)
        abort();
    check_moves(r, w);
    free(again.text);
    free(again.ev);
    recread_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char meta[] =
        "/* CTF 1.8 */\nenv {\n    noosa_format_major = 1;\n"
        "    noosa_format_median = 0;\n    noosa_format_minor = 0;\n"
        "    program = \"fuzz\";\n};\n";
    struct recread_opts o = {note, NULL, RECREAD_INDEX_BUILD};
    struct recread *r;
    struct said ways[4];
    uint32_t l = 0;
    int fix, two;
    uint8_t *copy;
    char *cause = NULL;
    char out[600];

    if (dir == NULL) {
        char tmpl[] = "/tmp/noosa-fuzz-rec.XXXXXX";

        if (mkdtemp(tmpl) == NULL)
            abort();
        dir = strdup(tmpl);
        atexit(cleanup);
        put("metadata", meta, sizeof meta - 1);
    }
    if (size >= 4)
        memcpy(&l, data, 4);
    data += size >= 4 ? 4 : size;
    size -= size >= 4 ? 4 : size;
    fix = (l & 0x80000000u) != 0;
    two = (l & 0x40000000u) != 0;
    l &= 0x3fffffffu;
    if (l > size)
        l = (uint32_t)size;
    copy = malloc(size + 1);
    memcpy(copy, data, size);
    if (fix) {
        fix_checks(copy, l);
        fix_checks(copy + l, size - l);
    }
    put(RECFILE_NOOSA_STREAM, copy, l);
    put(RECFILE_THREAD_PREFIX "1", copy + l, size - l);
    if (two) {
        put(RECFILE_THREAD_PREFIX "2", copy + l, size - l);
    } else {
        char path[512];

        snprintf(path, sizeof path, "%s/%s2", dir, RECFILE_THREAD_PREFIX);
        unlink(path);
    }
    free(copy);
    if (recread_open(&r, dir, &o, &cause) != 0) {
        free(cause);
        return 0;
    }
    memset(ways, 0, sizeof ways);
    memset(counted, 1, sizeof counted);
    read_all(r, &ways[0], 0, 0);
    read_all(r, &ways[1], -1, 1);
    read_all(r, &ways[2], 1024, 0);
    read_all(r, &ways[3], -2, 1);
    for (int i = 1; i < 4; i++)
        if (ways[i].len != ways[0].len ||
            (ways[0].len > 0 &&
             memcmp(ways[i].text, ways[0].text, ways[0].len) != 0)) {
            fprintf(stderr, "recording-reader: read one by one:\n%.*s"
                    "and with runs (way %d):\n%.*s", (int)ways[0].len,
                    ways[0].text, i, (int)ways[i].len, ways[i].text);
            abort();
        }
    for (int i = 0; i < 4; i++)
        if (!merged(&ways[i])) {
            fprintf(stderr, "recording-reader: not in time order:\n%.*s",
                    (int)ways[i].len, ways[i].text);
            abort();
        }
    check_moves(r, &ways[0]);
    check_numbers(r);
    if (recread_indexed(r)) {
        /* opened anew: the index is read from the file kept */
        struct said again;

        recread_free(r);
        if (recread_open(&r, dir, &o, &cause) != 0)
            abort();
        memset(&again, 0, sizeof again);
        read_all(r, &again, 0, 0);
        if (again.nev != ways[0].nev || !recread_indexed(r))
            abort();
        check_moves(r, &ways[0]);
        check_numbers(r);
        free(again.text);
        free(again.ev);
        for (int i = 0; i < 2; i++) {
            static size_t at = 0;

            at += 8191;
            check_changed_index(&ways[0], at, (unsigned int)(at >> 13));
        }
    }
    for (int i = 0; i < 4; i++) {
        free(ways[i].text);
        free(ways[i].ev);
    }
    snprintf(out, sizeof out, "%s/export.json", dir);
    if (export_recording(r, EXPORT_CHROME, out, NULL, &cause) != 0)
        free(cause);
    snprintf(out, sizeof out, "%s/export.pb", dir);
    if (export_recording(r, EXPORT_PERFETTO, out, NULL, &cause) != 0)
        free(cause);
    recread_free(r);
    return 0;
}
