/* SPDX-License-Identifier: MIT */
/*
 * rtbuf.c - a thread's own buffer <protocol#tbuf> taken at its first
 * record.  A thread that finds every buffer taken writes into the shared
 * ring for the rest of the attach, so that its records are never split
 * between the two (the monitor orders each thread's records by where they
 * are, not by their times).
 */
#include "config.h"

#include "dapto.h"
#include "rtbuf.h"
#include "runtime.h"

RT_TLS __thread struct rt_tbuf rt_tb;

int rt_record_slow(struct dapto_record *rec)
{
    uint32_t e = runtime.tb_epoch;

    if (e != RT_TB_NONE && rt_tb.tried != e) {
        rt_tb.tried = e;
        if (tbuf_claim(&runtime.tb, &rt_tb.p, rt_thread()) == 0) {
            rt_tb.epoch = e;
            return tbuf_put(&runtime.tb, &rt_tb.p, rec);
        }
    }
    return ring_put_inline(&runtime.ring, rec);
}
