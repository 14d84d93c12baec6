/* SPDX-License-Identifier: MIT */
/*
 * trail.h - the post-mortem trail of the shared region <protocol#trail>:
 * the last events, kept in fixed slots whatever happens to the ring.  The
 * runtime writes (trail_put); the monitor reads after a fault or death
 * (trail_read).  Part of the channel library (see region.h).
 */
#ifndef NOOSA_TRAIL_H
#define NOOSA_TRAIL_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

struct region;

/* One end's view of the trail; set once by trail_init(), read-only after. */
struct trail {
    struct dapto_region *hdr;
    struct dapto_trail_slot *slots;
    uint64_t mask; /* trail_slots - 1 */
};

/* Largest record a slot holds. */
#define TRAIL_RECORD_MAX (DAPTO_TRAIL_SLOT - 8)

/* The bytes of record H (header and H->len value bytes) a trail slot
 * keeps: at most TRAIL_RECORD_MAX, H then cut (DAPTO_RECF_TRUNC, its len
 * the value bytes kept).  The one rule for the trail and for the copies a
 * monitor keeps of what it was sent <protocol#trail>. */
static inline size_t trail_cut(struct dapto_record *h)
{
    size_t bytes = DAPTO_RECORD_HEADER + (size_t)h->len;

    if (bytes > TRAIL_RECORD_MAX) {
        bytes = TRAIL_RECORD_MAX;
        h->flags |= DAPTO_RECF_TRUNC;
        h->len = TRAIL_RECORD_MAX - DAPTO_RECORD_HEADER;
    }
    return bytes;
}

/* Set up T on the trail of region REG (its checked geometry). */
void trail_init(struct trail *t, const struct region *reg);

/* Runtime: keep record REC (header and REC->len value bytes; size and seq
 * are filled in here) in the next slot, cut to TRAIL_RECORD_MAX bytes with
 * DAPTO_RECF_TRUNC when longer.  A slot still being written by a thread a
 * whole lap behind is skipped.  Async-signal-safe, lock-free. */
void trail_put(struct trail *t, const struct dapto_record *rec);

/* Monitor: index of the next slot to be written; the trail holds at most
 * the events from next - trail_slots to next - 1. */
uint64_t trail_next(const struct trail *t);

/* Monitor: copy event N of the trail into BUF (TRAIL_RECORD_MAX bytes
 * suffice).  Returns the bytes copied (header included), or -1 when the
 * slot no longer (or not yet) holds event N intact or its header is
 * impossible.  Read as many as wanted, oldest first. */
long trail_read(const struct trail *t, uint64_t n, void *buf, size_t bufsize);

#endif /* NOOSA_TRAIL_H */
