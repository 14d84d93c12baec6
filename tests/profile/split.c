/* SPDX-License-Identifier: MIT */
/*
 * split.c - functions whose wall time is known, for the self times that
 * noosa samples (`profile time in sampled`, program.sh): heavy() runs
 * 24 ms and light() 8 ms, each 8 times in turn (192 and 64 ms), spin()
 * doing the work of both, while a second thread sleeps 150 ms in nap().
 * The event tick (pt.dapto) after each turn, its number from 0, to stop
 * at.  At the end it prints what heavy and light took in all, and heavy
 * after tick 3: on a busy machine a spin that loses its processor ends
 * when it gets it back, so they take more than those times, light
 * relatively more.  Built with -finstrument-functions.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "pt_dapto.h"

static volatile unsigned long sink;

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double s)
{
    double end = seconds() + s;

    while (seconds() < end)
        sink++;
}

static void heavy(void)
{
    spin(0.024);
}

static void light(void)
{
    spin(0.008);
}

static void nap(void)
{
    struct timespec ts = {0, 150000000};

    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void *napper(void *arg)
{
    (void)arg;
    nap();
    return NULL;
}

/* Nanoseconds of CLOCK_MONOTONIC, for main's own measure: not a
 * function of the profile. */
__attribute__((no_instrument_function)) static long long now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(void)
{
    pthread_t t;
    long long t0, t1, t2, heavy_ns = 0, light_ns = 0, late_ns = 0;
    int i;

    if (pthread_create(&t, NULL, napper, NULL) != 0) {
        fprintf(stderr, "split: no thread\n");
        return 1;
    }
    for (i = 0; i < 8; i++) {
        t0 = now_ns();
        heavy();
        t1 = now_ns();
        light();
        t2 = now_ns();
        heavy_ns += t1 - t0;
        light_ns += t2 - t1;
        if (i > 3)
            late_ns += t1 - t0;
        _dapto_tick(i);
    }
    pthread_join(t, NULL);
    printf("split: heavy %lld light %lld heavy-after-3 %lld\n", heavy_ns, light_ns, late_ns);
    return 0;
}
