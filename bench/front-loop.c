/* SPDX-License-Identifier: MIT */
/*
 * front-loop.c - the loop of the front end's benchmark (make bench-front):
 * N iterations, each calling loop_hit() (where gdb puts its conditional
 * breakpoint) and emitting the event hit (where noosa's breakpoint
 * evaluates its condition).  The loop times every iteration itself, so
 * that noosa and gdb are measured the same way, and writes the median,
 * 90th percentile and mean to FILE:
 *
 *     front-loop N FILE
 *
 *     median_ns=... p90_ns=... mean_ns=... n=N
 */
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
    uint64_t *d, sum = 0;
    FILE *f;

    if (n < 1 || (d = calloc((size_t)n, sizeof *d)) == NULL) {
        fprintf(stderr, "usage: front-loop N FILE (N > 0)\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        uint64_t t0 = now_ns();

        loop_hit(i);
        _dapto_hit(i);
        d[i] = now_ns() - t0;
    }
    for (int i = 0; i < n; i++)
        sum += d[i];
    qsort(d, (size_t)n, sizeof *d, cmp);
    if ((f = fopen(path, "w")) == NULL) {
        perror(path);
        return 1;
    }
    fprintf(f, "median_ns=%llu p90_ns=%llu mean_ns=%llu n=%d\n",
            (unsigned long long)d[n / 2],
            (unsigned long long)d[(size_t)n * 9 / 10],
            (unsigned long long)(sum / (uint64_t)n), n);
    fclose(f);
    free(d);
    return 0;
}
