/* SPDX-License-Identifier: MIT */
/*
 * debug-index.c - what the debug layer's index of names costs on a
 * program (bench/debug-run.sh): PROGRAM is started stopped at its exec
 * (under ptrace, before it runs: the executable and the dynamic loader
 * are mapped), then ROUNDS times the debug information is opened afresh
 * and the global NAME looked up, which builds the index
 * (<design#debug-lazy>); the opening alone is timed too.  Prints the
 * names and compilation units indexed and the median milliseconds of
 * each.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dinfo.h"

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static size_t no_read(void *arg, uint64_t addr, void *buf, size_t len)
{
    (void)arg;
    (void)addr;
    (void)buf;
    (void)len;
    return 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int rounds = argc > 3 ? atoi(argv[3]) : 5, status, i;
    double *open_ms, *index_ms;
    size_t names = 0, units = 0;
    pid_t pid;

    if (argc < 3 || rounds < 1) {
        fprintf(stderr, "usage: debug-index PROGRAM NAME [ROUNDS]\n");
        return 2;
    }
    pid = fork();
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        execl(argv[1], argv[1], (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
        fprintf(stderr, "debug-index: %s did not start\n", argv[1]);
        return 1;
    }
    open_ms = calloc((size_t)rounds, sizeof *open_ms);
    index_ms = calloc((size_t)rounds, sizeof *index_ms);
    for (i = 0; i < rounds; i++) {
        char *cause = NULL;
        struct dsym s;
        uint64_t ns;
        double t0 = now_ms(), t1, t2;
        struct dinfo *d = dinfo_open(pid, no_read, NULL, &cause);

        if (d == NULL) {
            fprintf(stderr, "debug-index: %s\n", cause);
            kill(pid, SIGKILL);
            return 1;
        }
        t1 = now_ms();
        if (dinfo_global(d, argv[2], NULL, &s) != 0)
            fprintf(stderr, "debug-index: no %s in %s\n", argv[2], argv[1]);
        t2 = now_ms();
        dinfo_index_stats(d, &names, &units, &ns);
        open_ms[i] = t1 - t0;
        index_ms[i] = t2 - t1;
        dinfo_free(d);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    qsort(open_ms, (size_t)rounds, sizeof *open_ms, cmp);
    qsort(index_ms, (size_t)rounds, sizeof *index_ms, cmp);
    printf("%zu names %zu units open %.2f ms index %.2f ms\n", names, units,
           open_ms[rounds / 2], index_ms[rounds / 2]);
    free(open_ms);
    free(index_ms);
    return 0;
}
