/* SPDX-License-Identifier: MIT */
/*
 * defaults-loop.c - the loop of `make bench-defaults`: N turns, each
 * adding to a counter and emitting tick(i, label), label one of four
 * short words.  It times the loop itself (from its first turn to its
 * last, nothing of noosa's start or end) and writes, to FILE,
 *
 *     ns=NANOSECONDS_A_TURN cpu=NANOSECONDS_A_TURN n=N
 *
 *     defaults-loop N FILE
 *
 * LOOP_CPU=C in the environment pins it to CPU C (noosa starts it, so
 * the benchmark places it this way).  It writes its thread's CPU time a
 * turn beside (cpu=NANOSECONDS), which the time other processes of a busy
 * machine take from it does not swell.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "defaultsloop_dapto.h"

static const char *const labels[4] = {"north", "east", "south", "west"};

volatile long loop_turns;

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;

    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000, i;
    const char *path = argc > 2 ? argv[2] : "/dev/stdout";
    const char *cpu = getenv("LOOP_CPU");
    uint64_t start, end, cpu0, cpu1;
    FILE *f;

    if (n < 1) {
        fprintf(stderr, "usage: defaults-loop N FILE (N > 0)\n");
        return 2;
    }
    if (cpu != NULL && *cpu != '\0') {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            perror("defaults-loop: sched_setaffinity");
    }
    cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    start = now_ns(CLOCK_MONOTONIC);
    for (i = 0; i < n; i++) {
        loop_turns++;
        _dapto_tick((int)i, labels[i & 3]);
    }
    end = now_ns(CLOCK_MONOTONIC);
    cpu1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    fprintf(f, "ns=%.3f cpu=%.3f n=%ld\n", (double)(end - start) / (double)n,
            (double)(cpu1 - cpu0) / (double)n, n);
    fclose(f);
    return 0;
}
