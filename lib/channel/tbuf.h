/* SPDX-License-Identifier: MIT */
/*
 * tbuf.h - thread buffers <protocol#tbuf>: a buffer of one thread's
 * event records at a time, filled by that thread alone with plain stores
 * and read by the monitor.  The owner's side (tbuf_claim, tbuf_put) is
 * what libdapto's event path uses; the monitor's side (tbuf_peek,
 * tbuf_skip, tbuf_release, ...) is noosa's channel reader.  Part of the
 * channel library (see region.h).
 *
 * The owner's side is async-signal-safe, allocates nothing, takes no lock
 * and makes no atomic read-modify-write on the event path: a record costs
 * its stores and one release store of the buffer's head on a line that
 * only the owner writes.  The monitor's side trusts nothing of a buffer
 * but what its checks pass (every record carries its position, a sane
 * size, and lies below the head, which lies within one buffer of the
 * tail), and never reads outside the buffer.
 *
 * A consumer loop over buffer I looks like:
 *
 *     if ((why = tbuf_look(&a, i, &c)) != NULL)
 *         give up: the buffer is corrupt
 *     for (pos = c.ctail;;) {
 *         rec = tbuf_peek(&a, i, &c, pos, &size, &why);
 *         if (rec != NULL)            handle(rec, size), pos += size;
 *         else if (why != NULL)       give up: the buffer is corrupt
 *         else if (size != 0)         pos += size;   (padding)
 *         else                        break;         (at the head)
 *     }
 *     tbuf_skip(&a, i, &c, pos - c.ctail);
 */
#ifndef NOOSA_TBUF_H
#define NOOSA_TBUF_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"
#include "ring.h" /* record_copy_words() */

struct region;

/* One end's view of a region's thread buffers; set once by
 * tbuf_area_init() (count 0: the region has none), read-only after. */
struct tbuf_area {
    struct dapto_region *hdr; /* the region's header (consumer_sleeping,
                                 let_go) */
    unsigned char *heads;     /* count struct dapto_tbuf */
    unsigned char *data;      /* count buffers of size bytes */
    uint32_t count;
    uint32_t max;             /* largest record: min(RECORD_MAX, size/4) */
    uint64_t size;            /* of one buffer, a power of two */
    uint64_t mask;            /* size - 1 */
    uint64_t sub;             /* a quarter of the buffer: the owner wakes a
                                 sleeping monitor when its head passes into
                                 another quarter */
    int overwrite;            /* DAPTO_RF_OVERWRITE: never wait, count */
    int eventfd;              /* the monitor's wake-up */
    unsigned int spin;        /* microseconds an owner spins for room
                                 before sleeping; 0 on one CPU */
    /* Owners: when not NULL, asked after each sleep for room whether the
     * monitor is gone for good (then they give up as when let go). */
    int (*gone)(void);
};

/* A thread's end of the buffer it owns: its own, in its thread-local
 * storage. */
struct tbuf_prod {
    struct dapto_tbuf *b;
    unsigned char *data;
    uint64_t head;  /* where the next record goes (b->head's value) */
    uint64_t limit; /* records may be written below this without a look
                       at the tail: the tail last seen plus the size */
};

/* The monitor's end of one buffer. */
struct tbuf_cons {
    uint64_t ctail;     /* next position to take */
    uint64_t ptail;     /* the tail last published */
    uint64_t head;      /* the head last read (checked) */
    uint64_t upto;      /* records that end past this (at most head) wait
                           for the next look; tbuf_look() sets it to head */
    uint64_t lost_seen; /* the buffer's losses already reported */
};

/* Set up A on the thread buffers of region REG (its checked geometry) and
 * its wake-up descriptor. */
void tbuf_area_init(struct tbuf_area *a, const struct region *reg);

static inline struct dapto_tbuf *tbuf_at(const struct tbuf_area *a,
                                         uint32_t i)
{
    return (struct dapto_tbuf *)(void *)(a->heads +
                                         (size_t)i * sizeof(struct dapto_tbuf));
}

static inline unsigned char *tbuf_data(const struct tbuf_area *a, uint32_t i)
{
    return a->data + (size_t)i * a->size;
}

/* Owner: take a free buffer for thread TID into *P (a compare-and-swap of
 * its owner from 0, once in the thread's life).  Returns 0, or -1 when
 * every buffer has an owner. */
int tbuf_claim(const struct tbuf_area *a, struct tbuf_prod *p, uint32_t tid);

/* The parts of tbuf_put() left out of line: a record that would pass the
 * end of the buffer (padding first), or that needs a look at the tail (and
 * maybe a wait for room, or in overwrite mode its loss); a wake-up of the
 * sleeping monitor. */
int tbuf_put_slow(const struct tbuf_area *a, struct tbuf_prod *p,
                  const struct dapto_record *rec);
void tbuf_wake_sleeper(const struct tbuf_area *a);

/* Owner: publish that the buffer holds records up to END (from POS). */
CHANNEL_INLINE_ATTR static inline void tbuf_publish(const struct tbuf_area *a,
                                struct tbuf_prod *p, uint64_t pos,
                                uint64_t end)
{
    __atomic_store_n(&p->b->head, end, __ATOMIC_RELEASE);
    p->head = end;
    /* <protocol#tbuf>: a sleeping monitor is woken once a quarter */
    if (__builtin_expect(((pos ^ end) & ~(a->sub - 1)) != 0, 0) &&
        __atomic_load_n(&a->hdr->consumer_sleeping, __ATOMIC_RELAXED) != 0)
        CHANNEL_OUT_OF_LINE(tbuf_wake_sleeper)(a);
}

