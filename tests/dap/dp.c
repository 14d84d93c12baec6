/* SPDX-License-Identifier: MIT */
/*
 * dp.c - the program of the debug adapter's tests (tests/dap), with the
 * interface dp.dapto.  The first argument picks what it does:
 *
 *   run N     "cwd DIR" and, with DP_GREETING in the environment,
 *             "greeting DP_GREETING" first; then N steps: an item (made),
 *             a tick from step() and, every second step, another tick
 *             from run(), at another line; "out I" on standard output and
 *             "err I" on standard error for each; then "done", and exit
 *             status 3.  A second thread, dp-worker, waits meanwhile.
 *   crash     a tick, a SIGSEGV inside a recovery point ("recovered"
 *             when it is converted), another tick, exit status 0
 *   lines     "ready", then for each line read from standard input
 *             (blocking in read(2) meanwhile) said and a tick, and
 *             "got LINE"; "done" at the end of the input
 *   wait      a tick, "ready", then nothing until a signal ends it
 *
 * The lines the tests look for are marked in comments (site: NAME).
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dp_dapto.h"

struct item *dp_items;
long dp_total;
int *volatile dp_bad = (int *)16;

static int worker_pipe[2];

static void *worker(void *arg)
{
    char c;

    (void)arg;
    /* until main() ends */
    if (read(worker_pipe[0], &c, 1) < 0)
        return NULL;
    return NULL;
}

/* One step: the item, then the tick. */
static void step(int i, struct item **link)
{
    struct item *it = calloc(1, sizeof *it);
    long before = dp_total;

    if (it == NULL)
        exit(4);
    it->id = i;
    snprintf(it->name, sizeof it->name, "item %d", i);
    *link = it;
    _dapto_made(it, dp_items); /* site: made */
    dp_total = before + i;
    _dapto_tick(i, dp_total); /* site: tick-step */
    _dapto_quiet(i); /* site: quiet */
}

static int run(int n)
{
    struct item **link = &dp_items;
    char cwd[4096];
    pthread_t t;

    if (getcwd(cwd, sizeof cwd) != NULL)
        printf("cwd %s\n", cwd);
    if (getenv("DP_GREETING") != NULL)
        printf("greeting %s\n", getenv("DP_GREETING"));
    fflush(stdout);

    if (pipe(worker_pipe) == 0 &&
        pthread_create(&t, NULL, worker, NULL) == 0)
        pthread_setname_np(t, "dp-worker");
    for (int i = 1; i <= n; i++) {
        step(i, link);
        link = &(*link)->next;
        if (i % 2 == 0)
            _dapto_tick(-i, dp_total); /* site: tick-main */
        printf("out %d\n", i);
        fflush(stdout);
        fprintf(stderr, "err %d\n", i);
    }
    printf("done\n");
    return 3;
}

static int crash(void)
{
    _dapto_tick(1, 0); /* site: tick-crash */
    DAPTO_TRY(rp) {
        *dp_bad = 1; /* site: fault */
        printf("not reached\n");
    } DAPTO_FAIL(rp) {
        printf("recovered\n");
    } DAPTO_END(rp);
    _dapto_tick(2, 0);
    return 0;
}

static int lines(void)
{
    char line[256];
    int i = 0;

    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        _dapto_said(line);
        _dapto_tick(++i, i);
        printf("got %s\n", line);
        fflush(stdout);
    }
    printf("done\n");
    return 0;
}

static int wait_here(void)
{
    _dapto_tick(0, 0);
    printf("ready\n");
    fflush(stdout);
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "run";

    if (strcmp(mode, "run") == 0)
        return run(argc > 2 ? atoi(argv[2]) : 4);
    if (strcmp(mode, "crash") == 0)
        return crash();
    if (strcmp(mode, "lines") == 0)
        return lines();
    if (strcmp(mode, "wait") == 0)
        return wait_here();
    fprintf(stderr, "dp: run N, crash, lines or wait\n");
    return 2;
}
