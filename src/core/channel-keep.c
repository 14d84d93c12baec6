/* SPDX-License-Identifier: MIT */
/*
 * channel-keep.c - the post-mortem <design#channel>: the last events
 * taken, kept in noosa (channel_keep, channel_kept) as the trail cuts them
 * <protocol#trail>, records noosa makes itself (channel_inject), and the
 * threads' own trails in the program (channel_ttrails, channel_tick,
 * channel_kept_counts) <protocol#ttrail>.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "channel-int.h"
#include "trail.h"
#include "xmalloc.h"

/* Whether the record REC (at least a header) is an event's: the events of
 * aspects, and the function records. */
static int is_event_record(const unsigned char *rec)
{
    const struct dapto_record *h = (const struct dapto_record *)(const void *)rec;
    uint16_t code = h->code;

    return code < DAPTO_REC_FIRST || code == DAPTO_REC_FNENTER ||
           code == DAPTO_REC_FNLEAVE;
}

/* Copy the record REC of SIZE bytes into SLOT (DAPTO_TRAIL_SLOT bytes: the
 * kept record's size in the first 8, then the record, cut as the trail
 * cuts it <protocol#trail>). */
void channel_copy_slot(unsigned char *slot, const unsigned char *rec,
                       uint32_t size)
{
    struct dapto_record h;
    uint64_t bytes;

    memcpy(&h, rec, sizeof h);
    if (h.len > size - DAPTO_RECORD_HEADER)
        h.len = size - DAPTO_RECORD_HEADER; /* (the reader says what is
                                               wrong with it) */
    bytes = trail_cut(&h);
    h.size = (uint32_t)bytes;
    memcpy(slot, &bytes, 8);
    memcpy(slot + 8, &h, sizeof h);
    memcpy(slot + 8 + DAPTO_RECORD_HEADER, rec + DAPTO_RECORD_HEADER,
           (size_t)bytes - DAPTO_RECORD_HEADER);
}

void channel_inject(struct channel *ch, void *rec, size_t size,
                    struct reader_item *item)
{
    struct dapto_record *h = rec;

    h->time = clock_raw(&ch->clock);
    keep(ch, rec, (uint32_t)size);
    reader_record(ch->reader, rec, size, NULL, 0, item);
}

void channel_keep(struct channel *ch, unsigned int n)
{
    if (ch->ring.overwrite)
        n = 0; /* the program keeps them all in its trail */
    if (n == ch->keep_n)
        return;
    free(ch->kept);
    ch->kept = n != 0 ? xcalloc(n, DAPTO_TRAIL_SLOT) : NULL;
    ch->keep_n = n;
    ch->kept_next = 0;
}

void channel_kept(const struct channel *ch,
                  void (*fn)(void *arg, const unsigned char *rec,
                             uint32_t size),
                  void *arg)
{
    uint64_t i, first;
    uint32_t size;
    const unsigned char *rec;
    int committed;

    first = ch->kept_next > ch->keep_n ? ch->kept_next - ch->keep_n : 0;
    for (i = first; i < ch->kept_next; i++) {
        const unsigned char *slot =
            ch->kept + (i % ch->keep_n) * DAPTO_TRAIL_SLOT;
        uint64_t bytes;

        memcpy(&bytes, slot, 8);
        fn(arg, slot + 8, (uint32_t)bytes);
    }
    /* and those the program wrote that are not taken yet */
    if (ch->status != CHANNEL_ACTIVE || ch->keep_n == 0)
        return;
    for (i = ch->ring.ctail;
         (rec = ring_peek(&ch->ring, i, &size, &committed)) != NULL;
         i += size) {
        if (is_event_record(rec)) {
            _Alignas(8) unsigned char slot[DAPTO_TRAIL_SLOT];
            uint64_t bytes;

            channel_copy_slot(slot, rec, size);
            memcpy(&bytes, slot, 8);
            fn(arg, slot + 8, (uint32_t)bytes);
        }
    }
}

const struct ttrail_area *channel_ttrails(const struct channel *ch)
{
    struct dapto_region_id id;

    if (ch->tt.count == 0 || ch->status != CHANNEL_ACTIVE ||
        !region_runtime_id(&ch->region, &id) || id.rt_minor < DAPTO_TTRAIL_MINOR)
        return NULL;
    return &ch->tt;
}

void channel_kept_counts(const struct channel *ch, struct channel_kept_counts *k)
{
    memset(k, 0, sizeof *k);
    if (ch->status == CHANNEL_WAITING || ch->region.hdr == NULL)
        return;
    for (uint32_t i = 0; i < ch->tt.count; i++) {
        const struct dapto_ttrail *t = ttrail_at(&ch->tt, i);

        if (__atomic_load_n(&t->owner, __ATOMIC_RELAXED) == 0)
            continue;
        k->threads++;
        k->own += __atomic_load_n(&t->next, __ATOMIC_RELAXED);
        k->lost += __atomic_load_n(&t->lost, __ATOMIC_RELAXED);
    }
    k->shared = __atomic_load_n(&ch->region.hdr->trail_next, __ATOMIC_RELAXED);
    k->sent = __atomic_load_n(&ch->region.hdr->head, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < ch->tb.count; i++)
        k->sent += __atomic_load_n(&tbuf_at(&ch->tb, i)->head, __ATOMIC_RELAXED);
}

uint32_t channel_trails_taken(const struct channel *ch)
{
    if (ch->tt.count == 0 || ch->status != CHANNEL_ACTIVE)
        return 0;
    return __atomic_load_n(ch->tt.taken, __ATOMIC_RELAXED);
}

void channel_tick(struct channel *ch)
{
    uint64_t now = clock_monotonic_ns(), start = ch->clock.start_ns;
    uint32_t ms = (uint32_t)(now > start ? (now - start) / 1000000u : 0), old;

    if (ch->tt.count == 0 || ch->status != CHANNEL_ACTIVE)
        return;
    /* <protocol#ttrail>: never back (a thread taking a trail moves it on
     * by one) */
    old = __atomic_load_n(ch->tt.clock, __ATOMIC_RELAXED);
    while ((int32_t)(ms - old) > 0 &&
           !__atomic_compare_exchange_n(ch->tt.clock, &old, ms, 0,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}
