/* SPDX-License-Identifier: MIT */
/*
 * et-errors.c - a program that hits run-time errors, for the tests of
 * noosa's error handling: integer division by zero, a null pointer,
 * abort, an illegal instruction, a bus error, errors reported with
 * dapto_error, its own signal handler, recovery points (nested, left
 * early, a stack overflow), components, threads, a recovery table that it
 * spoils itself.  The first argument picks what it does (see main); "try"
 * as the second puts the error inside a recovery point.  Everything it
 * says goes to standard output, unbuffered.
 */
#define _GNU_SOURCE

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "et_dapto.h"
#include "protocol.h"
#include "runtime.h" /* the runtime is compiled in: its region, for corrupt */

/* Frames to see in backtraces, whatever the optimisation. */
#if defined(__GNUC__) && !defined(__clang__)
#define FRAME __attribute__((noinline, noclone))
#else
#define FRAME __attribute__((noinline))
#endif

int *volatile et_null;
volatile int et_steps;
static volatile int zero;
static int try;

void steps(int from, int to)
{
    for (int i = from; i <= to; i++) {
        et_steps = i;
        _dapto_step(i);
    }
}

FRAME static int divide(int a, int b)
{
    return a / b;
}

FRAME int deref(int *p)
{
    return *(volatile int *)p;
}

FRAME static void give_up(void)
{
    abort();
}

FRAME static int check_value(int v)
{
    if (v > 10) {
        if (dapto_error("bad value %d (at most 10)", v) == DAPTO_CONVERTED) {
            printf("report: converted, check_value fails\n");
            return -1;
        }
        printf("report: dapto_error returned without converting\n");
    }
    return v;
}

/* Run ERROR in a recovery point when asked to. */
FRAME static void run(const char *name, void (*error)(void))
{
    if (!try) {
        error();
        printf("%s: no error\n", name);
        return;
    }
    DAPTO_TRY(rp) {
        error();
        printf("%s: no error\n", name);
    } DAPTO_FAIL(rp) {
        printf("%s: failed with signal %d, depth now %d\n", name, rp.signo,
               dapto_recover_depth());
    } DAPTO_END(rp);
    printf("%s: done\n", name);
}

FRAME static void do_div(void)
{
    printf("div: %d\n", divide(7, zero));
}

FRAME static void do_null(void)
{
    printf("null: %d\n", deref(et_null));
}

FRAME static void do_abort(void)
{
    give_up();
}

FRAME static void do_ill(void)
{
    __builtin_trap();
}

/* Touch a page of a file mapped beyond its end. */
FRAME static void do_bus(void)
{
    FILE *fp = tmpfile();
    volatile char *p;

    if (fp == NULL)
        return;
    p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fileno(fp), 0);
    if (p == MAP_FAILED)
        return;
    printf("bus: %d\n", p[0]);
}

FRAME static void do_report(void)
{
    printf("report: check_value gives %d\n", check_value(42));
}

static void on_segv(int sig)
{
    static const char msg[] = "handler: caught SIGSEGV\n";

    (void)sig;
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0)
        _exit(4);
    _exit(3);
}

/* Deeper and deeper until the stack runs out. */
FRAME static int recurse(int n)
{
    volatile char frame[1024];

    frame[0] = (char)n;
    return recurse(n + 1) + frame[0];
}

FRAME static void nested(void)
{
    DAPTO_TRY(outer) {
        _dapto_mark("outer");
        DAPTO_TRY(inner) {
            _dapto_mark("inner");
            deref(et_null);
        } DAPTO_FAIL(inner) {
            printf("nested: inner failed, depth now %d\n",
                   dapto_recover_depth());
        } DAPTO_END(inner);
        printf("nested: after inner, depth %d\n", dapto_recover_depth());
        deref(et_null);
        printf("nested: not reached\n");
    } DAPTO_FAIL(outer) {
        printf("nested: outer failed, depth now %d\n", dapto_recover_depth());
    } DAPTO_END(outer);
}

