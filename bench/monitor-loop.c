/* SPDX-License-Identifier: MIT */
/*
 * monitor-loop.c - the loop the monitor benchmarks run: N iterations,
 * each calling loop_hit() (where gdb puts its conditional breakpoint) and
 * emitting the event hit (where noosa stops, or which it records).
 *
 *     monitor-loop N [EVERY]
 *
 * With EVERY, the loop also writes a line to its standard output every
 * EVERY iterations (the screen's benchmark: a program writing to its
 * terminal while it emits events).  With BENCH_CPU=N in the
 * environment it first moves itself to CPU N (a monitor that started it
 * pinned elsewhere then runs on its own CPU).  With BENCH_NS set it ends
 * by printing the loop's own time, "ns=NANOSECONDS" (a recording's rate
 * without the monitor's start and end).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "monloop_dapto.h"
#include "pin.h"

volatile long loop_sink;

__attribute__((noinline)) void loop_hit(int n);

__attribute__((noinline)) void loop_hit(int n)
{
    loop_sink += n;
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int every = argc > 2 ? atoi(argv[2]) : 0;

    struct timespec t0, t1;

    bench_pin("BENCH_CPU");

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n; i++) {
        loop_hit(i);
        _dapto_hit(i);
        if (every > 0 && i % every == 0)
            printf("\033[32mline %d\033[0m of the loop, \033[1m%d%%\033[0m\n",
                   i, (int)(100.0 * i / n));
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("BENCH_NS") != NULL)
        printf("ns=%lld\n", (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL +
                                 (t1.tv_nsec - t0.tv_nsec));
    return 0;
}
