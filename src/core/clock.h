/* SPDX-License-Identifier: MIT */
/*
 * clock.h - turning record timestamps into nanoseconds since the program
 * started.  Timestamps are CLOCK_MONOTONIC nanoseconds, or TSC ticks when
 * the monitor sets DAPTO_RF_TSC (only with an invariant TSC); ticks are
 * converted with a rate that the monitor measures against
 * CLOCK_MONOTONIC, refined as the run goes on.
 */
#ifndef NOOSA_CLOCK_H
#define NOOSA_CLOCK_H

#include <stdint.h>

struct clock {
    int tsc;            /* timestamps are TSC ticks */
    uint64_t start_ns;  /* CLOCK_MONOTONIC at the start of the run */
    uint64_t cal_tsc;   /* calibration origin: a TSC reading ... */
    uint64_t cal_ns;    /* ... and the CLOCK_MONOTONIC time with it */
    uint64_t last_ns;   /* when the rate was last refined */
    double ns_per_tick;
    uint64_t ref_tsc;   /* conversion origin: the runtime's pair, once */
    uint64_t ref_ns;    /* known, else the calibration origin */
};

/* Whether this machine has a TSC that may be used as a clock (constant
 * and non-stop, as /proc/cpuinfo says). */
int clock_tsc_usable(void);

/* Start the clock now; with TSC, measure a first rate (takes ~2 ms). */
void clock_init(struct clock *c, int tsc);

/* The runtime's TSC reading and the CLOCK_MONOTONIC time that went with
 * it; conversions are anchored there from now on. */
void clock_anchor(struct clock *c, uint64_t rt_tsc, uint64_t rt_ns);

/* Refine the rate (cheap; call now and then). */
void clock_refine(struct clock *c);

/* Nanoseconds since the start for a raw timestamp (negative if before). */
int64_t clock_ns(const struct clock *c, uint64_t raw);

uint64_t clock_monotonic_ns(void);

/* A timestamp of C's kind (a TSC reading, or CLOCK_MONOTONIC ns) now,
 * as the program writes them. */
uint64_t clock_raw(const struct clock *c);

#endif /* NOOSA_CLOCK_H */
