/* SPDX-License-Identifier: MIT */
/*
 * rt-target.c - the program that rt-e2e (and the runtime benchmarks)
 * monitor.  argv[1] picks what it does; it reports what it sees of the
 * runtime on stdout as "ok: ..." and "FAIL: ..." lines, and exits 0
 * unless something failed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt-target.h"
#include "rt_dapto.h"

int rt_target_counter = 42;
const char rt_target_kilo[1001] = {[0 ... 999] = 'k'};

static int failures;

/* Register before any constructor of default priority: in a program with
 * the runtime linked in statically, that is before the runtime's own.
 * The generated constructor registers the aspect again, which is ignored. */
__attribute__((constructor(101))) static void early_register(void)
{
    dapto_register(&rt_dapto_aspect_t);
}

#define EXPECT(cond, what)                                                  \
    do {                                                                    \
        if (cond)                                                           \
            printf("ok: %s\n", what);                                       \
        else {                                                              \
            printf("FAIL: %s\n", what);                                     \
            failures++;                                                     \
        }                                                                   \
    } while (0)

static int all_states_zero(void)
{
    unsigned int i;

    for (i = 0; i < DAPTO_EV_BUILTINS; i++)
        if (dapto_builtin_state[i] != 0)
            return 0;
    for (i = 0; i < sizeof rt_dapto_state; i++)
        if (rt_dapto_state[i] != 0)
            return 0;
    return 1;
}

/* The channel's descriptors, from "--fds M:E" after the mode. */
static void check_channel(int argc, char **argv)
{
    int m, e;

    EXPECT(dapto_monitored(), "monitored");
    EXPECT(getenv("DAPTO_CHANNEL") == NULL, "DAPTO_CHANNEL removed");
    if (argc > 3 && strcmp(argv[2], "--fds") == 0 &&
        sscanf(argv[3], "%d:%d", &m, &e) == 2) {
        EXPECT((fcntl(m, F_GETFD) & FD_CLOEXEC) != 0, "region fd close-on-exec");
        EXPECT((fcntl(e, F_GETFD) & FD_CLOEXEC) != 0, "eventfd close-on-exec");
    }
}

static void basic(int argc, char **argv)
{
    int i;

    check_channel(argc, argv);
    for (i = 1; i <= 100; i++)
        _dapto_tick(i);
    _dapto_none();
    errno = 1234;
    _dapto_tick(101);
    EXPECT(errno == 1234, "errno kept across an event");
}

static void types(void)
{
    static char big[3000];
    Blob b = {7};

    memset(big, 'x', sizeof big - 1);
    _dapto_all(INT_MIN, LONG_MAX, -0.5, "hello", (void *)0x1234, b);
    _dapto_all(INT_MAX, LONG_MIN, 1e300, "", NULL, b);
    _dapto_all(0, 0, 0.0, NULL, (void *)&rt_target_counter, b);
    _dapto_all(-1, -1, INFINITY, big, (void *)~(uintptr_t)0, b);
    _dapto_tick(0);
}

static void *pair_thread(void *p)
{
    int who = (int)(intptr_t)p, seq, n = rt_target_counter;

    for (seq = 0; seq < n; seq++)
        _dapto_pair(who, seq);
    return NULL;
}

static void on_segv(int sig)
{
    (void)sig;
    _exit(99);
}

static void stop(void)
{
    pthread_t th;
    struct sigaction sa, cur;
    int i;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, NULL);

    /* Records of another thread, then of this one, then the stop. */
    rt_target_counter = 1000;
    pthread_create(&th, NULL, pair_thread, (void *)(intptr_t)1);
    pthread_join(th, NULL);
    for (i = 1; i <= 100; i++)
        _dapto_tick(i);
    rt_target_counter = 42;
    errno = 4321;
    _dapto_halt(7);
    EXPECT(errno == 4321, "errno kept across a stop");
    _dapto_tick(1000);
    sigaction(SIGSEGV, NULL, &cur);
    EXPECT(cur.sa_handler == on_segv, "own SIGSEGV handler back after the stop");
    sigaction(SIGABRT, NULL, &cur);
    EXPECT(cur.sa_handler == SIG_DFL, "SIGABRT back to default after the stop");
}

