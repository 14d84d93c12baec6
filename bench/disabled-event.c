/* SPDX-License-Identifier: MIT */
/*
 * disabled-event.c - what an event costs when nobody monitors the program.
 *
 * Two copies of the same tight loop run in one process, interleaved: one
 * plain, one that also calls the stub _dapto_tick() of an event that is
 * off.  The stub is one load of the event's state byte and one branch
 * <design#stub>; the difference between the loops is its cost.  The state
 * byte is volatile, so the compiler must load it on every iteration, and
 * an empty asm keeps the loop's own work from being folded away.  The best
 * of several runs of each is reported, in nanoseconds per iteration.
 *
 * Two pairs of loops: one does a little work (a multiply-add chain, as
 * real code would), one does nothing but count, the worst case for the
 * event, whose load and branch then have nothing to hide behind.
 *
 *   disabled-event [ITERATIONS [REPEATS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/disabled-event_dapto.h"

/* Keep ACC in a register and make the compiler assume it changed. */
#define OPAQUE(acc) __asm__ volatile("" : "+r"(acc))

__attribute__((noinline)) static unsigned loop_plain(unsigned n)
{
    unsigned acc = 1, i;

    for (i = 0; i < n; i++) {
        acc = acc * 33 + i;
        OPAQUE(acc);
    }
    return acc;
}

__attribute__((noinline)) static unsigned loop_event(unsigned n)
{
    unsigned acc = 1, i;

    for (i = 0; i < n; i++) {
        acc = acc * 33 + i;
        OPAQUE(acc);
        _dapto_tick((int)i);
    }
    return acc;
}

__attribute__((noinline)) static unsigned loop_empty(unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        OPAQUE(i);
    return i;
}

__attribute__((noinline)) static unsigned loop_empty_event(unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        OPAQUE(i);
        _dapto_tick((int)i);
    }
    return i;
}

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef unsigned (*loop_fn)(unsigned);

/* Time F over N iterations; keep the best time in *BEST and the result in
 * *RESULT. */
static void run(loop_fn f, unsigned n, double *best, unsigned *result)
{
    double t = now_ns();

    *result = f(n);
    t = now_ns() - t;
    if (t < *best)
        *best = t;
}

static void report(const char *what, double plain, double event)
{
    printf("  %-16s %8.3f ns %11.3f ns %+10.3f ns %7.3f\n", what, plain, event,
           event - plain, event / plain);
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200000000u;
    int reps = argc > 2 ? atoi(argv[2]) : 15, r;
    double best[4] = { 1e300, 1e300, 1e300, 1e300 };
    unsigned res[4];
    static const loop_fn loops[4] = {
        loop_plain, loop_event, loop_empty, loop_empty_event,
    };

    if (n == 0 || reps <= 0) {
        fprintf(stderr, "usage: disabled-event [ITERATIONS [REPEATS]]\n");
        return 2;
    }
    if (dapto_monitored() || disabled_event_dapto_state[0] != 0) {
        fprintf(stderr, "disabled-event: run it without a monitor\n");
        return 1;
    }
    for (r = 0; r < reps; r++) {
        for (int k = 0; k < 4; k++)
            run(loops[k], n, &best[k], &res[k]);
    }
    if (res[0] != res[1] || res[2] != res[3]) {
        fprintf(stderr, "disabled-event: the loops disagree\n");
        return 1;
    }
    printf("disabled event: %u iterations, best of %d interleaved runs each\n",
           n, reps);
    printf("  %-16s %11s %14s %13s %7s\n", "", "no event", "disabled event",
           "difference", "ratio");
    report("loop with work", best[0] / n, best[1] / n);
    report("empty loop", best[2] / n, best[3] / n);
    return 0;
}
