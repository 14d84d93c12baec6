/* SPDX-License-Identifier: MIT */
/*
 * pin.h - a benchmark's program moving itself to the CPU named by an
 * environment variable (BENCH_CPU), its monitor being pinned by taskset.
 * Needs _GNU_SOURCE before the first include.
 */
#ifndef NOOSA_BENCH_PIN_H
#define NOOSA_BENCH_PIN_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* Move to CPU $VAR when VAR is set and not empty; say why not if that
 * fails, and go on. */
static inline void bench_pin(const char *var)
{
    const char *cpu = getenv(var);
    cpu_set_t set;

    if (cpu == NULL || *cpu == '\0')
        return;
    CPU_ZERO(&set);
    CPU_SET(atoi(cpu), &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        perror("sched_setaffinity");
}

#endif /* NOOSA_BENCH_PIN_H */
