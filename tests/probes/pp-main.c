/* SPDX-License-Identifier: MIT */
/*
 * pp-main.c - a program with hand-written USDT probes (tests/probes) in
 * its executable, in a library it links (pp-lib.c) and in one it loads
 * later (pp-dl.c): arguments in registers, in memory, at a global symbol
 * and constants, signed and not, one probe guarded by a semaphore.
 *
 *     pp-main [MODE [N]]
 *
 * MODE: run (the default: three rounds), fork (a child runs the rounds
 * too and ends), vfork (a vfork child passes a probe, then executes
 * true), exec (executes true after a round), threads (N threads hit the
 * probes 1000 times each), waves (N waves of 8 threads, each hitting
 * app:thread 100 times with its number 8 * wave + k, one of them taking
 * a signal amid its hits and the main thread forking a child that ends at
 * once: stops of every kind racing the hits), components (enters and
 * leaves components), loop (N hits of app:tick, for the bench).  PP_CPU=C
 * in the environment keeps it on CPU C.
 */
#define _GNU_SOURCE
#define _SDT_HAS_SEMAPHORES 1
#include <dlfcn.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pp.h"

unsigned short app_guarded_semaphore __attribute__((section(".probes")));
unsigned short app_tick_semaphore __attribute__((section(".probes")));
unsigned short app_pair_semaphore __attribute__((section(".probes")));
unsigned short app_global_semaphore __attribute__((section(".probes")));
unsigned short app_constant_semaphore __attribute__((section(".probes")));
unsigned short app_enter_semaphore __attribute__((section(".probes")));
unsigned short app_leave_semaphore __attribute__((section(".probes")));
unsigned short app_thread_semaphore __attribute__((section(".probes")));

long pp_counters[4] = {7, 8, 9, 10};
static const char *names[] = {"alpha", "beta", "gamma"};

static void __attribute__((noinline)) round_(int i, const char *who)
{
    volatile struct {
        long a;
        int b;
    } v = {40 + i, -i};

    DTRACE_PROBE3(app, tick, i, (long)i * 1000000000L, -i);
    DTRACE_PROBE2(app, pair, v.a, who);
    DTRACE_PROBE1(app, global, pp_counters[2]);
    DTRACE_PROBE1(app, constant, 42);
    if (__builtin_expect(app_guarded_semaphore, 0))
        DTRACE_PROBE1(app, guarded, v.b);
    pp_lib_work(i);
}

static void rounds(const char *who)
{
    for (int i = 0; i < 3; i++)
        round_(i, who);
}

static void component(const char *name, int depth)
{
    DTRACE_PROBE1(app, enter, name);
    if (depth > 0)
        component(names[depth % 3], depth - 1);
    usleep(2000);
    DTRACE_PROBE1(app, leave, name);
}

static void *thread_main(void *arg)
{
    long id = (long)arg;

    for (int i = 0; i < 1000; i++)
        DTRACE_PROBE2(app, thread, id, i);
    return NULL;
}

static volatile sig_atomic_t signals;

static void on_usr1(int sig)
{
    (void)sig;
    signals++;
}

static void *wave_main(void *arg)
{
    long id = (long)arg;

    for (int i = 0; i < 100; i++) {
        DTRACE_PROBE2(app, thread, id, i);
        if (id % 8 == 3 && i == 40)
            pthread_kill(pthread_self(), SIGUSR1);
    }
    return NULL;
}

/* N waves of 8 threads hitting app:thread, a signal and a fork in each. */
static int waves(long n)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    for (long w = 0; w < n; w++) {
        pthread_t t[8];
        int status;
        pid_t pid;

        for (long k = 0; k < 8; k++)
            pthread_create(&t[k], NULL, wave_main, (void *)(8 * w + k));
        if ((pid = fork()) == 0)
            _exit(0);
        for (long k = 0; k < 8; k++)
            pthread_join(t[k], NULL);
        if (pid < 0 || waitpid(pid, &status, 0) != pid ||
            !WIFEXITED(status)) {
            fprintf(stderr, "pp-main: the child of wave %ld\n", w);
            return 1;
        }
    }
    printf("waves %ld signals %d\n", n, (int)signals);
    return 0;
}

static int load_dl(void)
{
    void *h = dlopen(PP_DL, RTLD_NOW);
    int (*run)(int);

    if (h == NULL) {
        fprintf(stderr, "pp-main: %s\n", dlerror());
        return 1;
    }
    run = (int (*)(int))dlsym(h, "pp_dl_run");
    printf("dl %d\n", run(7));
    dlclose(h);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "run";
    long n = argc > 2 ? atol(argv[2]) : 4;
    const char *cpu = getenv("PP_CPU");
    int status;
    pid_t pid;

    if (cpu != NULL) {
        /* (the bench's placements: the program on this CPU) */
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        sched_setaffinity(0, sizeof set, &set);
    }

    if (strcmp(mode, "loop") == 0) {
        struct timespec t0, t1;

        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (long i = 0; i < n; i++)
            DTRACE_PROBE3(app, tick, (int)i, i, -(int)i);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        /* (what the program spent, for the bench) */
        fprintf(stderr, "loop: %ld hits in %.0f ns\n", n,
                (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec));
        return 0;
    }
    if (strcmp(mode, "threads") == 0) {
        pthread_t t[64];

        if (n > 64)
            n = 64;
        for (long i = 0; i < n; i++)
            pthread_create(&t[i], NULL, thread_main, (void *)i);
        for (long i = 0; i < n; i++)
            pthread_join(t[i], NULL);
        printf("threads %ld\n", n);
        return 0;
    }
    if (strcmp(mode, "waves") == 0)
        return waves(n);
    if (strcmp(mode, "components") == 0) {
        component("main", 3);
        return 0;
    }
    rounds("parent");
    if (strcmp(mode, "fork") == 0) {
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            rounds("child");
            printf("child done\n");
            return 0;
        }
        waitpid(pid, &status, 0);
        printf("child %s %d\n", WIFEXITED(status) ? "exited" : "killed",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    } else if (strcmp(mode, "vfork") == 0) {
        fflush(stdout);
        pid = vfork();
        if (pid == 0) {
            DTRACE_PROBE1(app, constant, 42);
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        waitpid(pid, &status, 0);
        printf("vfork child %s %d\n",
               WIFEXITED(status) ? "exited" : "killed",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        rounds("after");
    } else if (strcmp(mode, "exec") == 0) {
        fflush(stdout);
        execl("/bin/true", "true", (char *)NULL);
        return 127;
    }
    if (load_dl() != 0)
        return 1;
    printf("done\n");
    return 0;
}
