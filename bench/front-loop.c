/* SPDX-License-Identifier: MIT */
/*
 * front-loop.c - the loop of the front end's benchmark (make bench-front):
 * N iterations, each calling loop_hit() (where gdb puts its conditional
 * breakpoint) and emitting the event hit(n, k) with n the iteration and k
 * its remainder by 1000 (where noosa's breakpoint evaluates its condition,
 * in the program or in noosa; `$k == 999` holds every 1000th time).  The
 * loop times every iteration itself, so that noosa and gdb are measured
 * the same way, and writes the median, 90th percentile, mean and the mean
 * of the middle 80% (trim_ns) of those times, and the whole loop's time
 * per iteration (wall_ns, its own timing included), to FILE:
 *
 *     front-loop N FILE
 *
 *     median_ns=... p90_ns=... mean_ns=... trim_ns=... wall_ns=... n=N
 *
 * LOOP_CPU=C in the environment pins the loop to CPU C: noosa starts the
 * program itself, so the benchmark places it this way.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "frontloop_dapto.h"

volatile long loop_sink;

__attribute__((noinline)) void loop_hit(int n);

__attribute__((noinline)) void loop_hit(int n)
{
    loop_sink += n;
    __asm__ volatile("" ::: "memory");
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    const char *path = argc > 2 ? argv[2] : "/dev/stdout";
    const char *cpu = getenv("LOOP_CPU");
    uint64_t *d, sum = 0, mid = 0, start, wall;
    size_t lo, hi;
    FILE *f;

    if (n < 1 || (d = calloc((size_t)n, sizeof *d)) == NULL) {
        fprintf(stderr, "usage: front-loop N FILE (N > 0)\n");
        return 2;
    }
    if (cpu != NULL && *cpu != '\0') {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            perror("sched_setaffinity");
            return 1;
        }
    }
    start = now_ns();
    for (int i = 0; i < n; i++) {
        int k = i % 1000;
        uint64_t t0 = now_ns();

        loop_hit(i);
        _dapto_hit(i, k);
        d[i] = now_ns() - t0;
    }
    wall = now_ns() - start;
    for (int i = 0; i < n; i++)
        sum += d[i];
    qsort(d, (size_t)n, sizeof *d, cmp);
    lo = (size_t)n / 10;
    hi = (size_t)n - lo;
    for (size_t i = lo; i < hi; i++)
        mid += d[i];
    if ((f = fopen(path, "w")) == NULL) {
        perror(path);
        return 1;
    }
    fprintf(f, "median_ns=%llu p90_ns=%llu mean_ns=%llu trim_ns=%.1f "
               "wall_ns=%.1f n=%d\n",
            (unsigned long long)d[n / 2],
            (unsigned long long)d[(size_t)n * 9 / 10],
            (unsigned long long)(sum / (uint64_t)n),
            (double)mid / (double)(hi - lo), (double)wall / n, n);
    fclose(f);
    free(d);
    return 0;
}
