/* SPDX-License-Identifier: MIT */
/*
 * clock.h - turning record timestamps into nanoseconds since the program
 * started.  Timestamps are CLOCK_MONOTONIC nanoseconds, or TSC ticks when
 * the monitor sets DAPTO_RF_TSC (only with an invariant TSC); ticks are
 * converted with a rate that the monitor measures against
 * CLOCK_MONOTONIC until the program's runtime has come, and keeps for the
 * run <design#clock>.
 */
#ifndef NOOSA_CLOCK_H
#define NOOSA_CLOCK_H

#include <stdint.h>

struct clock {
    int tsc;            /* timestamps are TSC ticks */
    uint64_t start_ns;  /* CLOCK_MONOTONIC at the start of the run */
    uint64_t cal_tsc;   /* calibration origin: a TSC reading ... */
    uint64_t cal_ns;    /* ... and the CLOCK_MONOTONIC time with it */
    double ns_per_tick;
    int fixed;          /* the rate is the run's (clock_fix) */
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

/* Measure the rate a last time, from the start to now, and keep it from
 * then on (once the program's runtime is there, before its first record
 * is converted and before the rate is handed to it): records converted
 * at any time of the run, and durations the program computes with the
 * rate, are then of one time base. */
void clock_fix(struct clock *c);

/* Nanoseconds since the start for a raw timestamp (negative if before). */
int64_t clock_ns(const struct clock *c, uint64_t raw);

uint64_t clock_monotonic_ns(void);

/* A timestamp of C's kind (a TSC reading, or CLOCK_MONOTONIC ns) now,
 * as the program writes them. */
uint64_t clock_raw(const struct clock *c);

/* A duration as people write it: a number and its unit (ns, us, ms, s;
 * "1.5ms", "200 us"): 0 with *NS, or -1 when TEXT is not one. */
int clock_parse(const char *text, int64_t *ns);
/* NS as people read it ("1.234567 s", "12.500 ms", "830 ns") into BUF. */
void clock_format(int64_t ns, char *buf, size_t size);

#endif /* NOOSA_CLOCK_H */
