/* SPDX-License-Identifier: MIT */
/*
 * channel-int.h - what the files of the channel share <design#channel>:
 * struct channel, its limits, and the functions one file gives the
 * others, in the order of the files.  Not for use outside src/core/channel*.c.
 */
#ifndef NOOSA_CHANNEL_INT_H
#define NOOSA_CHANNEL_INT_H

#include <stdint.h>
#include <string.h>

#include "channel.h"
#include "clock.h"
#include "dapto.h"
#include "filter.h"
#include "protocol.h"
#include "qarea.h"
#include "reader.h"
#include "region.h"
#include "relarea.h"
#include "ring.h"
#include "tbuf.h"
#include "ttrail.h"

/* Function records handed to the direct path at a time, and in one call
 * of channel_next() at most. */
#define CHANNEL_DIRECT_BATCH 256
#define CHANNEL_DIRECT_MAX 65536
/* How long interrupting an operation that did not answer may take. */
#define CHANNEL_INTERRUPT_MS 2000
/* Thread buffers offered (<protocol#tbuf>), their largest size, and how
 * often their owners are looked for at most (ns). */
#define CHANNEL_TBUFS 64
#define CHANNEL_TBUF_MAX (16u << 20)
#define CHANNEL_TBUF_SCAN 10000000u
/* The ring's items given in a row before the thread buffers get a turn. */
#define CHANNEL_RING_STREAK 64

struct channel {
    struct region region;
    struct ring ring;
    struct clock clock;
    struct registry *reg;
    struct reader *reader;
    struct target *target;
    unsigned char default_state;
    char env[64];
    long ncpu; /* online CPUs: spinning only pays with more than one */

    enum channel_status status;
    char version[48];
    int broken_told; /* the BROKEN or UNMONITORED item was given */
    int let_go;      /* channel_let_go() was done */
    char *message;

    unsigned char *rec; /* DAPTO_RECORD_MAX bytes */
    channel_sink sink;  /* the direct path, when on */
    void *sink_arg;
    channel_esink esink; /* its events of scalars, when on */
    void *esink_arg;
    uint64_t direct_count; /* records the sink took */
    int may_sleep; /* channel_sleep_prepare() said the caller may sleep */
    int flood; /* the direct path caught up with a program writing
                  function records (or enter/leave) flat out */
    /* channel_spin() found nothing when channel_progress() was SPIN_MARK */
    int spin_idle;
    uint64_t spin_mark;
    uint32_t aspects_seen; /* ASPECT records, good or bad */
    uint32_t aspects_acked;
    char *pending_error; /* an error to give as the next item */
    uint64_t lost;
    /* channel_more(): the ring's position and losses reported at its
     * last "yes" */
    uint64_t more_ctail, more_lost;

    /* the last events taken, kept for the post-mortem (channel_keep) */
    unsigned char *kept;    /* keep_n slots of DAPTO_TRAIL_SLOT bytes */
    unsigned int keep_n;
    uint64_t kept_next;     /* events kept so far */

    /* stops: for each mailbox, the order in which it stopped (0: none),
     * and whether its thread still runs an operation that did not
     * answer and could not be interrupted */
    uint64_t *stopped;
    unsigned char *busy;
    uint64_t stop_clock;

    /* filters <protocol#filter>: the area as noosa fills it, or why there
     * is none */
    struct filter_space fspace;
    struct filter_entry *fentries;
    const char *no_filters;

    /* questions <protocol#question>: the area as noosa fills it, or why
     * there is none */
    struct qarea qarea;
    const char *no_questions;

    /* relations <protocol#relate>: the area as noosa fills it, or why
     * there is none */
    struct relarea relarea;
    const char *no_relations;

    /* thread buffers <protocol#tbuf>: the area (count 0: none), noosa's
     * end of each buffer, where the next look starts, what was taken from
     * them, and when their owners were last looked for */
    struct tbuf_area tb;
    struct tbuf_cons *tbc;
    uint32_t tb_next;
    uint64_t tb_records;
    uint64_t tb_progress; /* records and losses taken, for channel_more */
    uint64_t more_tb;
    uint64_t tb_scan;
    unsigned int ring_streak; /* the ring's items given in a row */
    /* threads' own trails <protocol#ttrail> (count 0: none), and how
     * many had owners at the last look */
    struct ttrail_area tt;
    unsigned int tb_streak;   /* the thread buffers' items in a row */

    /* operation results */
    unsigned char *res_data;
    struct decode_value *res_values;
    unsigned int res_avalues;
    char res_message[sizeof(((struct dapto_mailbox *)0)->message) + 1];
};

/* channel-wait.c */
int channel_ready(struct channel *ch);
int channel_pause(struct channel *ch, int tbufs);

/* channel-ring.c */
int channel_decode(struct channel *ch, size_t size, struct reader_item *item);

/* channel-keep.c */
void channel_copy_slot(unsigned char *slot, const unsigned char *rec,
                       uint32_t size);

/* Keep the event record REC of SIZE bytes, just taken, among the last. */
static inline void keep(struct channel *ch, const unsigned char *rec,
                        uint32_t size)
{
    if (ch->keep_n == 0)
        return;
    channel_copy_slot(ch->kept + (ch->kept_next % ch->keep_n) *
                                     DAPTO_TRAIL_SLOT,
                      rec, size);
    ch->kept_next++;
}

/* channel-direct.c */

/* Whether REC (SIZE bytes) is a function record for the direct path
 * (enter or leave, its name an address or interned); if so, FN says it. */
static inline int channel_fn(const struct channel *ch,
                             const unsigned char *rec,
                             uint32_t size, const struct reader_time *t,
                             struct reader_fn *fn)
{
    return size == READER_FN_SIZE
               ? reader_function(rec, t, fn)
               : size == READER_NAMED_SIZE && reader_maybe_named(rec) &&
                     reader_named(ch->reader, rec, t, fn);
}

/* What the direct path makes of REC (SIZE bytes): CHANNEL_D_FN, a
 * function record for the sink (in *FN); CHANNEL_D_EV, an event of
 * scalars for the event sink (in *EV); 0, a record for the general way. */
enum { CHANNEL_D_FN = 1, CHANNEL_D_EV = 2 };

static inline int channel_direct_kind(const struct channel *ch,
                                      const unsigned char *rec, uint32_t size,
                                      const struct reader_time *t,
                                      struct reader_fn *fn,
                                      struct reader_scalar *ev)
{
    if (ch->sink != NULL && channel_fn(ch, rec, size, t, fn))
        return CHANNEL_D_FN;
    if (ch->esink != NULL && reader_scalar_event(ch->reader, rec, size, t, ev))
        return CHANNEL_D_EV;
    return 0;
}

void channel_give_events(struct channel *ch, const struct reader_scalar *evs,
                         const unsigned char *const *recs,
                         const uint32_t *sizes, unsigned int n);
int channel_take_direct(struct channel *ch, unsigned int *taken);
int channel_give_direct(struct channel *ch, long size);

/* channel-tbuf.c */
int channel_tbufs_ready(const struct channel *ch);
int channel_tbufs_next(struct channel *ch, struct reader_item *item,
                       unsigned int *direct);

#endif
