/* SPDX-License-Identifier: MIT */
/*
 * channel-tbuf.c - the threads' own buffers <protocol#tbuf>
 * <design#channel>: each taken in its thread's order up to the head
 * looked at, function records to the direct path in batches, the rest as
 * items; losses said, corruption reported, buffers of threads gone freed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "channel-int.h"
#include "target.h"
#include "xmalloc.h"

/* Whether some thread buffer holds something not taken yet. */
int channel_tbufs_ready(const struct channel *ch)
{
    for (uint32_t i = 0; i < ch->tb.count; i++)
        if (tbuf_ready(&ch->tb, i, &ch->tbc[i]))
            return 1;
    return 0;
}

/* Whether the ring may yet show a record it does not show now: one
 * reserved and not committed (its producer is writing it). */
static int channel_ring_busy(const struct channel *ch)
{
    return !ch->ring.overwrite &&
           __atomic_load_n(&ch->region.hdr->head, __ATOMIC_ACQUIRE) !=
               ch->ring.ctail;
}

/* Whether the record REC of SIZE bytes is an enter or leave whose name
 * is an intern id the reader does not know yet: its INTERN record is in
 * the ring, committed before the thread wrote REC but maybe behind a
 * record another thread has not committed yet. */
static int channel_unknown_id(const struct channel *ch,
                              const unsigned char *rec, uint32_t size)
{
    uint32_t id;

    if (size != READER_NAMED_SIZE || !reader_maybe_named(rec) ||
        rec[DAPTO_RECORD_HEADER] != DAPTO_K_ISTR)
        return 0;
    memcpy(&id, rec + DAPTO_RECORD_HEADER + 1, 4);
    return reader_intern(ch->reader, id) == NULL;
}

/* How channel_tbuf_take() left buffer I. */
enum channel_tb {
    CHANNEL_TB_DONE,  /* nothing more there now (or it waits for the ring) */
    CHANNEL_TB_ITEM,  /* *item is for the caller */
    CHANNEL_TB_ENOUGH /* enough taken for one call; more is there */
};

/* A corrupt thread buffer (WHY; SIZE the record's size when that is
 * what is wrong, else 0): the item that says so; reading stops. */
static enum channel_tb channel_tbuf_corrupt(struct channel *ch, uint32_t i,
                                            uint64_t pos, const char *why,
                                            uint32_t size,
                                            struct reader_item *item)
{
    char sizes[128] = "";

    if (size != 0)
        snprintf(sizes, sizeof sizes, " (%u bytes; records are %u to %u "
                 "bytes, a multiple of 8, within the buffer)", size,
                 DAPTO_RECORD_HEADER, ch->tb.max);
    memset(item, 0, sizeof *item);
    item->stop = -1;
    free(ch->message);
    ch->message = xasprintf(
        "protocol error: thread buffer %u (thread %u) is corrupt at "
        "position %llu: %s%s; monitoring stops here", (unsigned)i,
        (unsigned)__atomic_load_n(&tbuf_at(&ch->tb, i)->owner,
                                  __ATOMIC_RELAXED),
        (unsigned long long)pos, why, sizes);
    ch->status = CHANNEL_BROKEN;
    item->kind = READER_ERROR;
    item->message = ch->message;
    return CHANNEL_TB_ITEM;
}

/* Take from thread buffer I what its owner had written when this call
 * looked (not chasing a thread that writes on: the caller comes back a
 * little later for a batch of whole lines): function records (and
 * enter/leave with a known name) to the direct path in batches, the rest
 * as items; a thread's records come out in the order it wrote them. */
