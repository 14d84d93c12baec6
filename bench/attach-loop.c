/* SPDX-License-Identifier: MIT */
/*
 * attach-loop.c - the program of the attach benchmark (bench/attach-run.sh):
 * for SECONDS seconds, measuring rounds of a loop with a little work, each
 * round once without the event and once with the stub _dapto_hit(i), and
 * for each round one line: whether the runtime was attached before and
 * after it (dapto_monitored()), the nanoseconds per iteration of each
 * loop, and the time it ended (CLOCK_REALTIME ms).  A second thread emits `pace` every 100 ms.  Prints its pid
 * first, and "end" last.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "attachb_dapto.h"

#define ITER 200000

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_REALTIME ms, as Tcl's [clock milliseconds]. */
static uint64_t wall_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static __attribute__((noinline)) uint64_t plain(uint64_t x)
{
    for (int i = 0; i < ITER; i++)
        x = x * 6364136223846793005u + (uint64_t)i;
    return x;
}

static __attribute__((noinline)) uint64_t with_event(uint64_t x)
{
    for (int i = 0; i < ITER; i++) {
        x = x * 6364136223846793005u + (uint64_t)i;
        _dapto_hit(i);
    }
    return x;
}

static void *pacer(void *arg)
{
    int n = 0;
    struct timespec ts = {0, 100000000};

    (void)arg;
    for (;;) {
        nanosleep(&ts, NULL);
        _dapto_pace(++n);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 6;
    uint64_t end, t0, t1, t2, x = 1;
    pthread_t th;

    printf("pid %d\n", (int)getpid());
    fflush(stdout);
    pthread_create(&th, NULL, pacer, NULL);
    end = now_ns() + (uint64_t)(secs * 1e9);
    while (now_ns() < end) {
        int before = dapto_monitored();

        t0 = now_ns();
        x = plain(x);
        t1 = now_ns();
        x = with_event(x);
        t2 = now_ns();
        printf("round %d %d %.4f %.4f %llu\n", before, dapto_monitored(),
               (double)(t1 - t0) / ITER, (double)(t2 - t1) / ITER,
               (unsigned long long)(wall_ms()));
        fflush(stdout);
    }
    sink = x;
    printf("end\n");
    return 0;
}
