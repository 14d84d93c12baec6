/* SPDX-License-Identifier: MIT */
/*
 * rtrail.h - the post-mortem trail of the calling thread <protocol#ttrail>:
 * a trail of its own in the region, taken at its first event kept there,
 * written with plain stores and no clock read (dapto.h's dapto_keep_*,
 * which generated encoders inline; dapto_trail_self is the thread's).  A
 * thread that finds none (every trail taken, or a monitor older than
 * them) keeps its events in the region's shared trail <protocol#trail>,
 * as before.  Internal; never installed.  Async-signal-safe like the rest
 * of the event path.
 */
#ifndef NOOSA_RTRAIL_H
#define NOOSA_RTRAIL_H

#include <stdint.h>

#include "dapto.h"
#include "rtbuf.h"
#include "runtime.h"
#include "ttrail.h"

/* dapto_trail_epoch without threads' trails: never a thread's epoch. */
#define RT_TT_NONE UINT32_MAX

/* The attach of the calling thread's trail, and whether it looked for
 * one in this attach already: zeroed in a forked child. */
extern RT_TLS __thread uint32_t rt_tt_tried;

/* Begin keeping an event in the calling thread's trail (dapto_keep_begin),
 * taking one first when it has none of this attach and one is free (once
 * an attach).  Returns 0 when it cannot: no trail, or the thread is
 * keeping another event (a signal handler's event inside it, which this
 * counts lost). */
int rt_keep_begin(struct dapto_keep *k);

/* Keep record REC (header filled in: code, len bytes of values) in the
 * calling thread's trail.  Returns 0, or -1 when the thread has none
 * (keep it in the shared trail). */
int rt_trail_record(const struct dapto_record *rec);

/* Whether thread TID of this process has ended. */
int rt_thread_gone(uint32_t tid);

/* Deliver the event record REC (header filled in but for time, size and
 * seq) in state ST, its filter decided (no DAPTO_STATE_FILTER, not 0): the
 * trail alone keeps it in the thread's own trail without a clock read;
 * anything else timestamps it, and the common case (recorded, and maybe
 * kept) is written without a call. */
static inline void rt_deliver(struct dapto_record *rec, unsigned int st)
{
    if (st == DAPTO_STATE_TRAIL && rt_keep(rec) == 0)
        return;
    rec->time = rt_now();
    if (DAPTO_LIKELY(RT_RING_ONLY(st))) {
        rt_busy = 1;
        if (st & DAPTO_STATE_TRAIL)
            rt_trail_record(rec); /* (without one the monitor keeps it) */
        rt_record(rec);
        rt_busy = 0;
        return;
    }
    event_deliver(rec, st);
}

#endif /* NOOSA_RTRAIL_H */
