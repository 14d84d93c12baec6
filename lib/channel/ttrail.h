/* SPDX-License-Identifier: MIT */
/*
 * ttrail.h - threads' own trails <protocol#ttrail>: the post-mortem trail
 * of one thread at a time, kept by that thread alone with plain stores and
 * read by the monitor after an error.  The owner's side (ttrail_claim,
 * ttrail_put_values; the writing itself is dapto.h's, which generated
 * encoders inline) is what libdapto's event path uses; the monitor's side
 * (ttrail_read) is noosa's report of the last events.  Part of the channel library (see region.h).
 *
 * The owner's side is async-signal-safe (the caller keeps a signal
 * handler's event from nesting inside another), allocates nothing, takes
 * no lock, makes no atomic read-modify-write and reads no clock: an event
 * costs its stores, a load of the run's coarse clock and one release
 * store on a line that only the owner writes.  The monitor's side trusts
 * nothing of a trail but what its checks pass, and never reads outside
 * it.
 */
#ifndef NOOSA_TTRAIL_H
#define NOOSA_TTRAIL_H

#include <stddef.h>
#include <stdint.h>

#include "dapto.h"
#include "protocol.h"

/* The slot generated code writes is the protocol's */
_Static_assert(DAPTO_KEEP_SLOT == DAPTO_TT_SLOT, "a thread's trail's slot");

struct region;

/* One end's view of a region's threads' trails; set once by
 * ttrail_area_init() (count 0: the region has none), read-only after. */
struct ttrail_area {
    unsigned char *base;    /* count trails of stride bytes */
    uint32_t *clock;        /* the region's tt_clock */
    uint32_t *taken;        /* and its tt_taken */
    uint32_t count;
    uint32_t slots;         /* of one trail, a power of two */
    uint64_t stride;        /* bytes of one trail: header and slots */
};

/* Owner of no trail: the monitor's owner field while a thread takes a
 * trail whose owner is gone (never a thread id). */
#define TTRAIL_TAKING 0xffffffffu

/* Set up A on the threads' trails of region REG (its checked geometry). */
void ttrail_area_init(struct ttrail_area *a, const struct region *reg);

static inline struct dapto_ttrail *ttrail_at(const struct ttrail_area *a,
                                             uint32_t i)
{
    return (struct dapto_ttrail *)(void *)(a->base + (size_t)i * a->stride);
}

/* Owner: take a trail for thread TID into *T (all but its key, the
 * caller's): a free one (compare-and-swap of its owner from 0), else,
 * when GONE is not NULL, one whose owner GONE says has ended.  Returns 0,
 * or -1 when every trail has an owner.  The owner then writes its slots
 * with dapto_keep_begin() ... dapto_keep_end() (dapto.h). */
int ttrail_claim(const struct ttrail_area *a, struct dapto_trail_thread *t,
                 uint32_t tid, int (*gone)(uint32_t owner));

/* Copy the values VALS (LEN bytes, tagged as in a record, already
 * checked: the runtime's own encoding) into DST, which holds ROOM bytes:
 * the values that fit whole, then, when a string does not, as much of it
 * as fits with DAPTO_K_TRUNC on its tag; nothing after a value cut or
 * left out.  Returns the bytes written. */
uint32_t ttrail_put_values(unsigned char *dst, uint32_t room,
                           const unsigned char *vals, uint32_t len);

/* Monitor: one event read from a trail. */
struct ttrail_event {
    uint64_t index; /* in its trail */
    uint32_t tick;  /* the coarse clock when it was kept */
    uint16_t code;
    uint16_t len;   /* bytes of values */
    _Alignas(8) unsigned char values[DAPTO_TT_SLOT_VALUES];
};

/* Monitor: the last WANT events of trail I, oldest first, each handed to
 * FN, and its owner in *OWNER (0: the trail is free, and nothing is
 * read).  Events whose slot was overwritten during the copy (the owner
 * runs) and slots whose word is impossible are not handed on; *BAD counts
 * the latter.  Returns the events handed on. */
unsigned int ttrail_read(const struct ttrail_area *a, uint32_t i,
                         uint64_t want, uint32_t *owner, unsigned int *bad,
                         void (*fn)(void *arg, const struct ttrail_event *e),
                         void *arg);

#endif /* NOOSA_TTRAIL_H */
