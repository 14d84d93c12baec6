/* SPDX-License-Identifier: MIT */
/*
 * filter-loop.c - the monitored side of `make bench-filter`.  Pinned to
 * one CPU, it times interleaved rounds of the same loop: with no event,
 * with an event that is off (state 0), one recorded without a filter, one
 * whose filter is false ($i < 0), one whose filter is true, and one that
 * a question counts and sums.  The monitor (filter-bench) writes the
 * states, filters and question and drains the ring.
 *
 *   filter-loop ITERATIONS ROUNDS
 *
 * prints one "result NAME VALUE" line per figure (ns per iteration,
 * median of the rounds).
 */
#include "config.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fbloop_dapto.h"

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The same work per iteration in each loop; the barrier keeps the
 * compiler from folding a loop away. */
static __attribute__((noinline)) void loop_base(long n)
{
    long i;

    for (i = 0; i < n; i++)
        __asm__ volatile("" ::"r"(i) : "memory");
}

#define LOOP(name, ev)                                                  \
    static __attribute__((noinline)) void name(long n)                  \
    {                                                                   \
        long i;                                                         \
                                                                        \
        for (i = 0; i < n; i++) {                                       \
            __asm__ volatile("" ::"r"(i) : "memory");                   \
            ev((int)i);                                                 \
        }                                                               \
    }
LOOP(loop_off, _dapto_off)
LOOP(loop_rec, _dapto_rec)
LOOP(loop_fno, _dapto_fno)
LOOP(loop_fyes, _dapto_fyes)
LOOP(loop_fq, _dapto_fq)

static double timed(void (*fn)(long), long n)
{
    uint64_t t0 = now_ns();

    fn(n);
    return (double)(now_ns() - t0) / (double)n;
}

static double median(double *v, int n)
{
    int i, j;
    double t;

    for (i = 1; i < n; i++)
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 10000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    double t[6][32];
    static const char *const names[] = {"base", "off", "rec", "fno", "fyes", "fq"};
    static void (*const loops[])(long) = {loop_base, loop_off, loop_rec,
                                          loop_fno, loop_fyes, loop_fq};
    cpu_set_t cpus;
    int r, k;

    if (rounds > 32)
        rounds = 32;
    setvbuf(stdout, NULL, _IOLBF, 0);
    CPU_ZERO(&cpus);
    CPU_SET(0, &cpus);
    printf("pinned %d\n", sched_setaffinity(0, sizeof cpus, &cpus) == 0);
    printf("monitored %d\n", dapto_monitored());
    loop_fyes(iters / 10); /* warm up the ring and the consumer */
    for (r = 0; r < rounds; r++)
        for (k = 0; k < 6; k++)
            t[k][r] = timed(loops[k], iters);
    for (k = 0; k < 6; k++)
        printf("result %s %.3f\n", names[k], median(t[k], rounds));
    printf("result events %ld\n", iters / 10 + (long)rounds * iters * 2);
    return 0;
}
