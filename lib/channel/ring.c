/* SPDX-License-Identifier: MIT */
/*
 * ring.c - the event ring <protocol#ring>: producers reserve by adding to
 * head, write, and commit with one release store of the commit word
 * <protocol#commit>; the consumer takes committed records in order.
 *
 * The producer path runs inside the monitored program, possibly in a
 * signal handler: no allocation, no stdio, no locks, errno preserved.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "futex.h"
#include "region.h"
#include "ring.h"

/* Microseconds to spin before sleeping, with more than one CPU. */
#define RING_SPIN_US 50
/* Backstop of every sleep: a lost wake-up costs at most this. */
#define RING_SLEEP_MS 20

/* The commit word: size then seq, in memory order. */
static inline uint64_t commit_word(uint32_t size, uint32_t seq)
{
    uint32_t c[2] = {size, seq};
    uint64_t w;

    memcpy(&w, c, sizeof w);
    return w;
}

static inline void commit_split(uint64_t w, uint32_t *size, uint32_t *seq)
{
    uint32_t c[2];

    memcpy(c, &w, sizeof w);
    *size = c[0];
    *seq = c[1];
}

static inline uint64_t *word_at(const struct ring *r, uint64_t pos)
{
    return (uint64_t *)(void *)(r->data + (pos & r->mask));
}

static inline int size_sane(const struct ring *r, uint32_t size)
{
    return size >= DAPTO_RECORD_HEADER && size <= r->max && size % 8 == 0;
}

/* The record at position T: 1 when committed (its size in *SIZE), 0 when
 * not yet written, -1 when its commit word names T but its size is
 * impossible <protocol#commit>.  A zero word (a fresh ring) is not a
 * record. */
static int committed(const struct ring *r, uint64_t t, uint32_t *size)
{
    uint32_t s, q;

    commit_split(__atomic_load_n(word_at(r, t), __ATOMIC_ACQUIRE), &s, &q);
    if (q != (uint32_t)(t >> 3) || s == 0)
        return 0;
    *size = s;
    return size_sane(r, s) ? 1 : -1;
}

void ring_init(struct ring *r, const struct region *reg)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    memset(r, 0, sizeof *r);
    r->hdr = reg->hdr;
    r->data = (unsigned char *)reg->hdr + reg->geom.ring_off;
    r->size = reg->geom.ring_size;
    r->mask = r->size - 1;
    r->max = r->size / 4 < DAPTO_RECORD_MAX ? (uint32_t)(r->size / 4)
                                            : DAPTO_RECORD_MAX;
    r->overwrite = (reg->geom.flags & DAPTO_RF_OVERWRITE) != 0;
    r->eventfd = reg->eventfd;
    r->spin = ncpu > 1 ? RING_SPIN_US : 0;
    r->ctail = r->ptail = __atomic_load_n(&r->hdr->tail, __ATOMIC_ACQUIRE);
    r->lost_seen = __atomic_load_n(&r->hdr->lost, __ATOMIC_RELAXED);
    r->tail_hint = r->ctail;
}

/* Copy N bytes from SRC into the ring at position POS, wrapping. */
static void copy_in(struct ring *r, uint64_t pos, const void *src, size_t n)
{
    size_t off = (size_t)(pos & r->mask);
    size_t first = n < r->size - off ? n : (size_t)(r->size - off);

    memcpy(r->data + off, src, first);
    if (n > first)
        memcpy(r->data, (const unsigned char *)src + first, n - first);
}

/* Copy N bytes at position POS out of the ring into DST, wrapping. */
static void copy_out(const struct ring *r, uint64_t pos, void *dst, size_t n)
{
    size_t off = (size_t)(pos & r->mask);
    size_t first = n < r->size - off ? n : (size_t)(r->size - off);

    memcpy(dst, r->data + off, first);
    if (n > first)
        memcpy((unsigned char *)dst + first, r->data, n - first);
}

/* Remember that the tail has reached at least T. */
static inline void hint_tail(struct ring *r, uint64_t t)
{
    if (t > __atomic_load_n(&r->tail_hint, __ATOMIC_RELAXED))
        __atomic_store_n(&r->tail_hint, t, __ATOMIC_RELEASE);
}

void ring_wake(const struct ring *r)
{
    uint64_t one = 1;
    int saved = errno;
    ssize_t n;

    n = write(r->eventfd, &one, sizeof one);
    (void)n;
    errno = saved;
}

/* Lossless: wait until [p, p+size) is free, i.e. p + size - tail <= size
 * of the ring <protocol#ring>; 0, or -1 when the monitor let the program
 * go meanwhile <protocol#letgo>. */
