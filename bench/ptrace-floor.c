/* SPDX-License-Identifier: MIT */
/*
 * ptrace-floor.c - what a stop under ptrace costs with nothing else done
 * (bench/probe-run.sh's floor): a child on the CPU $PP_CPU names executes
 * a breakpoint instruction N times; the tracer, wherever taskset put it,
 * finds each stop by asking for it in a loop (waitpid WNOHANG, a yield
 * between looks, as noosa does after it lets a thread go), reads the
 * registers and continues the child.  Prints the nanoseconds a hit.
 *
 *     ptrace-floor N
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pin.h"

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#if defined(__x86_64__)
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000;
    int status;
    double t0;
    pid_t c;

    if (n <= 0) {
        fprintf(stderr, "usage: ptrace-floor N (N > 0)\n");
        return 2;
    }
    c = fork();
    if (c < 0) {
        perror("fork");
        return 1;
    }
    if (c == 0) {
        bench_pin("PP_CPU");
        if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
            _exit(1);
        raise(SIGSTOP);
        for (long i = 0; i < n; i++)
            __asm__ volatile("int3");
        _exit(0);
    }
    if (waitpid(c, &status, 0) != c || !WIFSTOPPED(status)) {
        fprintf(stderr, "ptrace-floor: the child did not stop\n");
        return 1;
    }
    ptrace(PTRACE_CONT, c, 0, 0);
    t0 = now_ns();
    for (long i = 0; i < n; i++) {
        struct user_regs_struct regs;
        pid_t w;

        while ((w = waitpid(c, &status, WNOHANG)) == 0)
            sched_yield();
        if (w != c || !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
            fprintf(stderr, "ptrace-floor: not a breakpoint's stop\n");
            return 1;
        }
        ptrace(PTRACE_GETREGS, c, 0, &regs);
        ptrace(PTRACE_CONT, c, 0, 0);
    }
    printf("%.0f ns a hit\n", (now_ns() - t0) / n);
    waitpid(c, &status, 0);
    return 0;
}
#else
int main(void)
{
    fprintf(stderr, "ptrace-floor: x86-64 only\n");
    return 77;
}
#endif
