/* SPDX-License-Identifier: MIT */
/*
 * clock.c - record timestamps to nanoseconds <design#clock>.  The TSC
 * rate is measured here, on the monitor's side, from two (TSC,
 * CLOCK_MONOTONIC) pairs: one when the channel is made, one when the
 * program's runtime has come (clock_fix).  From then on the rate is
 * fixed for the run: every record is converted with it, and it is the
 * multiplier the program is given for the durations it computes itself
 * (derived events, questions, the call tree), so the two agree.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Tries of a pair: the narrowest is kept (a first read of either clock
 * may be slow, a page or a cache line to fetch, and the thread may be
 * preempted between two reads). */
#define CLOCK_PAIR_TRIES 8

/* A (TSC, ns) pair read as close together as we can. */
static void clock_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t width = UINT64_MAX;

    for (int i = 0; i < CLOCK_PAIR_TRIES; i++) {
        uint64_t a = clock_tsc();
        uint64_t n = clock_monotonic_ns();
        uint64_t b = clock_tsc();

        if (i == 0 || (b >= a && b - a < width)) {
            width = b >= a ? b - a : UINT64_MAX;
            *tsc = b >= a ? a + (b - a) / 2 : a;
            *ns = n;
        }
    }
}

/* The rate from the calibration pair to a pair read now. */
static void clock_measure(struct clock *c)
{
    uint64_t tsc, ns;

    clock_pair(&tsc, &ns);
    if (ns <= c->cal_ns || tsc <= c->cal_tsc)
        return;
    c->ns_per_tick = (double)(ns - c->cal_ns) / (double)(tsc - c->cal_tsc);
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
    clock_measure(c);
}

void clock_anchor(struct clock *c, uint64_t rt_tsc, uint64_t rt_ns)
{
    if (!c->tsc)
        return;
    c->ref_tsc = rt_tsc;
    c->ref_ns = rt_ns;
}

void clock_fix(struct clock *c)
{
    if (!c->tsc || c->fixed)
        return;
    clock_measure(c);
    c->fixed = 1;
}

int64_t clock_ns(const struct clock *c, uint64_t raw)
{
    if (!c->tsc)
        return (int64_t)(raw - c->start_ns);
    return (int64_t)(c->ref_ns - c->start_ns) +
           (int64_t)((double)(int64_t)(raw - c->ref_tsc) * c->ns_per_tick);
}

int clock_parse(const char *text, int64_t *ns)
{
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    char *end;
    double v = strtod(text, &end);

    if (end == text || v < 0 || v != v)
        return -1;
    while (*end == ' ')
        end++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit) == 0) {
            if (v * units[i].scale > 9.2e18)
                return -1;
            *ns = (int64_t)(v * units[i].scale + 0.5);
            return 0;
        }
    }
    return -1;
}

void clock_format(int64_t ns, char *buf, size_t size)
{
    double a = ns < 0 ? -(double)ns : (double)ns;

    if (a >= 1e9)
        snprintf(buf, size, "%.6f s", (double)ns / 1e9);
    else if (a >= 1e6)
        snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
    else if (a >= 1e3)
        snprintf(buf, size, "%.3f us", (double)ns / 1e3);
    else
        snprintf(buf, size, "%lld ns", (long long)ns);
}
