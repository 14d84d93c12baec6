/* SPDX-License-Identifier: MIT */
/*
 * pt.c - the program of the profile, trace and monitor tests.  Each mode
 * does one thing with components (enter/leave) and the events of
 * pt.dapto, deterministically:
 *
 *   pt states N        N x (tick, other, quiet), then print the state
 *                      bytes the program sees, as noosa left them
 *                      (record and stop bits: 2 record, 4 stop; the
 *                      trail bit is left out, whoever wants it)
 *   pt nest N          N x main{a{tick b{tick other}} c{other}}
 *   pt mismatch        leaves that do not match their enters, twice over
 *   pt threads N K     N threads, each K x worker{step{tick}}
 *   pt waves W N K     W waves of pt threads N K, one after the other
 *                      (0.2 s apart), so that threads end and others
 *                      take their buffers (tests/record)
 *   pt tcrash N K      pt threads N K, then one more thread that does
 *                      K steps of its own and follows a null pointer
 *                      inside crash (tests/record)
 *   pt recurse N       r{r{...{tick}...}} N + 1 deep, in main{}
 *   pt crash N         pt nest N, then a null pointer (the flight
 *                      recorder's tests, tests/record)
 *   pt error N         pt nest N, then dapto_error()
 *   pt procs N K       N processes (fork), each K x worker{step{tick}},
 *                      waited for
 *   pt burst N FILE [crash]  waits until FILE exists, then N x b{} and
 *                      exits, or enters crash and follows a null pointer
 *                      (tests/record: a backlog in the ring at the end)
 *
 * LT_CPU=N in the environment: run on CPU N only (as tests/load's lt: the
 * stress tests place noosa and the program on one CPU or on two).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pt_dapto.h"

int *volatile pt_null;

/* (what a profile asks of the program: records, stops, the call tree) */
#define RS(x) ((unsigned)(x) & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP | \
                                DAPTO_STATE_PROFILE))

static void states(int n)
{
    int i;

    for (i = 0; i < n; i++) {
        _dapto_tick(i);
        _dapto_other(i);
        _dapto_quiet(i);
    }
    printf("states tick=%u other=%u quiet=%u enter=%u leave=%u\n",
           RS(pt_dapto_state[0]), RS(pt_dapto_state[1]),
           RS(pt_dapto_state[2]), RS(dapto_builtin_state[DAPTO_EV_ENTER]),
           RS(dapto_builtin_state[DAPTO_EV_LEAVE]));
    fflush(stdout);
}

static void nest(int n)
{
    int i;

    _dapto_enter("main");
    for (i = 0; i < n; i++) {
        _dapto_enter("a");
        _dapto_tick(i);
        _dapto_enter("b");
        _dapto_tick(i);
        _dapto_other(i);
        _dapto_leave("b");
        _dapto_leave("a");
        _dapto_enter("c");
        _dapto_other(i);
        _dapto_leave("c");
    }
    _dapto_leave("main");
}

static void mismatch(void)
{
    int round;

    for (round = 0; round < 2; round++) {
        _dapto_enter("outer");
        _dapto_enter("inner");
        _dapto_leave("outer"); /* pops inner, then outer */
        _dapto_leave("stray"); /* nothing on the stack */
        _dapto_enter("x");
        _dapto_leave("y");     /* no frame y: ignored */
        _dapto_leave("x");
        _dapto_tick(round);
    }
}

static void recurse(int n)
{
    _dapto_enter("r");
    if (n > 0)
        recurse(n - 1);
    else
        _dapto_tick(0);
    _dapto_leave("r");
}

static int per_thread;

/* per_thread x step{tick} */
static void steps(void)
{
    for (int i = 0; i < per_thread; i++) {
        _dapto_enter("step");
        _dapto_tick(i);
        _dapto_leave("step");
    }
}

static void *worker(void *arg)
{
    (void)arg;
    _dapto_enter("worker");
    steps();
    _dapto_leave("worker");
    return NULL;
}

static void threads(int n, int k)
{
    pthread_t t[64];
    int i;

    per_thread = k;
    if (n > 64)
        n = 64;
    for (i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

static void procs(int n, int k)
{
    int i, status;

    per_thread = k;
    for (i = 0; i < n; i++) {
        pid_t c = fork();

        if (c == 0) {
            worker(NULL);
            _exit(0);
        }
        if (c < 0)
            exit(1);
    }
    for (i = 0; i < n; i++)
        wait(&status);
}

static void waves(int w, int n, int k)
{
    for (int i = 0; i < w; i++) {
        if (i > 0)
            usleep(200000);
        threads(n, k);
    }
}

static void *crasher(void *arg)
{
    (void)arg;
    _dapto_enter("worker");
    steps();
    _dapto_enter("crash");
    *pt_null = 1;
    return NULL;
}

static void tcrash(int n, int k)
{
    pthread_t t;

    threads(n, k);
    pthread_create(&t, NULL, crasher, NULL);
    pthread_join(t, NULL);
}

static void burst(int n, const char *file)
{
    int i;

    while (access(file, F_OK) != 0)
        usleep(1000);
    for (i = 0; i < n; i++) {
        _dapto_enter("b");
        _dapto_leave("b");
    }
}

int main(int argc, char **argv)
{
    const char *cpu = getenv("LT_CPU");

    if (cpu != NULL && *cpu != '\0') {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            perror("sched_setaffinity");
    }
    if (argc >= 3 && strcmp(argv[1], "states") == 0)
        states(atoi(argv[2]));
    else if (argc >= 3 && strcmp(argv[1], "nest") == 0)
        nest(atoi(argv[2]));
    else if (argc >= 3 && strcmp(argv[1], "recurse") == 0) {
        _dapto_enter("main");
        recurse(atoi(argv[2]));
        _dapto_leave("main");
    } else if (argc >= 2 && strcmp(argv[1], "mismatch") == 0)
        mismatch();
    else if (argc >= 4 && strcmp(argv[1], "burst") == 0) {
        burst(atoi(argv[2]), argv[3]);
        if (argc >= 5 && strcmp(argv[4], "crash") == 0) {
            _dapto_enter("crash");
            *pt_null = 1;
        }
    }
    else if (argc >= 4 && strcmp(argv[1], "threads") == 0)
        threads(atoi(argv[2]), atoi(argv[3]));
    else if (argc >= 4 && strcmp(argv[1], "procs") == 0)
        procs(atoi(argv[2]), atoi(argv[3]));
    else if (argc >= 5 && strcmp(argv[1], "waves") == 0)
        waves(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    else if (argc >= 4 && strcmp(argv[1], "tcrash") == 0)
        tcrash(atoi(argv[2]), atoi(argv[3]));
    else if (argc >= 3 && strcmp(argv[1], "crash") == 0) {
        nest(atoi(argv[2]));
        _dapto_enter("crash");
        *pt_null = 1;
    } else if (argc >= 3 && strcmp(argv[1], "error") == 0) {
        nest(atoi(argv[2]));
        _dapto_enter("error");
        dapto_error("pt gives up after %d steps", atoi(argv[2]));
    } else {
        fprintf(stderr, "usage: pt states N | nest N | mismatch | "
                        "threads N K | procs N K | recurse N | crash N |\n"
                        "error N | burst N FILE [crash] | waves W N K |\n"
                        "tcrash N K\n");
        return 2;
    }
    return 0;
}