static void threads(int n, int m)
{
    pthread_t th[16];
    int i;

    rt_target_counter = m;
    for (i = 0; i < n && i < 16; i++)
        pthread_create(&th[i], NULL, pair_thread, (void *)(intptr_t)(i + 1));
    pair_thread((void *)0);
    for (i = 0; i < n && i < 16; i++)
        pthread_join(th[i], NULL);
}

static char names[5000][8];

static void intern(void)
{
    int i;

    for (i = 0; i < 1000; i++) {
        _dapto_enter("alpha");
        _dapto_enter("beta");
        _dapto_leave("beta");
        _dapto_leave("alpha");
    }
    /* More distinct names than the table holds. */
    for (i = 0; i < 5000; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i);
        _dapto_enter(names[i]);
    }
    _dapto_enter(NULL);
    _dapto_stopped("here", 3);
}

static void trail(void)
{
    int i;
    Blob b = {0};

    for (i = 0; i < 100; i++)
        _dapto_tick(i);
    _dapto_all(1, 2, 3.0, rt_target_kilo + 500, NULL, b);
    _dapto_pair(7, 8);
}

static void forks(void)
{
    pid_t child;
    int st, i;

    _dapto_tick(1);
    fflush(stdout);
    child = fork();
    if (child == 0) {
        printf("child: %d\n", (int)getpid());
        EXPECT(!dapto_monitored(), "child not monitored");
        EXPECT(all_states_zero(), "child's states all zero");
        for (i = 0; i < 10; i++)
            _dapto_tick(1000 + i);
        _dapto_enter("child");
        fflush(stdout);
        exit(failures != 0);
    }
    for (i = 0; i < 10; i++)
        _dapto_tick(2 + i);
    waitpid(child, &st, 0);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child exited 0");
    _dapto_tick(100);
    EXPECT(dapto_monitored(), "parent still monitored");
}

/* Threads stopping at the same time, more of them than mailboxes. */
static void *halt_thread(void *p)
{
    int who = (int)(intptr_t)p, seq;

    for (seq = 0; seq < 50; seq++)
        _dapto_halt(who * 1000 + seq);
    return NULL;
}

static void mstop(void)
{
    pthread_t th[4];
    int i;

    for (i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, halt_thread, (void *)(intptr_t)(i + 1));
    for (i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
}

static void nomon(void)
{
    int i;

    EXPECT(!dapto_monitored(), "not monitored");
    EXPECT(all_states_zero(), "states all zero");
    for (i = 0; i < 1000; i++)
        _dapto_tick(i);
    _dapto_enter("x");
    _dapto_leave("x");
}

static void flood(void)
{
    int i;

    for (i = 0; i < 10000; i++)
        _dapto_tick(i);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "basic";

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (strcmp(mode, "basic") == 0)
        basic(argc, argv);
    else if (strcmp(mode, "types") == 0)
        types();
    else if (strcmp(mode, "stop") == 0)
        stop();
    else if (strcmp(mode, "threads") == 0)
        threads(argc > 2 ? atoi(argv[2]) : 4, argc > 3 ? atoi(argv[3]) : 1000);
    else if (strcmp(mode, "intern") == 0)
        intern();
    else if (strcmp(mode, "trail") == 0)
        trail();
    else if (strcmp(mode, "fork") == 0)
        forks();
    else if (strcmp(mode, "mstop") == 0)
        mstop();
    else if (strcmp(mode, "nomon") == 0)
        nomon();
    else if (strcmp(mode, "flood") == 0)
        flood();
    else if (strcmp(mode, "version") == 0) {
        EXPECT(!dapto_monitored(), "not monitored");
        EXPECT(all_states_zero(), "states all zero");
        _dapto_tick(1);
    } else {
        printf("FAIL: unknown mode %s\n", mode);
        return 2;
    }
    printf("done: %s, %d failed\n", mode, failures);
    return failures != 0;
}
