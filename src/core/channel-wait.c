/* SPDX-License-Identifier: MIT */
/*
 * channel-wait.c - waiting for the program's records <design#channel>:
 * whether anything waits in the ring or a thread buffer, spinning a while
 * on spare CPUs, and the sleep on the channel's eventfd (the flag that
 * asks the program to write it).  Nothing is taken here.
 */
#include "config.h"

#include <poll.h>
#include <sched.h>

#include "channel-int.h"
#include "futex.h"

/* Whether anything waits in the ring or a thread buffer. */
int channel_ready(struct channel *ch)
{
    return ring_ready(&ch->ring) ||
           (ch->tb.count != 0 && channel_tbufs_ready(ch));
}

int channel_sleep_prepare(struct channel *ch)
{
    ch->may_sleep = 0;
    if (ch->pending_error != NULL || ch->aspects_acked != ch->aspects_seen)
        return 0;
    if (ch->status == CHANNEL_WAITING) {
        struct dapto_region_id id;
        if (region_runtime_id(&ch->region, &id))
            return 0;
    }
    if (ch->status == CHANNEL_ACTIVE && !ring_sleep_prepare(&ch->ring))
        return 0;
    if (ch->status == CHANNEL_ACTIVE && ch->tb.count != 0 &&
        channel_tbufs_ready(ch)) {
        /* (the flag is set and fenced: what the owners wrote after this
         * look wakes us once a quarter of a buffer, or the caller's
         * timeout does <protocol#tbuf>) */
        __atomic_store_n(&ch->region.hdr->consumer_sleeping, 0,
                         __ATOMIC_RELAXED);
        return 0;
    }
    ch->may_sleep = 1;
    return 1;
}

void channel_sleep_finish(struct channel *ch)
{
    /* Only after a sleep: otherwise the sleeping flag is clear already,
     * and a store to it, or a read of the eventfd, would cost a program
     * emitting flat out a cache line, us a system call.  (An eventfd
     * left written only wakes the next poll() at once.) */
    if (!ch->may_sleep)
        return;
    ch->may_sleep = 0;
    ring_sleep_finish(&ch->ring);
}

/* Wait a microsecond; then whether a record is committed at the ring's
 * tail (TBUFS 0) or a thread buffer holds something (TBUFS 1). */
int channel_pause(struct channel *ch, int tbufs)
{
    uint64_t until = clock_monotonic_ns() + 1000;

    do {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } while (clock_monotonic_ns() < until);
    return tbufs ? channel_tbufs_ready(ch) : ring_ready(&ch->ring);
}

/* channel_spin() while function records flood in: look once a
 * microsecond.  A reader that watches the very line the program is
 * writing slows both sides down (the line goes back and forth between
 * their CPUs at every record); one that comes back a little later takes
 * a batch of whole lines. */
static int channel_spin_flood(struct channel *ch)
{
    uint64_t start = clock_monotonic_ns(), look = start, now;

    cpu_say(&ch->region.hdr->monitor_cpu);
    for (unsigned int k = 0;; k++) {
        do {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            now = clock_monotonic_ns();
        } while (now - look < 1000);
        look = now;
        if (channel_ready(ch))
            return 1;
        if (now - start > 50000) {
            ch->flood = 0;
            return 0;
        }
        if (k % 16 == 15 && cpu_yield_pays(&ch->region.hdr->program_cpu))
            sched_yield();
    }
}

/* What was taken from the program so far, of any kind: a spin that
 * found nothing is not done again until this moves. */
static uint64_t channel_progress(const struct channel *ch)
{
    return ch->ring.ctail + ch->tb_progress + ch->direct_count;
}

/* A spin that found nothing: the next ones are one look, until something
 * is taken (channel_progress() moves). */
static int channel_spin_idle(struct channel *ch)
{
    ch->spin_idle = 1;
    ch->spin_mark = channel_progress(ch);
    return 0;
}

int channel_spin(struct channel *ch)
{
    uint64_t until = 0;

    if (ch->ncpu < 2 || ch->status != CHANNEL_ACTIVE ||
        ch->pending_error != NULL)
        return 0;
    /* Nothing taken since a spin found nothing: a loop woken by its timer
     * alone (the sampled time profile's, every millisecond) would spin
     * for nothing at each wake-up, noosa then taking 5% of a CPU from a
     * program whose profile is kept in the program (make
     * bench-defaults).  A program that writes again wakes the sleep. */
    if (ch->spin_idle && ch->spin_mark == channel_progress(ch))
        return channel_ready(ch);
    ch->spin_idle = 0;
    /* (thread buffers: never at every pause, which would take their lines
     * from the threads writing them) */
    if (ch->flood || ch->tb.count != 0)
        return channel_spin_flood(ch) || channel_spin_idle(ch);
    cpu_say(&ch->region.hdr->monitor_cpu);
    for (unsigned int k = 0;; k++) {
        if (ring_ready(&ch->ring))
            return 1;
        if (k % 64 == 63) {
            uint64_t now = clock_monotonic_ns();
            if (until == 0)
                until = now + 50000;
            else if (now > until)
                return channel_spin_idle(ch);
            if (cpu_yield_pays(&ch->region.hdr->program_cpu))
                sched_yield();
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

int channel_wait(struct channel *ch, int timeout_ms)
{
    struct pollfd pfd = {.fd = ch->region.eventfd, .events = POLLIN};
    int n;

    if (channel_spin(ch))
        return 1;
    if (!channel_sleep_prepare(ch))
        return 1;
    n = poll(&pfd, 1, timeout_ms);
    channel_sleep_finish(ch);
    return n > 0;
}
