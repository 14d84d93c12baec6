/* SPDX-License-Identifier: MIT */
/*
 * profile-calls.c - the program of `make bench-profile`: the naive
 * Fibonacci recursion, every call a real call (noinline, noclone, and the
 * build turns off sibling calls), timed by the program itself around the
 * recursion.  Prints "calls=C ns=T" for the driver.  With BENCH_CPU=N
 * in the environment it first moves itself to CPU N (a monitor that
 * started it pinned elsewhere then runs on its own CPU).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline, noclone)) static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 27;
    struct timespec a, b;
    long r, calls;
    const char *cpu = getenv("BENCH_CPU");

    if (cpu != NULL && *cpu != '\0') {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            perror("sched_setaffinity");
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    r = fib(n);
    clock_gettime(CLOCK_MONOTONIC, &b);
    /* fib(n) makes 2 fib(n + 1) - 1 calls (counted without calling it) */
    {
        long a = 0, b = 1, t;
        int i;

        for (i = 0; i <= n; i++) {
            t = a + b;
            a = b;
            b = t;
        }
        calls = 2 * a - 1;
    }
    printf("fib=%ld calls=%ld ns=%lld\n", r, calls,
           (long long)(b.tv_sec - a.tv_sec) * 1000000000LL +
               (b.tv_nsec - a.tv_nsec));
    return 0;
}
