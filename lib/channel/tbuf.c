/* SPDX-License-Identifier: MIT */
/*
 * tbuf.c - thread buffers <protocol#tbuf>: the owner's slow paths (a
 * buffer taken, padding at the end, room looked for or waited for, a
 * record lost) and the monitor's side (checked reading, room given back,
 * buffers freed when their owner is gone).
 *
 * The owner's side runs inside the monitored program, possibly in a signal
 * handler: no allocation, no stdio, no locks, errno preserved.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "futex.h"
#include "region.h"
#include "tbuf.h"

/* Backstop of every sleep for room: a lost wake-up costs at most this. */
#define TBUF_SLEEP_MS 20
/* Microseconds an owner spins for room before sleeping (more than one
 * CPU). */
#define TBUF_SPIN_US 50

void tbuf_area_init(struct tbuf_area *a, const struct region *reg)
{
    const struct region_geom *g = &reg->geom;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    memset(a, 0, sizeof *a);
    a->hdr = reg->hdr;
    a->eventfd = reg->eventfd;
    a->overwrite = (g->flags & DAPTO_RF_OVERWRITE) != 0;
    a->spin = ncpu > 1 ? TBUF_SPIN_US : 0;
    if (g->tb_count == 0)
        return;
    a->count = g->tb_count;
    a->size = g->tb_size;
    a->mask = a->size - 1;
    a->sub = a->size / 4;
    a->max = a->size / 4 < DAPTO_RECORD_MAX ? (uint32_t)(a->size / 4)
                                            : DAPTO_RECORD_MAX;
    a->heads = (unsigned char *)reg->hdr + g->tb_off;
    a->data = a->heads + (region_tbuf_bytes(g) - (uint64_t)g->tb_count * g->tb_size);
}

