/* SPDX-License-Identifier: MIT */
/*
 * ring.h - the event ring of the shared region <protocol#ring>: the
 * producer side that libdapto uses (many threads), and the consumer side
 * that noosa's channel reader uses (one thread).
 *
 * The producer side is async-signal-safe, allocates nothing and preserves
 * errno.  The consumer side trusts nothing in the ring but what passes the
 * commit check <protocol#commit>, and never reads outside the ring.
 *
 * A consumer loop looks like:
 *
 *     unsigned char buf[DAPTO_RECORD_MAX];
 *     for (;;) {
 *         long n = ring_take(&ring, buf, sizeof buf);
 *         if (n > 0)
 *             handle(buf, n);          // a record, maybe a DAPTO_REC_LOST
 *         else if (n == 0)
 *             ring_wait(&ring, 100);   // or ring_sleep_prepare + poll
 *         else
 *             give up: the ring is corrupt
 *     }
 */
#ifndef NOOSA_RING_H
#define NOOSA_RING_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

struct region;

/* One end's view of a ring.  Geometry is a private copy, set once by
 * ring_init() and read-only after. */
struct ring {
    struct dapto_region *hdr; /* shared counters */
    unsigned char *data;      /* ring_size bytes */
    uint64_t size;            /* ring_size, a power of two */
    uint64_t mask;            /* size - 1 */
    uint32_t max;             /* largest record: min(RECORD_MAX, size/4) */
    int overwrite;            /* DAPTO_RF_OVERWRITE */
    int eventfd;              /* the consumer's wake-up */
    unsigned int spin;        /* spins before sleeping; 0 on one CPU */

    /* Consumer only. */
    uint64_t ctail;     /* next position to read (lossless mode) */
    uint64_t ptail;     /* value of hdr->tail last published */
    uint64_t lost_seen; /* hdr->lost already reported */
    uint64_t discarded; /* torn copies thrown away (overwrite mode) */
    uint32_t bad_size;  /* the size of the record ring_take() refused */

    /* Producers: when not NULL, asked after each sleep for room whether
     * the consumer is gone for good (then they give up as when let go). */
    int (*gone)(void);

    /* Producers: a lower bound of hdr->tail, refreshed when it is too low,
     * so that producers seldom read the line the consumer writes. */
    _Alignas(64) uint64_t tail_hint;
};

/* Set up R on the ring of region REG (its checked geometry) and wake-up
 * descriptor.  A consumer starts at the header's current tail. */
void ring_init(struct ring *r, const struct region *reg);

/*
 * Producer: write one record.  REC points at a header followed by
 * REC->len value bytes, 8-byte aligned and readable up to the size rounded
 * up to 8; code, flags, tid, time, aux and len must be set.
 * The ring fills in size and seq and commits the record <protocol#commit>.
 * In lossless mode this waits for room (futex tail_wake, with a timeout as
 * backstop); in overwrite mode it evicts the oldest records, counting them
 * in the header's lost.  Afterwards it wakes the consumer if it sleeps
 * <protocol#wake>.  Returns 0, or -1 (counted in lost) when the record is
 * larger than R->max.
 */
int ring_put(struct ring *r, const struct dapto_record *rec);

/* Wake the consumer whether or not it sleeps (a stop, an aspect). */
void ring_wake(const struct ring *r);

/* Producer: whether the monitor has let the program go <protocol#letgo>:
 * nothing that waits for it may wait any longer. */
int ring_let_go(const struct ring *r);

/* The parts of ring_put() that the inline fast path below leaves out of
 * line: waiting for (or making) room (-1 when the monitor let the program
 * go meanwhile: the record is counted lost), writing a record that wraps
 * around the end, counting a loss, waking a sleeping consumer. */
int ring_room(struct ring *r, uint64_t p, uint64_t size);
void ring_put_wrapped(struct ring *r, uint64_t p, const struct dapto_record *rec);
void ring_lost(struct ring *r);
void ring_wake_sleeper(struct ring *r);

