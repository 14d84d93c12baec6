/* SPDX-License-Identifier: MIT */
/*
 * et-meanwhile.c - et-errors' threads that fault while another waits at
 * an event for the monitor (modes meanwhile, send and forked), and the
 * operation release.  Apart from et-errors.c so that the lines of its
 * functions, which the expected reports name, stay where they are.
 */
#define _GNU_SOURCE

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "et_dapto.h"

static int try;

/* Meanwhile: N threads fault while the main thread waits at an event
 * (step 1) for the monitor.  In mode "meanwhile" each faults once the
 * main thread sleeps there; in mode "send" once the operation release,
 * run in the main thread at its stop, lets them (or the main thread
 * itself after its step, when nobody did); in mode "forked" they are
 * threads of a child process, which fault once the parent's main thread
 * sleeps at its step.  With "try" each fault is in a recovery point.
 * The main thread joins them all (the parent waits for its child) before
 * it ends. */
#define ET_FAULTERS 64
struct main_at {
    volatile pid_t tid;     /* the (parent's) main thread */
    volatile int at_step;   /* it is about to emit step 1 */
};
static struct main_at *main_at; /* shared with a child */
static volatile int send_mode, go;
static volatile pid_t faulter_tid[ET_FAULTERS];
static int nfaulters;

static void pause_a_little(void)
{
    struct timespec ts = {0, 100000};

    nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void *faulter_meanwhile(void *arg)
{
    faulter_tid[(intptr_t)arg] = gettid();
    if (send_mode) {
        while (!go)
            pause_a_little();
    } else {
        while (!main_at->at_step || thread_state(main_at->tid) != 'S')
            pause_a_little();
    }
    if (!try) {
        deref(et_null);
        return NULL;
    }
    DAPTO_TRY(rp) {
        deref(et_null);
    } DAPTO_FAIL(rp) {
        printf("meanwhile: a faulter failed with signal %d\n", rp.signo);
    } DAPTO_END(rp);
    return NULL;
}

/* The operation release: let the faulters fault and wait (5 s at most)
 * until each waits at its fault, stopped by the monitor; returns how
 * many do. */
int et_release(void)
{
    int stopped = 0;

    go = 1;
    for (int k = 0; k < 50000 && stopped < nfaulters; k++) {
        stopped = 0;
        for (int i = 0; i < nfaulters; i++)
            stopped += faulter_tid[i] != 0 && thread_state(faulter_tid[i]) == 't';
        if (stopped < nfaulters)
            pause_a_little();
    }
    return stopped;
}

static void faulters(pthread_t *th)
{
    for (int i = 0; i < nfaulters; i++)
        pthread_create(&th[i], NULL, faulter_meanwhile, (void *)(intptr_t)i);
}

static void join_faulters(pthread_t *th)
{
    for (int i = 0; i < nfaulters; i++)
        pthread_join(th[i], NULL);
    printf("meanwhile: %d faulters joined\n", nfaulters);
}

void et_meanwhile(int n, int mode, int in_try)
{
    pthread_t th[ET_FAULTERS];
    pid_t child = 0;
    int status;

    main_at = mmap(NULL, sizeof *main_at, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (main_at == MAP_FAILED)
        return;
    try = in_try;
    nfaulters = n < 1 ? 1 : n > ET_FAULTERS ? ET_FAULTERS : n;
    main_at->tid = gettid();
    send_mode = mode == 's';
    if (mode == 'f') {
        child = fork();
        if (child == 0) {
            faulters(th);
            join_faulters(th);
            exit(0);
        }
    } else {
        faulters(th);
    }
    main_at->at_step = 1;
    steps(1, 1);
    go = 1;
    if (mode != 'f') {
        join_faulters(th);
    } else if (child > 0 && waitpid(child, &status, 0) == child) {
        if (WIFEXITED(status))
            printf("forked: the child exited with status %d\n",
                   WEXITSTATUS(status));
        else
            printf("forked: the child was killed by signal %d\n",
                   WTERMSIG(status));
    }
    steps(2, 2);
}
