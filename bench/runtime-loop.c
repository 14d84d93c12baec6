/* SPDX-License-Identifier: MIT */
/*
 * runtime-loop.c - the monitored side of `make bench-runtime`.  It times,
 * in one run, interleaved rounds of the same loop: with no event, with an
 * event that is off, with a recorded event of one int, and with
 * enter/leave of an interned name; then the round trip of stops.  The
 * monitor (runtime-bench) decides the states and drains the ring.
 *
 *   runtime-loop ITERATIONS ROUNDS STOPS
 *
 * prints one "result NAME VALUE" line per figure.  With BENCH_CPU=N in
 * the environment it moves itself to CPU N first (the monitor is pinned
 * by taskset).
 */
#define _GNU_SOURCE
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rtloop_dapto.h"
#include "pin.h"

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* Each loop does the same work per iteration; the barrier keeps the
 * compiler from folding the loop away. */
static __attribute__((noinline)) void loop_base(long n)
{
    long i;

    for (i = 0; i < n; i++)
        __asm__ volatile("" ::"r"(i) : "memory");
}

static __attribute__((noinline)) void loop_off(long n)
{
    long i;

    for (i = 0; i < n; i++) {
        __asm__ volatile("" ::"r"(i) : "memory");
        _dapto_quiet((int)i);
    }
}

static __attribute__((noinline)) void loop_tick(long n)
{
    long i;

    for (i = 0; i < n; i++) {
        __asm__ volatile("" ::"r"(i) : "memory");
        _dapto_tick((int)i);
    }
}

static __attribute__((noinline)) void loop_enter(long n)
{
    long i;

    for (i = 0; i < n; i++) {
        __asm__ volatile("" ::"r"(i) : "memory");
        _dapto_enter("component");
        _dapto_leave("component");
    }
}

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
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    long stops = argc > 3 ? atol(argv[3]) : 20000;
    double base[32], off[32], tick[32], enter[32];
    uint64_t *rt;
    int r;
    long i;

    bench_pin("BENCH_CPU");
    if (rounds > 32)
        rounds = 32;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("monitored %d\n", dapto_monitored());
    loop_tick(iters / 10); /* warm up the ring and the consumer */
    for (r = 0; r < rounds; r++) {
        base[r] = timed(loop_base, iters);
        off[r] = timed(loop_off, iters);
        tick[r] = timed(loop_tick, iters);
        enter[r] = timed(loop_enter, iters) / 2;
    }
    printf("result base %.3f\n", median(base, rounds));
    printf("result off %.3f\n", median(off, rounds));
    printf("result tick %.3f\n", median(tick, rounds));
    printf("result enter %.3f\n", median(enter, rounds));
    printf("result events %ld\n", iters / 10 + (long)rounds * iters * 3);

    rt = malloc((size_t)stops * sizeof *rt);
    for (i = 0; i < stops; i++) {
        uint64_t t0 = now_ns();

        _dapto_halt((int)i);
        rt[i] = now_ns() - t0;
    }
    qsort(rt, (size_t)stops, sizeof *rt, cmp_u64);
    printf("result stop_median %.3f\n", stops > 0 ? rt[stops / 2] / 1000.0 : 0);
    printf("result stop_p90 %.3f\n", stops > 0 ? rt[stops * 9 / 10] / 1000.0 : 0);
    free(rt);
    return 0;
}