/* How the inline paths here and in tbuf.h call their out-of-line parts:
 * by name, unless the includer says otherwise (a caller that touches no
 * vector register, lib/runtime/probe-hit.c, calls them through a wrapper
 * that saves the vector state around them). */
#ifndef CHANNEL_OUT_OF_LINE
#define CHANNEL_OUT_OF_LINE(f) f
#endif
/* ... and what they are declared with besides static inline: nothing,
 * unless the includer says otherwise (probe-hit.c: not under
 * AddressSanitizer, like its own functions, so that they inline there). */
#ifndef CHANNEL_INLINE_ATTR
#define CHANNEL_INLINE_ATTR
#endif

/* Copy a record of BYTES bytes (SIZE rounded up to 8) from SRC to DST but
 * its first word (the commit word, the writer's to store last): whole
 * words, the last one keeping only the value bytes so that the padding is
 * zero.  Little and big endian alike: the mask is built in memory order.
 * SRC must be readable up to SIZE. */
CHANNEL_INLINE_ATTR static inline void record_copy_words(unsigned char *dst,
                                     const unsigned char *src, uint64_t bytes,
                                     uint64_t size)
{
    uint64_t w, i, last;

    for (i = 8; i + 8 < size; i += 8) {
        __builtin_memcpy(&w, src + i, 8);
        __builtin_memcpy(dst + i, &w, 8);
    }
    last = bytes - (size - 8); /* value bytes in the last word, 1..8 */
    __builtin_memcpy(&w, src + size - 8, 8);
    if (last < 8)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        w &= ((uint64_t)1 << (8 * last)) - 1;
#else
        w &= ~(~(uint64_t)0 >> (8 * last));
#endif
    __builtin_memcpy(dst + size - 8, &w, 8);
}

/* ring_put(), inline for the runtime's event path.  REC must be 8-byte
 * aligned and readable up to its size rounded up to 8 (an aligned word
 * never crosses a page); the bytes past its values are written as zero. */
CHANNEL_INLINE_ATTR static inline int ring_put_inline(struct ring *r, const struct dapto_record *rec)
{
    uint64_t bytes = DAPTO_RECORD_HEADER + (uint64_t)rec->len;
    uint64_t size = (bytes + 7) & ~(uint64_t)7;
    uint64_t p, off, w;
    unsigned char *dst;
    const unsigned char *src = (const unsigned char *)rec;
    uint32_t c[2];

    if (__builtin_expect(size > r->max, 0)) {
        CHANNEL_OUT_OF_LINE(ring_lost)(r);
        return -1;
    }
    p = __atomic_fetch_add(&r->hdr->head, size, __ATOMIC_RELAXED);
    if (__builtin_expect(p + size - __atomic_load_n(&r->tail_hint,
                                                   __ATOMIC_ACQUIRE) > r->size, 0) &&
        CHANNEL_OUT_OF_LINE(ring_room)(r, p, size) != 0)
        return -1;
    off = p & r->mask;
    dst = r->data + off;
    if (__builtin_expect(off + size <= r->size, 1)) {
        record_copy_words(dst, src, bytes, size);
    } else {
        CHANNEL_OUT_OF_LINE(ring_put_wrapped)(r, p, rec);
    }
    c[0] = (uint32_t)size;
    c[1] = (uint32_t)(p >> 3);
    __builtin_memcpy(&w, c, 8);
    __atomic_store_n((uint64_t *)(void *)dst, w, __ATOMIC_RELEASE);
    /* <protocol#wake>: a system call only when the consumer sleeps. */
    if (__builtin_expect(__atomic_load_n(&r->hdr->consumer_sleeping,
                                         __ATOMIC_RELAXED) != 0, 0))
        CHANNEL_OUT_OF_LINE(ring_wake_sleeper)(r);
    return 0;
}

