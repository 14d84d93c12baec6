/* SPDX-License-Identifier: MIT */
/*
 * tt-rt.c - a program with the runtime and the interface of tt.dapto,
 * for the end-to-end tests of the monitor.  The first argument picks what
 * it does; see main().
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* An address that faults, hidden from the compiler. */
int *volatile tt_bad = (int *)16;

#include "tt_dapto.h"

volatile int tt_step;

static void types(void)
{
    struct thing th = {7};
    static const char odd[] = "tab\there \"q\" back\\slash \x01 caf\xc3\xa9";

    _dapto_all_types(-42, 1234567890123L, 2.5, "plain", (void *)0x1234, &th,
                     NULL);
    _dapto_all_types(0, -1, -0.125, odd, NULL, &th, NULL);
    _dapto_all_types(2147483647, -9223372036854775807L - 1, 1e300, "", NULL,
                     &th, NULL);
    _dapto_quiet();
    _dapto_enter("parser");
    _dapto_enter("lexer");
    _dapto_leave("lexer");
    _dapto_enter("lexer");
    _dapto_leave("lexer");
    _dapto_leave("parser");
}

static void *worker(void *arg)
{
    int who = (int)(long)arg;

    for (int i = 1; i <= 1000; i++)
        _dapto_tick(i, who);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "types";
    int n = argc > 2 ? atoi(argv[2]) : 3;

    if (strcmp(mode, "types") == 0) {
        types();
        return 0;
    }
    if (strcmp(mode, "ticks") == 0) {
        /* ticks N: N ticks from the main thread (stops, throughput) */
        for (int i = 1; i <= n; i++) {
            tt_step = i;
            _dapto_tick(i, 0);
        }
        return 0;
    }
    if (strcmp(mode, "exit") == 0) {
        _dapto_tick(1, 0);
        exit(n);
    }
    if (strcmp(mode, "segv") == 0) {
        _dapto_tick(1, 0);
        *tt_bad = 1;
        return 0;
    }
    if (strcmp(mode, "kill") == 0) {
        _dapto_tick(1, 0);
        raise(SIGTERM);
        return 0;
    }
    if (strcmp(mode, "threads") == 0) {
        pthread_t th[4];
        for (long i = 0; i < 4; i++)
            pthread_create(&th[i], NULL, worker, (void *)(i + 1));
        for (int i = 0; i < 4; i++)
            pthread_join(th[i], NULL);
        _dapto_tick(0, 0);
        return 0;
    }
    if (strcmp(mode, "fork") == 0) {
        pid_t pid;
        int status;
        _dapto_tick(1, 0);
        pid = fork();
        if (pid == 0) {
            /* detached from the channel: this is never seen */
            _dapto_tick(100, 1);
            _exit(9);
        }
        waitpid(pid, &status, 0);
        _dapto_tick(2, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 0;
    }
    return 100;
}