int tbuf_claim(const struct tbuf_area *a, struct tbuf_prod *p, uint32_t tid)
{
    for (uint32_t k = 0; k < a->count; k++) {
        /* start where this thread's id points, so that threads spread */
        uint32_t i = (tid + k) % a->count;
        struct dapto_tbuf *b = tbuf_at(a, i);
        uint32_t zero = 0;

        if (__atomic_load_n(&b->owner, __ATOMIC_RELAXED) != 0 ||
            !__atomic_compare_exchange_n(&b->owner, &zero, tid, 0,
                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            continue;
        /* The last owner's head, and the tail the monitor left, are what
         * the monitor saw before it freed the buffer (release, and the
         * acquire above). */
        p->b = b;
        p->data = tbuf_data(a, i);
        p->head = __atomic_load_n(&b->head, __ATOMIC_RELAXED);
        p->limit = __atomic_load_n(&b->tail, __ATOMIC_ACQUIRE) + a->size;
        return 0;
    }
    return -1;
}

void tbuf_wake_sleeper(const struct tbuf_area *a)
{
    uint64_t one = 1;
    int saved = errno;
    ssize_t n;

    if (__atomic_exchange_n(&a->hdr->consumer_sleeping, 0, __ATOMIC_ACQ_REL)) {
        n = write(a->eventfd, &one, sizeof one);
        (void)n;
    }
    errno = saved;
}

/* The monitor's wake-up, whether it sleeps or not. */
static void wake_monitor(const struct tbuf_area *a)
{
    uint64_t one = 1;
    int saved = errno;
    ssize_t n;

    n = write(a->eventfd, &one, sizeof one);
    (void)n;
    errno = saved;
}

static int let_go(const struct tbuf_area *a)
{
    return __atomic_load_n(&a->hdr->let_go, __ATOMIC_ACQUIRE) != 0;
}

/* Whether NEED bytes from the head fit below tail T. */
static inline int fits(const struct tbuf_area *a, const struct tbuf_prod *p,
                       uint64_t need, uint64_t t)
{
    /* (a tail past the head is none the monitor could have stored: no
     * room there ever) */
    return t <= p->head && p->head + need - t <= a->size;
}

/* Room for NEED bytes at the head: 0 (P->limit updated), or -1 when there
 * is none (overwrite mode) or the monitor let the program go meanwhile
 * <protocol#letgo>. */
static int room(const struct tbuf_area *a, struct tbuf_prod *p, uint64_t need)
{
    struct dapto_tbuf *b = p->b;
    uint64_t t = __atomic_load_n(&b->tail, __ATOMIC_ACQUIRE), until;
    uint32_t v;
    unsigned int i;

    if (fits(a, p, need, t))
        goto done;
    if (a->overwrite)
        return -1;
    if (a->spin != 0) {
        until = now_us() + a->spin;
        cpu_say(&a->hdr->program_cpu);
        for (i = 0; !fits(a, p, need, t); i++) {
            if (i % 64 == 63) {
                if (now_us() > until)
                    break;
                /* the monitor may be waiting for this CPU */
                if (cpu_yield_pays(&a->hdr->monitor_cpu))
                    sched_yield();
            }
            cpu_relax();
            t = __atomic_load_n(&b->tail, __ATOMIC_ACQUIRE);
        }
    }
    if (!fits(a, p, need, t)) {
        __atomic_store_n(&b->waiting, 1, __ATOMIC_SEQ_CST);
        for (;;) {
            v = __atomic_load_n(&b->tail_wake, __ATOMIC_SEQ_CST);
            t = __atomic_load_n(&b->tail, __ATOMIC_SEQ_CST);
            if (fits(a, p, need, t))
                break;
            if (let_go(a)) {
                __atomic_store_n(&b->waiting, 0, __ATOMIC_RELAXED);
                return -1;
            }
            wake_monitor(a);
            futex_wait(&b->tail_wake, v, TBUF_SLEEP_MS);
            if (a->gone != NULL && a->gone())
                __atomic_store_n(&a->hdr->let_go, 1, __ATOMIC_SEQ_CST);
        }
        __atomic_store_n(&b->waiting, 0, __ATOMIC_RELAXED);
    }
done:
    p->limit = t + a->size;
    return 0;
}

/* Count a record the owner could not write. */
static void lose(struct tbuf_prod *p)
{
    dapto_own_add1(&p->b->lost);
}

int tbuf_put_slow(const struct tbuf_area *a, struct tbuf_prod *p,
                  const struct dapto_record *rec)
{
    uint64_t bytes = DAPTO_RECORD_HEADER + (uint64_t)rec->len;
    uint64_t size = (bytes + 7) & ~(uint64_t)7;
    uint64_t pos = p->head, off = pos & a->mask, pad = 0;
    unsigned char *dst;
    uint32_t c[2];
    static const unsigned char zero[8];

    if (size > a->max) {
        lose(p);
        return -1;
    }
    if (off + size > a->size)
        pad = a->size - off; /* the rest of the buffer, then from its start */
    if (room(a, p, pad + size) != 0) {
        lose(p);
        return -1;
    }
    if (pad != 0) {
        c[0] = DAPTO_TB_PAD | (uint32_t)pad;
        c[1] = (uint32_t)(pos >> 3);
        memcpy(p->data + off, c, 8);
        pos += pad;
        off = 0;
    }
    dst = p->data + off;
    memcpy(dst + 8, (const unsigned char *)rec + 8, (size_t)bytes - 8);
    memcpy(dst + bytes, zero, (size_t)(size - bytes));
    c[0] = (uint32_t)size;
    c[1] = (uint32_t)(pos >> 3);
    memcpy(dst, c, 8);
    tbuf_publish(a, p, p->head, pos + size);
    return 0;
}

void tbuf_cons_init(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c)
{
    struct dapto_tbuf *b = tbuf_at(a, i);

    c->ctail = c->ptail = __atomic_load_n(&b->tail, __ATOMIC_ACQUIRE);
    c->head = c->upto = c->ctail;
    c->lost_seen = __atomic_load_n(&b->lost, __ATOMIC_RELAXED);
}

const char *tbuf_look(const struct tbuf_area *a, uint32_t i,
                      struct tbuf_cons *c)
{
    uint64_t h = __atomic_load_n(&tbuf_at(a, i)->head, __ATOMIC_ACQUIRE);

    if (h < c->head || h - c->ctail > a->size)
        return "its head is not within one buffer of what noosa took";
    c->head = c->upto = h;
    return NULL;
}

void tbuf_skip(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c,
               uint64_t bytes)
{
    c->ctail += bytes;
    if (c->ctail - c->ptail >= a->size / 16)
        tbuf_release(a, i, c);
}

/* Zero the N bytes of buffer I at position POS, wrapping. */
static void zero_out(const struct tbuf_area *a, uint32_t i, uint64_t pos,
                     uint64_t n)
{
    uint64_t off = pos & a->mask;
    uint64_t first = n < a->size - off ? n : a->size - off;

    memset(tbuf_data(a, i) + off, 0, (size_t)first);
    if (n > first)
        memset(tbuf_data(a, i), 0, (size_t)(n - first));
}

void tbuf_release(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c)
{
    struct dapto_tbuf *b = tbuf_at(a, i);

    if (c->ptail == c->ctail)
        return;
    /* <protocol#tbuf>: what goes back to the owner is zeroed, the lines
     * then the monitor's alone: an owner writes into them again at a
     * fraction of the cost of lines both ends hold (bench/README) */
    zero_out(a, i, c->ptail, c->ctail - c->ptail);
    __atomic_store_n(&b->tail, c->ctail, __ATOMIC_RELEASE);
    c->ptail = c->ctail;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->waiting, __ATOMIC_RELAXED) != 0) {
        __atomic_fetch_add(&b->tail_wake, 1, __ATOMIC_RELEASE);
        futex_wake(&b->tail_wake, INT_MAX);
    }
}

int tbuf_ready(const struct tbuf_area *a, uint32_t i, const struct tbuf_cons *c)
{
    struct dapto_tbuf *b = tbuf_at(a, i);

    return __atomic_load_n(&b->head, __ATOMIC_RELAXED) != c->ctail ||
           __atomic_load_n(&b->lost, __ATOMIC_RELAXED) != c->lost_seen;
}

uint64_t tbuf_lost_new(const struct tbuf_area *a, uint32_t i,
                       struct tbuf_cons *c)
{
    uint64_t l = __atomic_load_n(&tbuf_at(a, i)->lost, __ATOMIC_RELAXED);
    uint64_t n = l - c->lost_seen;

    c->lost_seen = l;
    return n;
}

int tbuf_free(const struct tbuf_area *a, uint32_t i, struct tbuf_cons *c)
{
    struct dapto_tbuf *b = tbuf_at(a, i);

    if (__atomic_load_n(&b->head, __ATOMIC_ACQUIRE) != c->ctail ||
        __atomic_load_n(&b->lost, __ATOMIC_RELAXED) != c->lost_seen)
        return 0;
    tbuf_release(a, i, c);
    __atomic_store_n(&b->waiting, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->owner, 0, __ATOMIC_RELEASE);
    return 1;
}