/*
 * Consumer: copy the next committed record into BUF (BUFSIZE bytes,
 * DAPTO_RECORD_MAX suffice) and step over it.  Returns its size (a
 * multiple of 8, at least DAPTO_RECORD_HEADER), 0 when no record is
 * committed yet, or -1 when the ring is corrupt: a record whose commit
 * word names its position but whose size is impossible (errno EPROTO),
 * or larger than BUFSIZE (ENOBUFS); that size is left in R->bad_size.  Records are
 * returned whole and in ring order; in overwrite mode a copy that a
 * producer overwrote meanwhile is discarded and the consumer goes on from
 * the new tail.
 *
 * When the runtime has counted lost records since the previous call, the
 * record returned is a DAPTO_REC_LOST that the consumer makes up: tid 0,
 * time 0, one LONG value, the count.
 */
long ring_take(struct ring *r, void *buf, size_t bufsize);

/*
 * Consumer, without copying: the record at position POS (ctail, or past
 * records already peeked at) when it is committed, of a sane size (in
 * *SIZE) and does not wrap around the end of the ring; else NULL, with
 * *COMMITTED saying whether some record is committed there (then
 * ring_take() is the way to go on: it copies a record that wraps, and
 * says when a size is impossible).  Lossless mode only: in overwrite mode
 * a producer may evict the record under the reader (NULL there,
 * *COMMITTED 1).  The bytes stay put until the consumer steps over them
 * with ring_skip(), but the program may still write them: read each byte
 * once, and trust nothing but the size.  Records the runtime counted
 * lost are not reported here: look at ring_lost_pending() first and let
 * ring_take() report them.
 */
static inline const unsigned char *ring_peek(const struct ring *r,
                                             uint64_t pos, uint32_t *size,
                                             int *committed)
{
    uint64_t off = pos & r->mask;
    uint32_t c[2];
    uint64_t w;

    if (r->overwrite) {
        *committed = 1;
        return NULL;
    }
    w = __atomic_load_n((const uint64_t *)(const void *)(r->data + off),
                        __ATOMIC_ACQUIRE);
    __builtin_memcpy(c, &w, 8);
    *committed = c[1] == (uint32_t)(pos >> 3) && c[0] != 0;
    if (!*committed || c[0] < DAPTO_RECORD_HEADER || c[0] > r->max ||
        c[0] % 8 != 0 || off + c[0] > r->size)
        return NULL;
    *size = c[0];
    return r->data + off;
}

/* Consumer: whether the runtime has counted losses that ring_take() has
 * not reported yet. */
static inline int ring_lost_pending(const struct ring *r)
{
    return __atomic_load_n(&r->hdr->lost, __ATOMIC_RELAXED) != r->lost_seen;
}

/* Consumer: step over BYTES bytes of records seen with ring_peek(); their
 * space goes back to the producers in batches, as with ring_take(). */
void ring_skip(struct ring *r, uint64_t bytes);

/* Consumer: whether ring_take() would return something now. */
int ring_ready(struct ring *r);

/* Consumer: release the space of records taken so far to waiting
 * producers.  ring_take() does this itself every 64th of the ring and
 * when the ring is empty. */
void ring_release(struct ring *r);

/*
 * Consumer, before sleeping on the eventfd (e.g. in poll()): release
 * space, set consumer_sleeping, fence, and look at the ring once more
 * <protocol#wake>.  Returns 1 when the caller may sleep, 0 when something
 * is ready (the flag is then cleared).  Call ring_sleep_finish() after.
 */
int ring_sleep_prepare(struct ring *r);

/* Consumer, after sleeping: clear consumer_sleeping and drain the eventfd. */
void ring_sleep_finish(struct ring *r);

/*
 * Consumer: wait until the ring may have something, or the eventfd was
 * written (a mailbox answered), or TIMEOUT_MS passed.  Spins briefly first
 * when there is more than one CPU.  Returns 1 when woken or ready, 0 on
 * timeout.
 */
int ring_wait(struct ring *r, int timeout_ms);

#endif /* NOOSA_RING_H */