static int room_wait(struct ring *r, uint64_t p, uint64_t size)
{
    struct dapto_region *h = r->hdr;
    uint64_t t = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
    uint64_t until;
    uint32_t v;
    unsigned int i;

    if (p + size - t > r->size && r->spin != 0) {
        until = now_us() + r->spin;
        cpu_say(&h->program_cpu);
        for (i = 0; p + size - t > r->size; i++) {
            if (i % 64 == 63) {
                if (now_us() > until)
                    break;
                /* the consumer may be waiting for this CPU */
                if (cpu_yield_pays(&h->monitor_cpu))
                    sched_yield();
            }
            cpu_relax();
            t = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
        }
    }
    if (p + size - t > r->size) {
        __atomic_fetch_add(&h->space_waiters, 1, __ATOMIC_SEQ_CST);
        for (;;) {
            v = __atomic_load_n(&h->tail_wake, __ATOMIC_SEQ_CST);
            t = __atomic_load_n(&h->tail, __ATOMIC_SEQ_CST);
            if (p + size - t <= r->size)
                break;
            if (ring_let_go(r)) {
                __atomic_fetch_sub(&h->space_waiters, 1, __ATOMIC_RELAXED);
                return -1;
            }
            ring_wake(r);
            futex_wait(&h->tail_wake, v, RING_SLEEP_MS);
            if (r->gone != NULL && r->gone())
                __atomic_store_n(&h->let_go, 1, __ATOMIC_SEQ_CST);
        }
        __atomic_fetch_sub(&h->space_waiters, 1, __ATOMIC_RELAXED);
    }
    hint_tail(r, t);
    return 0;
}

/* Overwrite: make room by moving the tail past whole committed records,
 * counting each as lost <protocol#ring>. */
static void room_evict(struct ring *r, uint64_t p, uint64_t size)
{
    struct dapto_region *h = r->hdr;
    uint64_t t = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
    uint32_t s = 0;
    unsigned int spins = 0;

    while (p + size - t > r->size) {
        if (committed(r, t, &s) == 1) {
            if (__atomic_compare_exchange_n(&h->tail, &t, t + s, 0,
                                            __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                __atomic_fetch_add(&h->lost, 1, __ATOMIC_RELAXED);
                t += s;
            }
            continue;
        }
        /* The record at the tail is still being written by its producer. */
        if (++spins % 256 == 0)
            sched_yield();
        else
            cpu_relax();
        t = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
    }
    hint_tail(r, t);
}

int ring_room(struct ring *r, uint64_t p, uint64_t size)
{
    if (r->overwrite) {
        room_evict(r, p, size);
        return 0;
    }
    if (room_wait(r, p, size) == 0)
        return 0;
    ring_lost(r);
    return -1;
}

int ring_let_go(const struct ring *r)
{
    return __atomic_load_n(&r->hdr->let_go, __ATOMIC_ACQUIRE) != 0;
}

void ring_put_wrapped(struct ring *r, uint64_t p, const struct dapto_record *rec)
{
    uint64_t bytes = DAPTO_RECORD_HEADER + (uint64_t)rec->len;
    uint64_t size = (bytes + 7) & ~(uint64_t)7;
    static const unsigned char zero[8];

    copy_in(r, p + 8, (const unsigned char *)rec + 8, (size_t)bytes - 8);
    copy_in(r, p + bytes, zero, (size_t)(size - bytes));
}

void ring_lost(struct ring *r)
{
    __atomic_fetch_add(&r->hdr->lost, 1, __ATOMIC_RELAXED);
}

void ring_wake_sleeper(struct ring *r)
{
    if (__atomic_exchange_n(&r->hdr->consumer_sleeping, 0, __ATOMIC_ACQ_REL))
        ring_wake(r);
}

int ring_put(struct ring *r, const struct dapto_record *rec)
{
    return ring_put_inline(r, rec);
}

/* Make up a DAPTO_REC_LOST record for COUNT losses in BUF. */
static long make_lost(void *buf, uint64_t count)
{
    struct dapto_record rec;
    unsigned char *b = buf;
    int64_t v = (int64_t)count;

    memset(b, 0, 48);
    memset(&rec, 0, sizeof rec);
    rec.size = 48;
    rec.code = DAPTO_REC_LOST;
    rec.len = 9;
    memcpy(b, &rec, sizeof rec);
    b[DAPTO_RECORD_HEADER] = DAPTO_K_LONG;
    memcpy(b + DAPTO_RECORD_HEADER + 1, &v, sizeof v);
    return 48;
}

/* Zero the N bytes at position POS, wrapping. */
static void zero_out(struct ring *r, uint64_t pos, size_t n)
{
    size_t off = (size_t)(pos & r->mask);
    size_t first = n < r->size - off ? n : (size_t)(r->size - off);

    memset(r->data + off, 0, first);
    if (n > first)
        memset(r->data, 0, n - first);
}

void ring_release(struct ring *r)
{
    struct dapto_region *h = r->hdr;

    if (r->overwrite || r->ptail == r->ctail)
        return;
    /* <protocol#commit>: what goes back to the producers is zero, so that
     * no word of this lap can pass for a commit word of the next. */
    zero_out(r, r->ptail, (size_t)(r->ctail - r->ptail));
    __atomic_store_n(&h->tail, r->ctail, __ATOMIC_RELEASE);
    r->ptail = r->ctail;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&h->space_waiters, __ATOMIC_RELAXED) != 0) {
        __atomic_fetch_add(&h->tail_wake, 1, __ATOMIC_RELEASE);
        futex_wake(&h->tail_wake, INT_MAX);
    }
}