/* A recovery point left without DAPTO_LEAVE, against the rules: the
 * point around it cleans up after it when it ends. */
FRAME static int careless(void)
{
    DAPTO_TRY(rp) {
        if (et_null == NULL)
            return dapto_recover_depth();
    } DAPTO_END(rp);
    return -1;
}

/* A recovery point left early, with DAPTO_LEAVE. */
FRAME static int early(void)
{
    DAPTO_TRY(rp) {
        if (et_null == NULL) {
            DAPTO_LEAVE(rp);
            return 1;
        }
    } DAPTO_END(rp);
    return 0;
}

/* Threads: the ids of the two that block, whether each is about to
 * block in read(2) (its last step before it), and the pipes they read. */
static volatile pid_t blocker_tid[2];
static volatile int about_to_block[2];
static int blocker_pipe[2][2];

/* Thread TID's state in /proc (S: it sleeps, t: its tracer stopped it). */
char thread_state(pid_t tid)
{
    char path[64], buf[256], *p;
    FILE *fp;
    size_t n;

    snprintf(path, sizeof path, "/proc/%d/stat", (int)tid);
    fp = fopen(path, "r");
    if (fp == NULL)
        return 0;
    n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    p = strrchr(buf, ')');
    return p != NULL && p[1] == ' ' ? p[2] : 0;
}

/* Block in read(2), as blocker WHO, until woken: the faulter wakes
 * blocker 1 when its error was converted, blocker 1 wakes blocker 0. */
FRAME static void block(int who)
{
    char c;

    blocker_tid[who] = gettid();
    about_to_block[who] = 1;
    while (read(blocker_pipe[who][0], &c, 1) < 0)
        ;
    printf("threads: blocker %d woken\n", who);
}

FRAME static void *wait_forever(void *arg)
{
    (void)arg;
    block(1);
    /* then the main thread, so that they say so in order */
    if (write(blocker_pipe[0][1], "x", 1) != 1)
        printf("threads: cannot wake the main thread\n");
    return NULL;
}

/* Fault once both blockers sleep in read(2): the report then sees them
 * there, whatever the scheduling.  With "try", the error is in a
 * recovery point, and a conversion wakes the blockers: the program ends
 * only if the monitor let them go on too. */
FRAME static void *faulter(void *arg)
{
    (void)arg;
    for (int who = 0; who < 2; who++)
        while (!about_to_block[who] || thread_state(blocker_tid[who]) != 'S')
            sched_yield();
    steps(1, 2);
    if (!try) {
        deref(et_null);
        return NULL;
    }
    DAPTO_TRY(rp) {
        deref(et_null);
    } DAPTO_FAIL(rp) {
        printf("threads: faulter failed with signal %d\n", rp.signo);
        if (write(blocker_pipe[1][1], "x", 1) != 1)
            printf("threads: cannot wake the blockers\n");
    } DAPTO_END(rp);
    return NULL;
}

