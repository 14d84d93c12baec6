/* SPDX-License-Identifier: MIT */
/*
 * channel-direct.c - the direct path <design#channel>: function records
 * (and events of scalars) handed to the consumer's sinks in batches,
 * read where they are in the ring, without items.
 */
#include "config.h"

#include "channel-int.h"

void channel_direct(struct channel *ch, channel_sink sink, void *arg)
{
    ch->sink = sink;
    ch->sink_arg = arg;
}

void channel_direct_events(struct channel *ch, channel_esink sink, void *arg)
{
    ch->esink = sink;
    ch->esink_arg = arg;
}

uint64_t channel_direct_count(const struct channel *ch)
{
    return ch->direct_count;
}

/* Hand a run of N events of scalars (records RECS of SIZES bytes) to the
 * event sink, which takes them all. */
void channel_give_events(struct channel *ch, const struct reader_scalar *evs,
                         const unsigned char *const *recs,
                         const uint32_t *sizes, unsigned int n)
{
    ch->esink(ch->esink_arg, evs, n);
    for (unsigned int j = n > ch->keep_n ? n - ch->keep_n : 0; j < n; j++)
        keep(ch, recs[j], sizes[j]);
    ch->direct_count += n;
}

/*
 * The direct path: hand the function records (and enter/leave events with
 * interned names) at the tail to the sink, in batches, reading them where
 * they are in the ring (lossless mode, records that do not wrap).
 * Returns 1 when the record at the tail, if any, is for the general way
 * (another kind, a wrapped or malformed one, losses to report, or the
 * sink took no more), 0 when there is nothing now or enough was taken for
 * one call (*TAKEN counts them; the ring stays ready then, and the
 * caller's other work gets a turn).
 */
int channel_take_direct(struct channel *ch, unsigned int *taken)
{
    struct reader_fn fns[CHANNEL_DIRECT_BATCH];
    struct reader_scalar evs[CHANNEL_DIRECT_BATCH];
    const unsigned char *recs[CHANNEL_DIRECT_BATCH];
    uint32_t sizes[CHANNEL_DIRECT_BATCH];
    struct reader_time t;
    const unsigned char *rec;
    unsigned int k, took, i;
    uint64_t pos, bytes;
    uint32_t size;
    int committed, kind, d;

    reader_time_init(&t, &ch->clock);
    for (;;) {
        if (ring_lost_pending(&ch->ring))
            return 1;
        pos = ch->ring.ctail;
        committed = 1;
        /* a run of records of one kind */
        for (k = 0, kind = 0, d = 0; k < CHANNEL_DIRECT_BATCH; k++) {
            rec = ring_peek(&ch->ring, pos, &size, &committed);
            if (rec == NULL ||
                (d = channel_direct_kind(ch, rec, size, &t, &fns[k], &evs[k])) == 0 ||
                (kind != 0 && d != kind))
                break;
            kind = d;
            recs[k] = rec;
            sizes[k] = size;
            pos += size;
        }
        if (k > 0 && kind == CHANNEL_D_EV) {
            channel_give_events(ch, evs, recs, sizes, k);
            ring_skip(&ch->ring, pos - ch->ring.ctail);
            *taken += k;
        } else if (k > 0) {
            took = ch->sink(ch->sink_arg, fns, k);
            /* only the last of a batch can be among the last kept */
            for (i = took > ch->keep_n ? took - ch->keep_n : 0; i < took;
                 i++)
                keep(ch, recs[i], fns[i].name != NULL ? READER_NAMED_SIZE
                                                      : READER_FN_SIZE);
            if (took == k) {
                bytes = pos - ch->ring.ctail;
            } else {
                for (i = 0, bytes = 0; i < took; i++)
                    bytes += fns[i].name != NULL ? READER_NAMED_SIZE
                                                 : READER_FN_SIZE;
            }
            ring_skip(&ch->ring, bytes);
            *taken += took;
            ch->direct_count += took;
            if (took < k) {
                ch->sink = NULL;
                return 1;
            }
        }
        if (k == CHANNEL_DIRECT_BATCH || (rec != NULL && d != 0)) {
            /* (a full batch, or a run of the other kind next) */
            if (*taken >= CHANNEL_DIRECT_MAX)
                return 0;
            continue;
        }
        if (committed || ring_lost_pending(&ch->ring))
            return 1; /* for the general way */
        /* Caught up.  Look again a little later, not at the line the
         * program is writing; channel_spin() waits longer if need be. */
        ring_release(&ch->ring);
        if (k == 0 && !ch->flood)
            return 1; /* (not flooding: nothing to wait for) */
        ch->flood = 1;
        if (ch->ncpu < 2 || *taken >= CHANNEL_DIRECT_MAX ||
            !channel_pause(ch, 0))
            return 0;
    }
}

/* The record of SIZE bytes just taken into ch->rec to the direct path,
 * if it is for it and the sink takes it: 1, else 0. */
int channel_give_direct(struct channel *ch, long size)
{
    struct reader_fn fn;
    struct reader_time t;

    reader_time_init(&t, &ch->clock);
    if (!(size == READER_FN_SIZE
              ? reader_function(ch->rec, &t, &fn)
              : size == READER_NAMED_SIZE && reader_maybe_named(ch->rec) &&
                    reader_named(ch->reader, ch->rec, &t, &fn)))
        return 0;
    if (ch->sink(ch->sink_arg, &fn, 1) == 1) {
        ch->direct_count++;
        keep(ch, ch->rec, (uint32_t)size);
        return 1;
    }
    ch->sink = NULL;
    return 0;
}
