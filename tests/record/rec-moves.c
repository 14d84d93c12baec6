/* SPDX-License-Identifier: MIT */
/*
 * rec-moves.c - moves in a recording checked against reading it from its
 * start (tests/record/index.sh): the recording DIR is read one by one,
 * then, with its index, every event is gone to by number (or every
 * STEP-th, and those around each sync point of the index) and by time,
 * and each must be the event read one by one there; and the numbers the
 * user sees (<design#event-numbers>: the events alone, from 1) must be
 * those of the reading one by one, both ways.
 *
 *     rec-moves DIR [STEP]
 *
 * Prints "N events, K moves, indexed" (or "not indexed"); exits 1 with
 * what differed.  The reader's notes go to standard error.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "recread.h"

struct ev {
    pid_t tid;
    int64_t ns;
    unsigned int kind, code;
    uint64_t number; /* events up to it, it included */
};

static void note(void *arg, const char *text)
{
    (void)arg;
    fprintf(stderr, "note: %s\n", text);
}

int main(int argc, char **argv)
{
    struct recread_opts o = {note, NULL, RECREAD_INDEX_BUILD};
    struct recread *r;
    struct reader_item it;
    struct ev *evs = NULL;
    size_t n = 0, cap = 0, moves = 0, step;
    uint64_t seq, events = 0;
    char *cause = NULL;

    if (argc < 2) {
        fprintf(stderr, "usage: rec-moves DIR [STEP]\n");
        return 2;
    }
    step = argc > 2 ? (size_t)atol(argv[2]) : 1;
    if (step == 0)
        step = 1;
    if (recread_open(&r, argv[1], &o, &cause) != 0) {
        fprintf(stderr, "rec-moves: %s\n", cause);
        return 1;
    }
    while (recread_next(r, &it, &seq)) {
        if (seq != n) {
            fprintf(stderr, "rec-moves: event %zu numbered %llu\n", n,
                    (unsigned long long)seq);
            return 1;
        }
        if (n == cap) {
            cap = cap > 0 ? 2 * cap : 4096;
            evs = realloc(evs, cap * sizeof *evs);
            if (evs == NULL)
                abort();
        }
        evs[n].tid = it.tid;
        evs[n].ns = it.ns;
        evs[n].kind = it.kind;
        evs[n].code = it.code;
        evs[n].number = recread_is_event(&it) ? ++events : events;
        n++;
    }
    if (recread_events(r) != events) {
        fprintf(stderr, "rec-moves: %llu events numbered, %llu read\n",
                (unsigned long long)recread_events(r),
                (unsigned long long)events);
        return 1;
    }
    if (recread_event_seq(r, 0) != UINT64_MAX ||
        recread_event_seq(r, events + 1) != UINT64_MAX) {
        fprintf(stderr, "rec-moves: an event numbered 0 or past the last\n");
        return 1;
    }
    if (recread_indexed(r) && recread_count(r) != n) {
        fprintf(stderr, "rec-moves: the index counts %llu events, %zu read\n",
                (unsigned long long)recread_count(r), n);
        return 1;
    }
    for (size_t k = n + 1; k-- > 0;) {
        size_t near = k % 16384;

        if (k % step != 0 && k != n && near > 2 && near < 16382)
            continue;
        moves++;
        recread_seek(r, k);
        if (k == n) {
            if (recread_next(r, &it, &seq)) {
                fprintf(stderr, "rec-moves: an event past the last\n");
                return 1;
            }
            continue;
        }
        if (!recread_next(r, &it, &seq) || seq != k || it.tid != evs[k].tid ||
            it.ns != evs[k].ns || it.kind != evs[k].kind ||
            it.code != evs[k].code) {
            fprintf(stderr, "rec-moves: goto %zu gave event %llu of thread %d "
                    "at %lld, not thread %d at %lld\n", k,
                    (unsigned long long)seq, (int)it.tid, (long long)it.ns,
                    (int)evs[k].tid, (long long)evs[k].ns);
            return 1;
        }
        if (recread_event_number(r, k) != evs[k].number ||
            ((evs[k].kind == READER_EVENT || evs[k].kind == READER_FUNCTION) &&
             recread_event_seq(r, evs[k].number) != k)) {
            fprintf(stderr, "rec-moves: item %zu is event %llu, not %llu\n",
                    k, (unsigned long long)recread_event_number(r, k),
                    (unsigned long long)evs[k].number);
            return 1;
        }
        if (k % (step * 3) == 0) {
            size_t j = 0;
            uint64_t got = recread_seek_time(r, (uint64_t)evs[k].ns);

            while (j < n && evs[j].ns < evs[k].ns)
                j++;
            if (got != j || !recread_next(r, &it, &seq) || seq != j) {
                fprintf(stderr, "rec-moves: the time of %zu, %lld, gave %llu, "
                        "not %zu\n", k, (long long)evs[k].ns,
                        (unsigned long long)got, j);
                return 1;
            }
        }
    }
    printf("%zu events, %zu moves, %s\n", n, moves,
           recread_indexed(r) ? "indexed" : "not indexed");
    recread_free(r);
    free(evs);
    return 0;
}
