/* SPDX-License-Identifier: MIT */
/*
 * fthreads.c - threads calling functions, for the profiles the program
 * keeps itself (program.sh): T threads (default 8) run at once, each a
 * recursion of its own depth a number of times of its own, and one more
 * thread runs after they have all ended, so that call paths are counted
 * by threads that come and go while others count.  Built with
 * -finstrument-functions.
 *
 *     fthreads [T]
 *
 * FTHREADS_CPU=C in the environment pins it to CPU C (noosa starts it,
 * so a stress run places it this way).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

static long leaf(long x)
{
    return x * 3 + 1;
}

static long branch(int d, long x)
{
    if (d == 0)
        return leaf(x);
    return branch(d - 1, x) + (d % 2 ? leaf(d) : 0);
}

static void *worker(void *arg)
{
    long id = (long)arg, s = 0, i;

    for (i = 0; i < 300 + id * 70; i++)
        s += branch((int)(id % 6) + 1, i);
    sink += s;
    return NULL;
}

int main(int argc, char **argv)
{
    int t = argc > 1 ? atoi(argv[1]) : 8, i;
    const char *cpu = getenv("FTHREADS_CPU");
    pthread_t th[32];

    if (cpu != NULL && *cpu != '\0') {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            perror("sched_setaffinity");
            return 1;
        }
    }

    if (t < 1 || t > 32) {
        fprintf(stderr, "usage: fthreads [T], 1 to 32 threads\n");
        return 2;
    }
    for (i = 0; i < t; i++)
        if (pthread_create(&th[i], NULL, worker, (void *)(long)i) != 0)
            return 1;
    for (i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    if (pthread_create(&th[0], NULL, worker, (void *)(long)t) != 0)
        return 1;
    pthread_join(th[0], NULL);
    printf("fthreads: %d threads\n", t + 1);
    return 0;
}