static enum channel_tb channel_tbuf_take(struct channel *ch, uint32_t i,
                                         struct reader_item *item,
                                         unsigned int *direct)
{
    struct tbuf_cons *c = &ch->tbc[i];
    struct reader_fn fns[CHANNEL_DIRECT_BATCH];
    struct reader_scalar evs[CHANNEL_DIRECT_BATCH];
    const unsigned char *recs[CHANNEL_DIRECT_BATCH];
    uint32_t sizes[CHANNEL_DIRECT_BATCH];
    uint64_t starts[CHANNEL_DIRECT_BATCH];
    struct reader_time t;
    const unsigned char *rec;
    const char *why;
    uint64_t pos, lost, last;
    uint32_t size;
    unsigned int k, took, j;
    int kind, d;

    /* One look at the owner's line (lost and head) when what the last
     * look saw is taken: each look takes the line from the thread
     * writing it. */
    if (c->ctail < c->upto)
        goto take;
    last = c->head;
    lost = tbuf_lost_new(&ch->tb, i, c);
    if (lost != 0) {
        /* <protocol#tbuf>: losses are said before the records after them */
        memset(item, 0, sizeof *item);
        item->stop = -1;
        item->kind = READER_LOST;
        item->code = DAPTO_REC_LOST;
        item->lost = lost;
        ch->lost += lost;
        ch->tb_progress++;
        return CHANNEL_TB_ITEM;
    }
    if ((why = tbuf_look(&ch->tb, i, c)) != NULL)
        return channel_tbuf_corrupt(ch, i, c->ctail, why, 0, item);
    if (c->head == c->ctail) {
        tbuf_release(&ch->tb, i, c);
        return CHANNEL_TB_DONE;
    }
    if (c->head != last) {
        /* The owner is writing: not the cache line it writes now (taking
         * it would cost the owner the line back at its next store); the
         * rest at the next look, or once it stops.  A head that moved is
         * progress for channel_more(). */
        ch->tb_progress++;
        if ((c->head & ~(uint64_t)63) > c->ctail)
            c->upto = c->head & ~(uint64_t)63;
    }
take:
    reader_time_init(&t, &ch->clock);
    pos = c->ctail;
    for (;;) {
        /* a batch for the direct path: a run of records of one kind */
        for (k = 0, kind = 0, d = 0;;) {
            rec = tbuf_peek(&ch->tb, i, c, pos, &size, &why);
            if (rec == NULL && why == NULL && size != 0) {
                pos += size; /* padding */
                continue;
            }
            if (rec == NULL || k == CHANNEL_DIRECT_BATCH ||
                (d = channel_direct_kind(ch, rec, size, &t, &fns[k], &evs[k])) == 0 ||
                (kind != 0 && d != kind))
                break;
            kind = d;
            recs[k] = rec;
            sizes[k] = size;
            starts[k] = pos;
            pos += size;
            k++;
        }
        if (k > 0 && kind == CHANNEL_D_EV) {
            channel_give_events(ch, evs, recs, sizes, k);
            ch->tb_records += k;
            ch->tb_progress += k;
            *direct += k;
        } else if (k > 0) {
            took = ch->sink(ch->sink_arg, fns, k);
            for (j = took > ch->keep_n ? took - ch->keep_n : 0; j < took; j++)
                keep(ch, recs[j], fns[j].name != NULL ? READER_NAMED_SIZE
                                                      : READER_FN_SIZE);
            ch->direct_count += took;
            ch->tb_records += took;
            ch->tb_progress += took;
            *direct += took;
            if (took < k) {
                tbuf_skip(&ch->tb, i, c, starts[took] - c->ctail);
                ch->sink = NULL;
                return CHANNEL_TB_ENOUGH; /* the rest as items */
            }
        }
        tbuf_skip(&ch->tb, i, c, pos - c->ctail);
        if (why != NULL)
            return channel_tbuf_corrupt(ch, i, pos, why, size, item);
        if (rec == NULL) {
            /* all that the last look allows: the next call looks again */
            c->upto = c->ctail;
            tbuf_release(&ch->tb, i, c);
            return CHANNEL_TB_DONE;
        }
        if (*direct >= CHANNEL_DIRECT_MAX)
            return CHANNEL_TB_ENOUGH;
        if (k == CHANNEL_DIRECT_BATCH || d != 0)
            continue; /* (a full batch, or a run of the other kind next) */
        /* one record for the general way */
        if (channel_unknown_id(ch, rec, size) &&
            (ring_ready(&ch->ring) || channel_ring_busy(ch)))
            return CHANNEL_TB_DONE; /* after the ring's INTERN */
        memcpy(ch->rec, rec, size);
        if (((const struct dapto_record *)(const void *)ch->rec)->flags &
            DAPTO_RECF_STOP)
            return channel_tbuf_corrupt(ch, i, pos,
                                        "a record there says it stops", 0,
                                        item);
        tbuf_skip(&ch->tb, i, c, size);
        pos += size;
        ch->tb_records++;
        ch->tb_progress++;
        if (channel_decode(ch, size, item))
            return CHANNEL_TB_ITEM;
    }
}

/* Free the buffers whose owners are gone once everything they wrote is
 * taken, looking at most every CHANNEL_TBUF_SCAN. */
static void channel_tbufs_reclaim(struct channel *ch)
{
    uint64_t now = clock_monotonic_ns();
    pid_t pid;

    if (ch->target == NULL || now - ch->tb_scan < CHANNEL_TBUF_SCAN)
        return;
    ch->tb_scan = now;
    pid = target_pid(ch->target);
    for (uint32_t i = 0; i < ch->tb.count; i++) {
        uint32_t owner = __atomic_load_n(&tbuf_at(&ch->tb, i)->owner,
                                         __ATOMIC_ACQUIRE);

        if (owner != 0 &&
            syscall(SYS_tgkill, pid, (pid_t)owner, 0) != 0 && errno == ESRCH)
            tbuf_free(&ch->tb, i, &ch->tbc[i]);
    }
}

/* The next item from the thread buffers, once the ring had none: 1 with
 * *ITEM, 0 when they have nothing now or enough was taken for one call
 * (*DIRECT counts the direct path's records).  While the direct path
 * takes batches from threads that write flat out, it looks again a
 * microsecond after it caught up, rather than returning to the caller's
 * loop for so few records each time (as the ring's direct path does). */
int channel_tbufs_next(struct channel *ch, struct reader_item *item,
                       unsigned int *direct)
{
    uint32_t n = ch->tb.count;

    for (;;) {
        unsigned int before = *direct;

        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = (ch->tb_next + k) % n;

            switch (channel_tbuf_take(ch, i, item, direct)) {
            case CHANNEL_TB_DONE:
                continue;
            case CHANNEL_TB_ITEM:
                ch->tb_next = i;
                return 1;
            case CHANNEL_TB_ENOUGH:
                /* the next call starts with the next buffer: each gets
                 * a turn */
                ch->tb_next = (i + 1) % n;
                return 0;
            }
        }
        channel_tbufs_reclaim(ch);
        if (*direct == before || ch->ncpu < 2 ||
            *direct >= CHANNEL_DIRECT_MAX || ring_ready(&ch->ring) ||
            !channel_pause(ch, 1))
            return 0;
    }
}

uint64_t channel_buffered(const struct channel *ch)
{
    return ch->tb_records;
}
