/* SPDX-License-Identifier: MIT */
/*
 * ttrail.c - threads' own trails <protocol#ttrail>: taking one, cutting an
 * event's values to a slot, and the monitor's reading.  The owner's
 * writing itself is inline in ttrail.h.
 */
#include "config.h"

#include <string.h>

#include "region.h"
#include "ttrail.h"

void ttrail_area_init(struct ttrail_area *a, const struct region *reg)
{
    const struct region_geom *g = &reg->geom;

    memset(a, 0, sizeof *a);
    a->clock = &reg->hdr->tt_clock;
    a->taken = &reg->hdr->tt_taken;
    if (g->tt_count == 0)
        return;
    a->base = (unsigned char *)reg->hdr + g->tt_off;
    a->count = g->tt_count;
    a->slots = g->tt_slots;
    a->stride = region_ttrail_size(g);
}

/* Make trail T, just taken from its owner OLD (0: free), thread TID's. */
static int take(const struct ttrail_area *a, struct dapto_trail_thread *p,
                struct dapto_ttrail *t, uint32_t old, uint32_t tid)
{
    uint64_t next;

    if (!__atomic_compare_exchange_n(&t->owner, &old, TTRAIL_TAKING, 0,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return -1;
    /* the events below are an earlier owner's: never read as this one's
     * (a reader skips the trail while its owner says TAKING) */
    next = __atomic_load_n(&t->next, __ATOMIC_RELAXED);
    __atomic_store_n(&t->base, next, __ATOMIC_RELAXED);
    __atomic_store_n(&t->lost, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->owner, tid, __ATOMIC_RELEASE);
    /* (what the other threads keep from now on comes after what they
     * kept before: the clock moves on) */
    __atomic_fetch_add(a->taken, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(a->clock, 1, __ATOMIC_RELAXED);
    p->slots = (unsigned char *)t + sizeof *t;
    p->head = (unsigned long long *)(void *)&t->next;
    p->clock = a->clock;
    p->mask = (uint64_t)a->slots - 1;
    p->next = next;
    return 0;
}

int ttrail_claim(const struct ttrail_area *a, struct dapto_trail_thread *p,
                 uint32_t tid, int (*gone)(uint32_t owner))
{
    uint32_t i;

    for (i = 0; i < a->count; i++) {
        struct dapto_ttrail *t = ttrail_at(a, i);

        if (__atomic_load_n(&t->owner, __ATOMIC_RELAXED) == 0 &&
            take(a, p, t, 0, tid) == 0)
            return 0;
    }
    if (gone == NULL)
        return -1;
    for (i = 0; i < a->count; i++) {
        struct dapto_ttrail *t = ttrail_at(a, i);
        uint32_t o = __atomic_load_n(&t->owner, __ATOMIC_RELAXED);

        if (o != 0 && o != TTRAIL_TAKING && o != tid && gone(o) &&
            take(a, p, t, o, tid) == 0)
            return 0;
    }
    return -1;
}

/* Bytes of the value at V (N bytes left, at least 1), tag included; 0 when
 * it is not whole. */
static uint32_t value_size(const unsigned char *v, uint32_t n)
{
    uint32_t len;

    switch (v[0] & ~DAPTO_K_TRUNC) {
    case DAPTO_K_INT:
    case DAPTO_K_ISTR:
        return n >= 5 ? 5 : 0;
    case DAPTO_K_LONG:
    case DAPTO_K_DOUBLE:
    case DAPTO_K_PTR:
        return n >= 9 ? 9 : 0;
    case DAPTO_K_UNKNOWN:
        return 1;
    case DAPTO_K_STR:
        if (n < 6)
            return 0;
        memcpy(&len, v + 1, 4);
        return len <= n - 6 ? len + 6 : 0;
    default:
        return 0;
    }
}

uint32_t ttrail_put_values(unsigned char *dst, uint32_t room,
                           const unsigned char *vals, uint32_t len)
{
    uint32_t in = 0, out = 0;

    while (in < len) {
        uint32_t n = value_size(vals + in, len - in);

        if (n == 0)
            break;
        if (n > room - out) {
            /* a string is cut to what fits; anything else is left out */
            uint32_t keep;

            if ((vals[in] & ~DAPTO_K_TRUNC) != DAPTO_K_STR || room - out < 6)
                break;
            keep = room - out - 6;
            dst[out] = (unsigned char)(vals[in] | DAPTO_K_TRUNC);
            memcpy(dst + out + 1, &keep, 4);
            memcpy(dst + out + 5, vals + in + 5, keep);
            dst[out + 5 + keep] = '\0';
            out = room;
            break;
        }
        memcpy(dst + out, vals + in, n);
        out += n;
        in += n;
    }
    return out;
}

unsigned int ttrail_read(const struct ttrail_area *a, uint32_t i,
                         uint64_t want, uint32_t *owner, unsigned int *bad,
                         void (*fn)(void *arg, const struct ttrail_event *e),
                         void *arg)
{
    struct dapto_ttrail *t;
    const unsigned char *slots;
    uint64_t next, base, first, n;
    uint32_t who;
    unsigned int done = 0;

    *owner = 0;
    if (i >= a->count)
        return 0;
    t = ttrail_at(a, i);
    slots = (const unsigned char *)t + sizeof *t;
    who = __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE);
    if (who == 0 || who == TTRAIL_TAKING)
        return 0;
    *owner = who;
    base = __atomic_load_n(&t->base, __ATOMIC_RELAXED);
    next = __atomic_load_n(&t->next, __ATOMIC_ACQUIRE);
    /* the slot of `next` may be half written: at most slots - 1 */
    first = next > a->slots - 1 ? next - (a->slots - 1) : 0;
    if (first < base)
        first = base;
    if (want < next - first)
        first = next - want;
    for (n = first; n < next && n >= first; n++) {
        const unsigned char *slot = slots + (size_t)(n & (a->slots - 1)) *
                                                DAPTO_TT_SLOT;
        struct ttrail_event e;
        uint64_t w, now;

        memcpy(&w, slot, 8);
        memcpy(e.values, slot + 8, DAPTO_TT_SLOT_VALUES);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        now = __atomic_load_n(&t->next, __ATOMIC_RELAXED);
        if (__atomic_load_n(&t->owner, __ATOMIC_RELAXED) != who)
            break; /* taken by another thread meanwhile */
        if (now - n >= a->slots)
            continue; /* overwritten while copied */
        e.index = n;
        e.code = (uint16_t)w;
        e.len = (uint16_t)(w >> 16);
        e.tick = (uint32_t)(w >> 32);
        if (e.len > DAPTO_TT_SLOT_VALUES) {
            (*bad)++;
            continue;
        }
        fn(arg, &e);
        done++;
    }
    return done;
}
