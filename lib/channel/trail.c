/* SPDX-License-Identifier: MIT */
/*
 * trail.c - the post-mortem trail <protocol#trail>.  Each slot is guarded
 * by its seq like a sequence lock: odd while a writer fills it, 2n+2 once
 * it holds event n.  Writers claim a slot by compare-and-swap, so two
 * writers a lap apart never fill the same slot at once.
 */
#include "config.h"

#include <string.h>

#include "region.h"
#include "trail.h"

void trail_init(struct trail *t, const struct region *reg)
{
    t->hdr = reg->hdr;
    t->slots = (struct dapto_trail_slot *)(void *)((unsigned char *)reg->hdr +
                                                   reg->geom.trail_off);
    t->mask = (uint64_t)reg->geom.trail_slots - 1;
}

void trail_put(struct trail *t, const struct dapto_record *rec)
{
    uint64_t n = __atomic_fetch_add(&t->hdr->trail_next, 1, __ATOMIC_RELAXED);
    struct dapto_trail_slot *slot = &t->slots[n & t->mask];
    uint64_t old = __atomic_load_n(&slot->seq, __ATOMIC_RELAXED);
    struct dapto_record head = *rec;
    size_t bytes = trail_cut(&head);

    if ((old & 1) != 0 ||
        !__atomic_compare_exchange_n(&slot->seq, &old, 2 * n + 1, 0,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    __atomic_thread_fence(__ATOMIC_RELEASE);
    head.size = (uint32_t)bytes;
    head.seq = (uint32_t)n;
    memcpy(slot->rec, &head, sizeof head);
    memcpy(slot->rec + DAPTO_RECORD_HEADER,
           (const unsigned char *)rec + DAPTO_RECORD_HEADER,
           bytes - DAPTO_RECORD_HEADER);
    __atomic_store_n(&slot->seq, 2 * n + 2, __ATOMIC_RELEASE);
}

uint64_t trail_next(const struct trail *t)
{
    return __atomic_load_n(&t->hdr->trail_next, __ATOMIC_ACQUIRE);
}

long trail_read(const struct trail *t, uint64_t n, void *buf, size_t bufsize)
{
    const struct dapto_trail_slot *slot = &t->slots[n & t->mask];
    uint64_t s1, s2;
    struct dapto_record head;

    if (bufsize < TRAIL_RECORD_MAX)
        return -1;
    s1 = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
    if (s1 != 2 * n + 2)
        return -1;
    memcpy(buf, slot->rec, TRAIL_RECORD_MAX);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    s2 = __atomic_load_n(&slot->seq, __ATOMIC_RELAXED);
    if (s2 != s1)
        return -1;
    memcpy(&head, buf, sizeof head);
    if (head.size < DAPTO_RECORD_HEADER || head.size > TRAIL_RECORD_MAX ||
        head.len != head.size - DAPTO_RECORD_HEADER)
        return -1;
    return head.size;
}
