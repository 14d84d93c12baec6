/* SPDX-License-Identifier: MIT */
/*
 * rtbuf.h - where the runtime writes an event record the monitor is sent:
 * into the thread's own buffer <protocol#tbuf> when the monitor offered
 * thread buffers and the thread has one, else into the shared ring.
 * Internal; never installed.  Async-signal-safe like the rest of the event
 * path; the caller holds rt_busy.
 */
#ifndef NOOSA_RTBUF_H
#define NOOSA_RTBUF_H

#include <stdint.h>

#include "runtime.h"
#include "tbuf.h"

/* This thread's buffer: taken at its first record of an attach that
 * offers buffers (epoch is then that attach's runtime.tb_epoch), kept
 * until the thread ends; zeroed in a forked child. */
struct rt_tbuf {
    struct tbuf_prod p;
    uint32_t epoch; /* the attach whose buffer p is; 0: none */
    uint32_t tried; /* the attach in which the thread last looked for one */
};
extern RT_TLS __thread struct rt_tbuf rt_tb;

/* rt_record() when the monitor offered buffers and the thread has none
 * of this attach: it takes one (once an attach) or writes into the
 * ring. */
int rt_record_slow(struct dapto_record *rec);

/* Write the event record REC (header filled in but for size and seq)
 * for the monitor: 0, or -1 when it could not be (counted lost).  Both
 * common ways inline: the thread's buffer, and the ring when the monitor
 * offered none (a monitor with stops). */
CHANNEL_INLINE_ATTR static inline int rt_record(struct dapto_record *rec)
{
    if (DAPTO_LIKELY(rt_tb.epoch == runtime.tb_epoch))
        return tbuf_put(&runtime.tb, &rt_tb.p, rec);
    if (DAPTO_LIKELY(runtime.tb_epoch == RT_TB_NONE))
        return ring_put_inline(&runtime.ring, rec);
    return CHANNEL_OUT_OF_LINE(rt_record_slow)(rec);
}

#endif /* NOOSA_RTBUF_H */
