/* SPDX-License-Identifier: MIT */
/*
 * cv.c - the program of the tests of conditions (cv.dapto):
 *
 *   cv samples N SEED     N samples from the generator seeded with SEED;
 *                         says how many its quick clauses decided
 *   cv threads T N SEED   T threads of N samples each (seeds SEED + k)
 *
 * Each sample's values come from a small generator (xorshift), chosen to
 * hit the edges: equal values, negatives, large longs, the empty string,
 * words with glob characters, null and non-null addresses.  LT_CPU=N in
 * the environment keeps the program on CPU N (as tests/load's lt).
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "cv_dapto.h"

int cv_total;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const words[] = {
    "", "a", "ab", "abc", "b", "ba", "tick", "tock", "*", "a*b", "[x]",
    "x?y", "ABC", "abc ", "hello world", "10", "-3", "a\\b",
};

struct gen {
    uint64_t x;
};

static uint64_t next(struct gen *g)
{
    g->x ^= g->x << 13;
    g->x ^= g->x >> 7;
    g->x ^= g->x << 17;
    return g->x;
}

static void samples(long n, uint64_t seed, int base)
{
    struct gen g = {seed * 2654435761u + 88172645463325252ull};
    static char things[4];

    for (long k = 0; k < n; k++) {
        uint64_t r = next(&g);
        int i = base + (int)k;
        int small = (int)(r % 21) - 10;
        long l = (r >> 8) % 4 == 0 ? (long)(r >> 1) * ((r & 1) ? -1 : 1)
                                   : (long)((r >> 16) % 2001) - 1000;
        double d = (double)((int)((r >> 24) % 2001) - 1000) / 8.0;
        const char *s = words[(r >> 32) % (sizeof words / sizeof words[0])];
        void *p = (r >> 40) % 3 == 0 ? NULL : (void *)&things[(r >> 42) % 4];
        Thing t = (r >> 44) % 2 == 0 ? NULL : (Thing)(void *)&things[0];

        _dapto_sample(i, small, l, d, s, p, t);
        if (i % 10 == 0) {
            _dapto_other(i);
            _dapto_word(s);
        }
        pthread_mutex_lock(&total_lock);
        cv_total++;
        pthread_mutex_unlock(&total_lock);
    }
}

struct job {
    long n;
    uint64_t seed;
    int base;
};

static void *worker(void *arg)
{
    struct job *j = arg;

    samples(j->n, j->seed, j->base);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *cpu = getenv("LT_CPU");

    if (cpu != NULL) {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    if (argc == 4 && strcmp(argv[1], "samples") == 0) {
        samples(atol(argv[2]), strtoull(argv[3], NULL, 10), 0);
        printf("samples: %s\n", argv[2]);
        /* <protocol#quick>: how many its encoders decided without the
         * runtime */
        printf("samples: %llu decided by quick clauses\n", dapto_quick_self.decided);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "threads") == 0) {
        int t = atoi(argv[2]);
        long n = atol(argv[3]);
        uint64_t seed = strtoull(argv[4], NULL, 10);
        pthread_t *ids = calloc((size_t)t, sizeof *ids);
        struct job *jobs = calloc((size_t)t, sizeof *jobs);

        if (ids == NULL || jobs == NULL)
            return 2;
        for (int k = 0; k < t; k++) {
            jobs[k].n = n;
            jobs[k].seed = seed + (uint64_t)k;
            jobs[k].base = k * (int)n;
            pthread_create(&ids[k], NULL, worker, &jobs[k]);
        }
        for (int k = 0; k < t; k++)
            pthread_join(ids[k], NULL);
        printf("threads: %d x %ld samples\n", t, n);
        free(ids);
        free(jobs);
        return 0;
    }
    fprintf(stderr, "usage: cv samples N SEED | cv threads T N SEED\n");
    return 2;
}
