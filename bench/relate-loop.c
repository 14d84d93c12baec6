/* SPDX-License-Identifier: MIT */
/*
 * relate-loop.c - the loop of the relations benchmark (make
 * bench-relate): N iterations, each emitting the event hit(n, k) (n the
 * iteration, k its remainder by 1000) inside the named component "work":
 *
 *     relate-loop block N FILE    work entered once every 1000 hits
 *     relate-loop each N FILE     work entered around every hit
 *
 * It times the whole loop and writes ns per iteration to FILE:
 *
 *     ns=... n=N
 *
 * LOOP_CPU=C in the environment pins the loop to CPU C (noosa starts the
 * program itself, so the benchmark places it this way).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontloop_dapto.h"
#include "pin.h"

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int each, n, i;
    uint64_t start, wall;
    FILE *f;

    if (argc != 4 || (strcmp(argv[1], "block") != 0 && strcmp(argv[1], "each") != 0) ||
        (n = atoi(argv[2])) < 1000) {
        fprintf(stderr, "usage: relate-loop block|each N FILE (N >= 1000)\n");
        return 2;
    }
    each = argv[1][0] == 'e';
    bench_pin("LOOP_CPU");
    n -= n % 1000;
    start = now_ns();
    for (i = 0; i < n; i++) {
        int k = i % 1000;

        if (each || k == 0)
            _dapto_enter("work");
        _dapto_hit(i, k);
        if (each || k == 999)
            _dapto_leave("work");
    }
    wall = now_ns() - start;
    if ((f = fopen(argv[3], "w")) == NULL) {
        perror(argv[3]);
        return 1;
    }
    fprintf(f, "ns=%.2f n=%d\n", (double)wall / n, n);
    return fclose(f) == 0 ? 0 : 1;
}