static long take_overwrite(struct ring *r, void *buf, size_t bufsize)
{
    struct dapto_region *h = r->hdr;
    uint64_t t;
    uint32_t s = 0;
    int c;

    for (;;) {
        t = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
        /* Past the head, the ring holds only the last lap's bytes
         * <protocol#commit>. */
        if (t >= __atomic_load_n(&h->head, __ATOMIC_ACQUIRE))
            return 0;
        c = committed(r, t, &s);
        if (c != 1 || s > bufsize) {
            /* A producer may have moved the tail under us: look again. */
            if (__atomic_load_n(&h->tail, __ATOMIC_ACQUIRE) != t)
                continue;
            if (c == 0)
                return 0;
            r->bad_size = s;
            errno = c == 1 ? ENOBUFS : EPROTO;
            return -1;
        }
        copy_out(r, t, buf, s);
        if (__atomic_compare_exchange_n(&h->tail, &t, t + s, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            r->ctail = r->ptail = t + s;
            return s;
        }
        /* A producer evicted the record while we copied it: the copy may
         * be torn.  The producer counted it as lost. */
        r->discarded++;
    }
}

long ring_take(struct ring *r, void *buf, size_t bufsize)
{
    struct dapto_region *h = r->hdr;
    uint64_t lost = __atomic_load_n(&h->lost, __ATOMIC_RELAXED);
    uint64_t t = r->ctail;
    uint32_t s = 0;
    int c;

    if (lost != r->lost_seen) {
        if (bufsize < 48) {
            errno = ENOBUFS;
            return -1;
        }
        make_lost(buf, lost - r->lost_seen);
        r->lost_seen = lost;
        return 48;
    }
    if (r->overwrite)
        return take_overwrite(r, buf, bufsize);
    c = committed(r, t, &s);
    if (c == 0) {
        ring_release(r);
        return 0;
    }
    if (c < 0 || s > bufsize) {
        r->bad_size = s;
        errno = c < 0 ? EPROTO : ENOBUFS;
        return -1;
    }
    copy_out(r, t, buf, s);
    r->ctail = t + s;
    /* Not at every record, even with producers waiting: waking them is a
     * system call, and they can use a batch of room better than a record's
     * worth. */
    if (r->ctail - r->ptail >= r->size / 64)
        ring_release(r);
    return s;
}

void ring_skip(struct ring *r, uint64_t bytes)
{
    r->ctail += bytes;
    if (r->ctail - r->ptail >= r->size / 64)
        ring_release(r);
}

int ring_ready(struct ring *r)
{
    struct dapto_region *h = r->hdr;
    uint64_t t;
    uint32_t s;

    if (__atomic_load_n(&h->lost, __ATOMIC_RELAXED) != r->lost_seen)
        return 1;
    if (!r->overwrite)
        return committed(r, r->ctail, &s) != 0;
    t = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
    return t < __atomic_load_n(&h->head, __ATOMIC_ACQUIRE) &&
           committed(r, t, &s) != 0;
}

int ring_sleep_prepare(struct ring *r)
{
    struct dapto_region *h = r->hdr;

    ring_release(r);
    __atomic_store_n(&h->consumer_sleeping, 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (ring_ready(r)) {
        __atomic_store_n(&h->consumer_sleeping, 0, __ATOMIC_RELAXED);
        return 0;
    }
    return 1;
}

/* Read the eventfd without blocking; 1 when it had been written. */
static int drain(const struct ring *r)
{
    uint64_t v;

    return read(r->eventfd, &v, sizeof v) == (ssize_t)sizeof v;
}

void ring_sleep_finish(struct ring *r)
{
    __atomic_store_n(&r->hdr->consumer_sleeping, 0, __ATOMIC_RELAXED);
    drain(r);
}

int ring_wait(struct ring *r, int timeout_ms)
{
    struct pollfd pfd;
    uint64_t until;
    unsigned int i;
    int n;

    if (r->spin != 0) {
        /* Look about every microsecond, not at every pause: a consumer
         * that watches the very line a producer is writing slows both;
         * one that comes back later takes a batch of whole lines. */
        until = now_us() + r->spin;
        cpu_say(&r->hdr->monitor_cpu);
        for (i = 0;; i++) {
            uint64_t t = now_us();

            if (ring_ready(r))
                return 1;
            if (i % 16 == 15 && drain(r))
                return 1;
            if (t > until)
                break;
            /* a producer, or a stopped thread, may need this CPU */
            if (cpu_yield_pays(&r->hdr->program_cpu))
                sched_yield();
            while (now_us() == t)
                cpu_relax();
        }
    }
    if (!ring_sleep_prepare(r))
        return 1;
    pfd.fd = r->eventfd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    n = poll(&pfd, 1, timeout_ms);
    ring_sleep_finish(r);
    return n > 0 || ring_ready(r);
}
