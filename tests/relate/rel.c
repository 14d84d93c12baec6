/* SPDX-License-Identifier: MIT */
/*
 * rel.c - the program of the tests of relations between events
 * (tests/relate, rel.dapto):
 *
 *   rel walk ROUNDS SEED THREADS ?try?
 *
 * Each of THREADS threads (seeds SEED + k) makes ROUNDS requests; a
 * request is a random walk of nested components (request, parse inside
 * parse inside ..., cache, lookup) with events at every level (req, miss,
 * tick, done).  Now and then the walk leaves several components at once
 * with a longjmp (no leave), and with `try` now and then it faults inside
 * components entered in a recovery point (risky, parse), which a monitor
 * converts: the failure branch goes on.
 *
 * Whatever the seed, every request whose number ends in 5 (5, 15, ...)
 * first makes a fixed parse, where no longjmp leaves: a miss with a key
 * above 3, a lookup (its tick), another miss with a key above 3, then
 * the random steps.  The tests rely on what it guarantees: an execution
 * of parse containing two misses of keys above 3, a tick within lookup
 * within parse, a tick after a miss in the same request, in every tenth
 * request of every thread.
 *
 * Built twice: rel, whose components are named (_dapto_enter and
 * _dapto_leave), and relf, built with -finstrument-functions (REL_FUNCTIONS),
 * whose components are its functions of the same names.
 */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rel_dapto.h"

#ifdef REL_FUNCTIONS
#define ENTER(name) ((void)0)
#define LEAVE(name) ((void)0)
#define NOINSTR __attribute__((no_instrument_function))
#else
#define ENTER(name) _dapto_enter(name)
#define LEAVE(name) _dapto_leave(name)
#define NOINSTR
#endif
#define COMPONENT __attribute__((noinline))

static const char *const places[] = {"front", "back", "disk", "net", "a long place name"};

struct walk {
    uint64_t x;     /* the generator */
    int ticks;      /* ticks so far */
    int faults;     /* with try: fault now and then */
    jmp_buf out;    /* the request's: a longjmp leaves what is inside */
    int can_jump;
    int fault_now;  /* the next parse faults */
    int fixed_now;  /* the next parse begins with the fixed case */
};

static volatile int *nowhere;

NOINSTR static uint64_t next(struct walk *w)
{
    w->x ^= w->x << 13;
    w->x ^= w->x >> 7;
    w->x ^= w->x << 17;
    return w->x;
}

static void parse(struct walk *w, int depth);

/* A miss with a key from LOW to 7. */
NOINSTR static void event_miss_from(struct walk *w, int low)
{
    uint64_t r = next(w);

    _dapto_miss(low + (int)(r % (uint64_t)(8 - low)), places[(r >> 8) % 5]);
}

NOINSTR static void event_miss(struct walk *w)
{
    event_miss_from(w, 0);
}

NOINSTR static void event_tick(struct walk *w)
{
    _dapto_tick(w->ticks++, (long)(next(w) % 1000) - 500);
}

COMPONENT static void lookup(struct walk *w)
{
    ENTER("lookup");
    event_tick(w);
    LEAVE("lookup");
}

COMPONENT static void cache(struct walk *w)
{
    ENTER("cache");
    event_miss(w);
    if (next(w) % 2 == 0)
        event_tick(w);
    if (next(w) % 3 == 0)
        lookup(w);
    LEAVE("cache");
}

/* A few steps at DEPTH: events, components, a parse inside, a jump out. */
NOINSTR static void steps(struct walk *w, int depth)
{
    int n = 1 + (int)(next(w) % 4);

    while (n-- > 0) {
        switch (next(w) % 10) {
        case 0:
        case 1:
        case 2:
            event_tick(w);
            break;
        case 3:
        case 4:
            event_miss(w);
            break;
        case 5:
        case 6:
            if (depth < 4)
                parse(w, depth + 1);
            break;
        case 7:
            cache(w);
            break;
        case 8:
            if (depth >= 2 && w->can_jump && next(w) % 3 == 0)
                longjmp(w->out, 1);
            break;
        default:
            lookup(w);
            break;
        }
    }
}

COMPONENT static void parse(struct walk *w, int depth)
{
    ENTER("parse");
    if (w->fault_now) {
        /* risky's: a fault, converted by the monitor */
        w->fault_now = 0;
        event_miss(w);
        *nowhere = 1;
    }
    if (w->fixed_now) {
        w->fixed_now = 0;
        event_miss_from(w, 4);
        lookup(w);
        event_miss_from(w, 4);
    }
    steps(w, depth);
    LEAVE("parse");
}

/* Inside a recovery point: a fault in components, which a monitor may
 * convert to the failure of the point. */
COMPONENT static void risky(struct walk *w)
{
    ENTER("risky");
    event_tick(w);
    w->fault_now = 1;
    parse(w, 4);
    LEAVE("risky");
}

COMPONENT static void request(struct walk *w, int id)
{
    ENTER("request");
    _dapto_req(id);
    w->can_jump = 0;
    if (id % 10 == 5) {
        /* the fixed case, no longjmp out of it (can_jump is 0) */
        w->fixed_now = 1;
        parse(w, 1);
    }
    if (setjmp(w->out) == 0) {
        w->can_jump = 1;
        steps(w, 0);
    }
    w->can_jump = 0;
    if (w->faults && id % 7 == 3) {
        DAPTO_TRY(rp) {
            risky(w);
        } DAPTO_FAIL(rp) {
            event_tick(w);
        } DAPTO_END(rp);
    }
    _dapto_done(id);
    LEAVE("request");
}

struct job {
    long rounds;
    uint64_t seed;
    int faults;
};

NOINSTR static void *worker(void *arg)
{
    const struct job *j = arg;
    struct walk w;
    long r;

    memset(&w, 0, sizeof w);
    w.x = j->seed * 2654435761u + 88172645463325252ull;
    w.faults = j->faults;
    for (r = 0; r < j->rounds; r++)
        request(&w, (int)r);
    return NULL;
}

NOINSTR int main(int argc, char **argv)
{
    pthread_t th[16];
    struct job jobs[16];
    long rounds, n, k;

    if (argc < 5 || strcmp(argv[1], "walk") != 0) {
        fprintf(stderr, "usage: rel walk ROUNDS SEED THREADS ?try?\n");
        return 2;
    }
    rounds = atol(argv[2]);
    n = atol(argv[4]);
    if (n < 1 || n > 16) {
        fprintf(stderr, "rel: 1 to 16 threads\n");
        return 2;
    }
    for (k = 0; k < n; k++) {
        jobs[k].rounds = rounds;
        jobs[k].seed = (uint64_t)atoll(argv[3]) + (uint64_t)k;
        jobs[k].faults = argc > 5 && strcmp(argv[5], "try") == 0;
        if (pthread_create(&th[k], NULL, worker, &jobs[k]) != 0) {
            perror("rel: pthread_create");
            return 1;
        }
    }
    for (k = 0; k < n; k++)
        pthread_join(th[k], NULL);
    printf("rel: %ld threads of %ld requests\n", n, rounds);
    return 0;
}