FRAME static void threads(void)
{
    pthread_t a, b;

    if (pipe(blocker_pipe[0]) != 0 || pipe(blocker_pipe[1]) != 0)
        return;
    pthread_create(&a, NULL, wait_forever, NULL);
    pthread_create(&b, NULL, faulter, NULL);
    block(0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    setvbuf(stdout, NULL, _IONBF, 0);
    try = argc > 2 && strcmp(argv[2], "try") == 0;
    if (strcmp(mode, "div") == 0) {
        steps(1, 3);
        run("div", do_div);
    } else if (strcmp(mode, "null") == 0) {
        steps(1, 3);
        run("null", do_null);
    } else if (strcmp(mode, "abort") == 0) {
        steps(1, 3);
        run("abort", do_abort);
    } else if (strcmp(mode, "ill") == 0) {
        run("ill", do_ill);
    } else if (strcmp(mode, "bus") == 0) {
        run("bus", do_bus);
    } else if (strcmp(mode, "report") == 0) {
        steps(1, 3);
        run("report", do_report);
    } else if (strcmp(mode, "handler") == 0) {
        signal(SIGSEGV, on_segv);
        steps(1, 3);
        run("handler", do_null);
    } else if (strcmp(mode, "loop") == 0) {
        /* loop N: N errors, each in its own recovery point */
        int n = argc > 2 ? atoi(argv[2]) : 3;

        for (int i = 1; i <= n; i++) {
            DAPTO_TRY(rp) {
                steps(i, i);
                deref(et_null);
            } DAPTO_FAIL(rp) {
                printf("loop: error %d converted (signal %d)\n", i, rp.signo);
            } DAPTO_END(rp);
        }
        printf("loop: done\n");
    } else if (strcmp(mode, "events") == 0) {
        /* events: 20 steps, each after a mark, then an error */
        for (int i = 1; i <= 20; i++) {
            _dapto_mark(i % 2 ? "odd" : "even");
            steps(i, i);
        }
        deref(et_null);
    } else if (strcmp(mode, "nested") == 0) {
        nested();
        printf("nested: done, depth %d\n", dapto_recover_depth());
    } else if (strcmp(mode, "leave") == 0) {
        printf("leave: early gives %d, depth %d\n", early(),
               dapto_recover_depth());
        deref(et_null);
    } else if (strcmp(mode, "careless") == 0) {
        int inside = 0;

        DAPTO_TRY(rp) {
            inside = careless();
            printf("careless: depth %d inside, %d after it returned\n",
                   inside, dapto_recover_depth());
        } DAPTO_END(rp);
        printf("careless: depth %d after the outer point\n",
               dapto_recover_depth());
    } else if (strcmp(mode, "overflow") == 0) {
        DAPTO_TRY(rp) {
            recurse(1);
        } DAPTO_FAIL(rp) {
            printf("overflow: failed with signal %d\n", rp.signo);
        } DAPTO_END(rp);
        printf("overflow: done\n");
    } else if (strcmp(mode, "components") == 0) {
        _dapto_enter("main");
        _dapto_enter("parse");
        _dapto_leave("parse");
        _dapto_enter("eval");
        _dapto_enter("expr");
        deref(et_null);
    } else if (strcmp(mode, "corrupt") == 0) {
        /* corrupt magic|point|address: spoil what the monitor reads in
         * the recovery table (or its address), then fault in a recovery
         * point */
        const char *what = argc > 2 ? argv[2] : "magic";

        DAPTO_TRY(rp) {
            struct dapto_recover_table *t =
                (void *)(uintptr_t)runtime.region.hdr->rt_recover;

            if (strcmp(what, "magic") == 0)
                t->magic = 0;
            for (int i = 0; i < DAPTO_RECOVER_SLOTS; i++)
                if (strcmp(what, "point") == 0 &&
                    t->slots[i].tid == (uint32_t)gettid())
                    t->slots[i].point = 16;
            if (strcmp(what, "address") == 0)
                runtime.region.hdr->rt_recover = 8;
            deref(et_null);
        } DAPTO_FAIL(rp) {
            printf("corrupt: failed with signal %d at %s:%d\n", rp.signo,
                   rp.func, rp.line);
        } DAPTO_END(rp);
    } else if (strcmp(mode, "threads") == 0) {
        threads();
    } else if (strcmp(mode, "steps") == 0) {
        steps(1, argc > 2 ? atoi(argv[2]) : 3);
    } else if (strcmp(mode, "meanwhile") == 0 || strcmp(mode, "send") == 0 ||
               strcmp(mode, "forked") == 0) {
        /* meanwhile|send|forked N ?try? (et-meanwhile.c) */
        et_meanwhile(argc > 2 ? atoi(argv[2]) : 1, mode[0],
                     argc > 3 && strcmp(argv[3], "try") == 0);
    } else {
        fprintf(stderr, "usage: et-errors div|null|abort|ill|bus|report|"
                "handler ?try? | loop N | events | nested | leave | "
                "overflow | careless | components | "
                "corrupt magic|point|address | threads | steps N | "
                "meanwhile|send|forked N ?try?\n");
        return 2;
    }
    printf("%s: exit\n", mode);
    return 0;
}
