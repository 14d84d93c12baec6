/* SPDX-License-Identifier: MIT */
/*
 * tt-prog.c - a program without the runtime, for the tests of target
 * control.  The first argument picks what it does.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An address that faults, hidden from the compiler. */
int *volatile tt_bad = (int *)16;

volatile int value;
static sigjmp_buf recover;

static void on_usr1(int sig)
{
    (void)sig;
    value = 5;
}

static void on_segv(int sig)
{
    (void)sig;
    siglongjmp(recover, 1);
}

static void *spin(void *arg)
{
    (void)arg;
    for (;;)
        value++;
    return NULL;
}

static void *crash(void *arg)
{
    (void)arg;
    usleep(20000);
    *tt_bad = 1;
    return NULL;
}

static void pidfile(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        exit(99);
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exit";

    if (strcmp(mode, "exit") == 0)
        return argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(mode, "kill") == 0) {
        kill(getpid(), argc > 2 ? atoi(argv[2]) : SIGTERM);
        pause();
    }
    if (strcmp(mode, "segv") == 0)
        *tt_bad = 1;
    if (strcmp(mode, "abort") == 0)
        abort();
    if (strcmp(mode, "fpe") == 0)
        raise(SIGFPE);
    if (strcmp(mode, "busy") == 0) {
        /* busy [THREADS [PIDFILE]] */
        int n = argc > 2 ? atoi(argv[2]) : 0;
        pthread_t th;
        if (argc > 3)
            pidfile(argv[3]);
        for (int i = 0; i < n; i++)
            pthread_create(&th, NULL, spin, NULL);
        spin(NULL);
    }
    if (strcmp(mode, "trap-busy") == 0) {
        /* a signal-delivery-stop a moment after it runs, then busy */
        usleep(50000);
        raise(SIGWINCH);
        spin(NULL);
    }
    if (strcmp(mode, "thread-segv") == 0) {
        pthread_t th[3];
        pthread_create(&th[0], NULL, spin, NULL);
        pthread_create(&th[1], NULL, crash, NULL);
        pthread_create(&th[2], NULL, spin, NULL);
        pause();
    }
    if (strcmp(mode, "mem") == 0) {
        /* print where `value` is; exit with it once the monitor sets it */
        printf("%p\n", (void *)&value);
        fflush(stdout);
        while (value == 0)
            usleep(1000);
        return value;
    }
    if (strcmp(mode, "stop") == 0) {
        raise(SIGSTOP);
        return 3;
    }
    if (strcmp(mode, "usr1") == 0) {
        signal(SIGUSR1, on_usr1);
        raise(SIGUSR1);
        return value;
    }
    if (strcmp(mode, "segv-catch") == 0) {
        signal(SIGSEGV, on_segv);
        if (sigsetjmp(recover, 1) == 0)
            *tt_bad = 1;
        return 6;
    }
    if (strcmp(mode, "echo") == 0) {
        char line[256];
        if (fgets(line, sizeof line, stdin) == NULL)
            return 1;
        fputs(line, stdout);
        fputs("err\n", stderr);
        return 0;
    }
    return 100;
}
