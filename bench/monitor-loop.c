/* SPDX-License-Identifier: MIT */
/*
 * monitor-loop.c - the loop the monitor benchmarks run: N iterations,
 * each calling loop_hit() (where gdb puts its conditional breakpoint) and
 * emitting the event hit (where noosa stops, or which it records).
 *
 *     monitor-loop N
 */
#include <stdlib.h>

#include "monloop_dapto.h"

volatile long loop_sink;

__attribute__((noinline)) void loop_hit(int n);

__attribute__((noinline)) void loop_hit(int n)
{
    loop_sink += n;
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;

    for (int i = 0; i < n; i++) {
        loop_hit(i);
        _dapto_hit(i);
    }
    return 0;
}
