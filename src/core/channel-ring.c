/* SPDX-License-Identifier: MIT */
/*
 * channel-ring.c - items from the ring <design#channel>: the runtime's
 * version checked first <protocol#version>, records taken from the ring in
 * order and decoded by the reader, aspects acknowledged <protocol#ack>,
 * stops noted; the thread buffers (channel-tbuf.c) and the direct path
 * (channel-direct.c) get their turns from channel_next() here.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel-int.h"
#include "mailbox.h"
#include "xmalloc.h"

/* Compare the runtime's version with ours <protocol#version>. */
static int channel_check_version(struct channel *ch, struct reader_item *item)
{
    struct dapto_region_id id;

    if (!region_runtime_id(&ch->region, &id))
        return 0;
    snprintf(ch->version, sizeof ch->version, "%u.%u.%u", id.rt_major,
             id.rt_median, id.rt_minor);
    if (id.rt_major == DAPTO_PROTO_MAJOR &&
        id.rt_median == DAPTO_PROTO_MEDIAN) {
        /* <design#clock>: the run's rate, before any of its records is
         * converted or the rate handed to the program */
        clock_fix(&ch->clock);
        ch->status = CHANNEL_ACTIVE;
        return 0;
    }
    ch->status = CHANNEL_UNMONITORED;
    free(ch->message);
    ch->message = xasprintf("program's runtime speaks protocol %s; this "
                            "noosa speaks %u.%u.%u: the program runs "
                            "unmonitored",
                            ch->version, DAPTO_PROTO_MAJOR,
                            DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
    item->kind = READER_ERROR;
    item->message = ch->message;
    return 1;
}

/* A new aspect: write the default state of each of its events. */
static void channel_new_aspect(struct channel *ch, struct registry_aspect *a)
{
    char *why = NULL;

    if (ch->default_state == 0)
        return;
    for (unsigned int i = 0; i < a->nevents; i++) {
        if (channel_set_state(ch, a->events[i].code, ch->default_state,
                              &why) != 0 &&
            ch->pending_error == NULL) {
            ch->pending_error = xasprintf("protocol error: aspect %s: %s",
                                          a->name, why);
        }
    }
    free(why);
}

/* The last acknowledgement goes out once the caller has seen the
 * aspect's item (and maybe set states). */
static void channel_ack(struct channel *ch)
{
    if (ch->aspects_acked != ch->aspects_seen) {
        ch->aspects_acked = ch->aspects_seen;
        region_ack(&ch->region, ch->aspects_acked);
    }
}

/* Decode the record of SIZE bytes in ch->rec into *ITEM and do what its
 * kind asks of the channel: 1 when the item is for the caller, 0 when
 * there is nothing to say (READER_NONE). */
int channel_decode(struct channel *ch, size_t size,
                   struct reader_item *item)
{
    reader_record(ch->reader, ch->rec, size,
                  ch->region.hdr != NULL
                      ? (const unsigned char *)ch->region.hdr +
                            ch->region.geom.iface_off
                      : NULL,
                  ch->region.geom.iface_size, item);
    if (item->code == DAPTO_REC_ASPECT)
        ch->aspects_seen++;
    switch (item->kind) {
    case READER_NONE:
        return 0;
    case READER_HELLO:
        clock_anchor(&ch->clock,
                     __atomic_load_n(&ch->region.hdr->rt_tsc0,
                                     __ATOMIC_RELAXED),
                     __atomic_load_n(&ch->region.hdr->rt_ns0,
                                     __ATOMIC_RELAXED));
        item->ns = clock_ns(&ch->clock,
                            ((struct dapto_record *)ch->rec)->time);
        break;
    case READER_ASPECT:
        channel_new_aspect(ch, item->aspect);
        break;
    case READER_LOST:
        ch->lost += item->lost;
        break;
    case READER_EVENT:
    case READER_FUNCTION:
        keep(ch, ch->rec, (uint32_t)size);
        break;
    case READER_ERROR:
        if (item->stop >= 0) {
            /* a bad stop record: do not leave its thread waiting */
            struct dapto_mailbox *mb =
                region_mailbox(&ch->region, (uint32_t)item->stop);
            if (mb != NULL)
                mailbox_resume(mb);
            item->stop = -1;
        }
        return 1;
    default:
        break;
    }
    if (item->stop >= 0)
        ch->stopped[item->stop] = ++ch->stop_clock;
    return 1;
}

/* The ring gave what it had for this call (or enough): the thread
 * buffers' turn, with a bound of their own. */
static int channel_ring_done(struct channel *ch, struct reader_item *item)
{
    unsigned int direct = 0;

    ch->ring_streak = 0;
    if (ch->tb.count == 0 || !channel_tbufs_next(ch, item, &direct))
        return 0;
    ch->tb_streak = 1;
    return 1;
}

static int channel_next_item(struct channel *ch, struct reader_item *item)
{
    long n;
    unsigned int quiet = 0; /* records with nothing to say, this call */
    unsigned int direct = 0; /* records taken by the direct path */

    /* (reader_record() fills the whole item; the other ways here clear
     * it first) */
    channel_ack(ch);
    if (ch->pending_error != NULL) {
        memset(item, 0, sizeof *item);
        item->stop = -1;
        free(ch->message);
        ch->message = ch->pending_error;
        ch->pending_error = NULL;
        item->kind = READER_ERROR;
        item->message = ch->message;
        return 1;
    }
    if (ch->status == CHANNEL_WAITING) {
        memset(item, 0, sizeof *item);
        item->stop = -1;
        if (channel_check_version(ch, item))
            return 1;
    }
    if (ch->status != CHANNEL_ACTIVE)
        return 0;

    /* <protocol#tbuf>: the thread buffers get their turn whenever the
     * ring has given what it had for this call, and after a run of the
     * ring's items; a run of their items goes on from them, up to the
     * same bound, so that neither starves the other */
    if (ch->tb.count != 0 &&
        (ch->ring_streak >= CHANNEL_RING_STREAK ||
         (ch->tb_streak > 0 && ch->tb_streak < CHANNEL_RING_STREAK))) {
        ch->ring_streak = 0;
        if (channel_tbufs_next(ch, item, &direct)) {
            ch->tb_streak++;
            return 1;
        }
        direct = 0;
    }
    ch->tb_streak = 0;
    for (;;) {
        if ((ch->sink != NULL || ch->esink != NULL) &&
            !channel_take_direct(ch, &direct))
            return channel_ring_done(ch, item);
        n = ring_take(&ch->ring, ch->rec, DAPTO_RECORD_MAX);
        if (n < 0) {
            memset(item, 0, sizeof *item);
            item->stop = -1;
            free(ch->message);
            ch->message = xasprintf(
                "protocol error: the event ring is corrupt at position "
                "%llu: a record of %u bytes (records are %u to %u bytes, a "
                "multiple of 8); monitoring stops here",
                (unsigned long long)ch->ring.ctail, ch->ring.bad_size,
                DAPTO_RECORD_HEADER, ch->ring.max);
            ch->status = CHANNEL_BROKEN;
            item->kind = READER_ERROR;
            item->message = ch->message;
            return 1;
        }
        if (n == 0)
            return channel_ring_done(ch, item);
        if (ch->sink != NULL && channel_give_direct(ch, n)) {
            /* (a record that wraps, or one of an overwriting ring, which
             * ring_peek() leaves to ring_take()) */
            if (++direct >= CHANNEL_DIRECT_MAX)
                return channel_ring_done(ch, item);
            continue;
        }
        switch (channel_decode(ch, (size_t)n, item)) {
        case 0:
            /* a bound, so that a stream of interns cannot starve the
             * caller's other work; the ring stays ready */
            if (++quiet == 4096)
                return channel_ring_done(ch, item);
            continue;
        default:
            ch->ring_streak++;
            return 1;
        }
    }
}

int channel_more(struct channel *ch)
{
    if (ch->status != CHANNEL_ACTIVE || ch->pending_error != NULL)
        return ch->status == CHANNEL_ACTIVE;
    if (!channel_ready(ch))
        return 0;
    /* Each 0 of channel_next() with records ready follows records taken:
     * without any since the last "yes", something is wrong (or a thread
     * buffer waits for a record the ring will never show); say no rather
     * than have the caller loop forever. */
    if (ch->ring.ctail == ch->more_ctail &&
        ch->ring.lost_seen == ch->more_lost && ch->tb_progress == ch->more_tb)
        return 0;
    ch->more_ctail = ch->ring.ctail;
    ch->more_lost = ch->ring.lost_seen;
    ch->more_tb = ch->tb_progress;
    return 1;
}

int channel_next(struct channel *ch, struct reader_item *item)
{
    if (!channel_next_item(ch, item))
        return 0;
    /* events besides function records: a stop may come, be quick */
    ch->flood = 0;
    return 1;
}
