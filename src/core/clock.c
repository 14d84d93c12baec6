/* SPDX-License-Identifier: MIT */
/*
 * clock.c - record timestamps to nanoseconds.  The TSC rate is measured
 * here, on the monitor's side, from pairs of (TSC, CLOCK_MONOTONIC)
 * readings taken ever further apart, so it converges as the run goes on.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"

uint64_t clock_monotonic_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static uint64_t clock_tsc(void)
{
    return __rdtsc();
}
#else
static uint64_t clock_tsc(void)
{
    return 0;
}
#endif

uint64_t clock_raw(const struct clock *c)
{
    return c->tsc ? clock_tsc() : clock_monotonic_ns();
}

int clock_tsc_usable(void)
{
#if defined(__x86_64__) || defined(__i386__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int constant = 0, nonstop = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
#else
    return 0;
#endif
}

/* A (TSC, ns) pair read as close together as we can. */
static void clock_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t a = clock_tsc();
    *ns = clock_monotonic_ns();
    uint64_t b = clock_tsc();
    *tsc = a + (b - a) / 2;
}

void clock_init(struct clock *c, int tsc)
{
    memset(c, 0, sizeof *c);
    c->tsc = tsc;
    c->start_ns = clock_monotonic_ns();
    if (!tsc)
        return;
    clock_pair(&c->cal_tsc, &c->cal_ns);
    c->ref_tsc = c->cal_tsc;
    c->ref_ns = c->cal_ns;
    {
        struct timespec d = {0, 2000000};
        nanosleep(&d, NULL);
    }
    c->ns_per_tick = 1.0;
    clock_refine(c);
}

void clock_anchor(struct clock *c, uint64_t rt_tsc, uint64_t rt_ns)
{
    if (!c->tsc)
        return;
    c->ref_tsc = rt_tsc;
    c->ref_ns = rt_ns;
}

void clock_refine(struct clock *c)
{
    uint64_t tsc, ns;

    if (!c->tsc)
        return;
    clock_pair(&tsc, &ns);
    if (ns <= c->cal_ns || tsc <= c->cal_tsc)
        return;
    c->ns_per_tick = (double)(ns - c->cal_ns) / (double)(tsc - c->cal_tsc);
    c->last_ns = ns;
}

int64_t clock_ns(const struct clock *c, uint64_t raw)
{
    if (!c->tsc)
        return (int64_t)(raw - c->start_ns);
    return (int64_t)(c->ref_ns - c->start_ns) +
           (int64_t)((double)(int64_t)(raw - c->ref_tsc) * c->ns_per_tick);
}