/*
 * Owner: write one record.  REC points at a header followed by REC->len
 * value bytes, 8-byte aligned and readable up to the size rounded up to 8;
 * code, flags, tid, time, aux and len must be set (size and seq are
 * filled in here; the bytes past the values are written as zero).  In
 * lossless mode this waits for room; in overwrite mode a record that finds
 * none is lost.  Returns 0, or -1 when the record was not written (counted
 * in the buffer's lost).
 */
CHANNEL_INLINE_ATTR static inline int tbuf_put(const struct tbuf_area *a, struct tbuf_prod *p,
                           const struct dapto_record *rec)
{
    uint64_t bytes = DAPTO_RECORD_HEADER + (uint64_t)rec->len;
    uint64_t size = (bytes + 7) & ~(uint64_t)7;
    uint64_t pos = p->head, off = pos & a->mask, w;
    const unsigned char *src = (const unsigned char *)rec;
    unsigned char *dst;
    uint32_t c[2];

    if (__builtin_expect(pos + size > p->limit || off + size > a->size ||
                             size > a->max, 0))
        return CHANNEL_OUT_OF_LINE(tbuf_put_slow)(a, p, rec);
    dst = p->data + off;
#ifdef TBUF_PREFETCH
    __builtin_prefetch(p->data + ((off + TBUF_PREFETCH) & a->mask), 1, 3);
#endif
    record_copy_words(dst, src, bytes, size);
    c[0] = (uint32_t)size;
    c[1] = (uint32_t)(pos >> 3);
    __builtin_memcpy(&w, c, 8);
    __builtin_memcpy(dst, &w, 8);
    tbuf_publish(a, p, pos, pos + size);
    return 0;
}

/* Monitor: start reading buffer I where its tail stands. */
void tbuf_cons_init(const struct tbuf_area *a, uint32_t i,
                    struct tbuf_cons *c);

/* Monitor: look at how far the owner of buffer I has written (C->head),
 * once for a batch: NULL, or what makes the buffer corrupt (a head that
 * goes back, or lies more than a buffer ahead of what was taken). */
const char *tbuf_look(const struct tbuf_area *a, uint32_t i,
                      struct tbuf_cons *c);

/*
 * Monitor: what lies at position POS of buffer I (POS from C->ctail up,
 * past records already peeked at, below C->head as tbuf_look() left it).
 * A record: returns it (the bytes stay put until tbuf_skip() steps over
 * them, but the program may still write them: read each byte once), its
 * size in *SIZE.  Otherwise NULL, and *SIZE is the bytes of padding to
 * step over (then look again past them), or 0 at the head or at a record
 * that ends past C->upto; *WHY is then NULL, or says what makes the
 * buffer corrupt (a record that does not carry its position or whose size
 * is impossible).
 */
static inline const unsigned char *
tbuf_peek(const struct tbuf_area *a, uint32_t i, const struct tbuf_cons *c,
          uint64_t pos, uint32_t *size, const char **why)
{
    uint64_t off = pos & a->mask, w;
    const unsigned char *rec;
    uint32_t s[2];

    *size = 0;
    *why = NULL;
    if (pos >= c->head)
        return NULL;
    rec = tbuf_data(a, i) + off;
    w = __atomic_load_n((const uint64_t *)(const void *)rec, __ATOMIC_RELAXED);
    __builtin_memcpy(s, &w, 8);
    if (s[1] != (uint32_t)(pos >> 3)) {
        *why = "a record does not carry its position";
        return NULL;
    }
    if (s[0] & DAPTO_TB_PAD) {
        uint32_t n = s[0] & ~DAPTO_TB_PAD;

        if (n == 0 || n % 8 != 0 || n != a->size - off || pos + n > c->head) {
            *why = "its padding does not reach the end of the buffer";
            return NULL;
        }
        if (pos + n <= c->upto)
            *size = n;
        return NULL;
    }
    if (s[0] < DAPTO_RECORD_HEADER || s[0] > a->max || s[0] % 8 != 0 ||
        off + s[0] > a->size || pos + s[0] > c->head) {
        *why = "a record has an impossible size";
        *size = s[0];
        return NULL;
    }
    if (pos + s[0] > c->upto)
        return NULL;
    *size = s[0];
    return rec;
}

/* Monitor: step over BYTES bytes of records and padding peeked at; their
 * room goes back to the owner in batches (tbuf_release). */
void tbuf_skip(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c,
               uint64_t bytes);

/* Monitor: give the room of what was taken back to the owner now, and
 * wake it when it waits for room. */
void tbuf_release(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c);

/* Monitor: whether buffer I holds something not taken yet, or losses not
 * reported. */
int tbuf_ready(const struct tbuf_area *a, uint32_t i,
               const struct tbuf_cons *c);

/* Monitor: the losses of buffer I not reported yet, now counted as
 * reported. */
uint64_t tbuf_lost_new(const struct tbuf_area *a, uint32_t i,
                       struct tbuf_cons *c);

/* Monitor: buffer I's owner is gone; when everything it wrote is taken
 * (and its losses reported), free the buffer for another thread and
 * return 1, else 0. */
int tbuf_free(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c);

#endif /* NOOSA_TBUF_H */
