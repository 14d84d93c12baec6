/* SPDX-License-Identifier: MIT */
/*
 * rtrail.c - the calling thread's own post-mortem trail <protocol#ttrail>:
 * taking one (a free trail, or one whose thread has ended), keeping an
 * event's record there, and keeping an event from its arguments for an
 * encoder whose thread has no trail yet (dapto_event_keep).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dapto.h"
#include "rtrail.h"
#include "runtime.h"

DAPTO_API RT_TLS __thread struct dapto_trail_thread dapto_trail_self;
DAPTO_API unsigned int dapto_trail_epoch = RT_TT_NONE;
RT_TLS __thread uint32_t rt_tt_tried;
/* The threads' quick clauses and the attach they hold in <protocol#quick>
 * (rtfilter.c writes them), after the runtime's other per-thread data:
 * placed between rtfilter.c's and rtquestion.c's, they made a keyed
 * question 2.5 ns an event slower (make bench-defaults). */
DAPTO_API RT_TLS __thread struct dapto_quick_thread dapto_quick_self;
DAPTO_API unsigned int dapto_quick_epoch;

int rt_thread_gone(uint32_t tid)
{
    int saved = errno, gone;

    gone = syscall(SYS_tgkill, (pid_t)runtime.pid, (pid_t)tid, 0) != 0 &&
           errno == ESRCH;
    errno = saved;
    return gone;
}

int rt_keep_begin(struct dapto_keep *k)
{
    struct dapto_trail_thread *t = &dapto_trail_self;
    uint32_t e = dapto_trail_epoch;

    if (DAPTO_LIKELY(dapto_keep_begin(k)))
        return 1;
    if (t->key & DAPTO_KEEP_BUSY) {
        /* a signal handler's event inside another's keeping: counted in
         * the trail's header (its next is the first word) */
        if ((t->key & ~DAPTO_KEEP_BUSY) == e)
            ((struct dapto_ttrail *)(void *)t->head)->lost++;
        return 0;
    }
    if (e == RT_TT_NONE || rt_tt_tried == e)
        return 0;
    rt_tt_tried = e;
    t->key = DAPTO_KEEP_BUSY;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (ttrail_claim(&runtime.tt, t, rt_thread(), rt_thread_gone) == 0) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t->key = e;
        /* another thread with a trail: the monitor's clock orders them
         * from now on, once it looks <protocol#ttrail> */
        ring_wake_sleeper(&runtime.ring);
        return dapto_keep_begin(k);
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->key = 0;
    return 0;
}

int rt_trail_record(const struct dapto_record *rec)
{
    struct dapto_keep k;

    if (!rt_keep_begin(&k))
        return dapto_trail_self.key & DAPTO_KEEP_BUSY ? 0 : -1;
    k.at += ttrail_put_values(k.slot + k.at, (uint32_t)(k.end - k.at),
                              (const unsigned char *)rec + DAPTO_RECORD_HEADER,
                              rec->len);
    dapto_keep_end_code(&k, rec->code);
    return 0;
}
