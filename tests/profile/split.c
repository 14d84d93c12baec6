/* SPDX-License-Identifier: MIT */
/*
 * split.c - functions whose wall time is known, for the self times that
 * noosa samples (`profile time in sampled`, program.sh): heavy() runs
 * 24 ms and light() 8 ms, each 8 times in turn (192 and 64 ms), spin()
 * doing the work of both, while a second thread sleeps 150 ms in nap().
 * The event tick (pt.dapto) after each turn, its number from 0, to stop
 * at.  Built with -finstrument-functions.
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

int main(void)
{
    pthread_t t;
    int i;

    if (pthread_create(&t, NULL, napper, NULL) != 0) {
        fprintf(stderr, "split: no thread\n");
        return 1;
    }
    for (i = 0; i < 8; i++) {
        heavy();
        light();
        _dapto_tick(i);
    }
    pthread_join(t, NULL);
    return 0;
}
