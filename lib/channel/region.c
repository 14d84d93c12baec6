/* SPDX-License-Identifier: MIT */
/*
 * region.c - geometry, creation and mapping of the shared region
 * <protocol#activate>.  Creation is the monitor's job; mapping and checking
 * are what the runtime does at attach.  No allocation, no stdio.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "futex.h"
#include "mailbox.h"
#include "region.h"

#define PAGE 4096u

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static int is_pow2(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

void region_geom_default(struct region_geom *g)
{
    memset(g, 0, sizeof *g);
    g->ring_size = REGION_DEFAULT_RING;
    g->iface_size = REGION_DEFAULT_IFACE;
    g->trail_slots = REGION_DEFAULT_TRAIL;
    g->mbox_count = REGION_DEFAULT_MBOX;
    g->filt_size = REGION_DEFAULT_FILTER;
    g->cnt_slots = REGION_DEFAULT_CNT;
    g->q_size = REGION_DEFAULT_QUESTION;
    g->rel_size = REGION_DEFAULT_RELATE;
    g->tt_count = REGION_DEFAULT_TTRAILS;
    g->tt_slots = REGION_DEFAULT_TTRAIL_SLOTS;
}

/* Bytes of the counter area of G. */
static uint64_t cnt_bytes(const struct region_geom *g)
{
    return (uint64_t)g->cnt_slots * DAPTO_CNT_PER_SLOT * sizeof(uint64_t);
}

uint64_t region_tbuf_bytes(const struct region_geom *g)
{
    if (g->tb_count == 0)
        return 0;
    return align_up((uint64_t)g->tb_count * sizeof(struct dapto_tbuf), PAGE) +
           (uint64_t)g->tb_count * g->tb_size;
}

uint64_t region_ttrail_bytes(const struct region_geom *g)
{
    return (uint64_t)g->tt_count * region_ttrail_size(g);
}

/* Check the sizes alone; NULL when they are in range. */
static const char *geom_sizes(const struct region_geom *g)
{
    if (!is_pow2(g->ring_size) || g->ring_size < REGION_RING_MIN ||
        g->ring_size > REGION_RING_MAX)
        return "ring size is not a power of two from 4096 to 2^30";
    if (g->iface_size < 64 || g->iface_size > REGION_IFACE_MAX ||
        g->iface_size % 8 != 0)
        return "interface area size is not a multiple of 8 from 64 to 2^26";
    if (!is_pow2(g->trail_slots) || g->trail_slots > REGION_TRAIL_MAX)
        return "trail slots are not a power of two up to 2^20";
    if (g->mbox_count < 1 || g->mbox_count > REGION_MBOX_MAX)
        return "mailbox count is not from 1 to 256";
    if (g->filt_size != 0 &&
        (g->filt_size < REGION_FILTER_MIN || g->filt_size > REGION_FILTER_MAX ||
         g->filt_size % 8 != 0))
        return "filter area size is not 0 or a multiple of 8 from 256 to 2^24";
    if (g->cnt_slots > REGION_CNT_MAX)
        return "counter slots are more than 4096";
    if (g->rel_size != 0 &&
        (g->rel_size < REGION_RELATE_MIN || g->rel_size > REGION_RELATE_MAX ||
         g->rel_size % 64 != 0))
        return "relations area size is not 0 or a multiple of 64 from 98304 to 2^30";
    if (g->q_size != 0 &&
        (g->q_size < REGION_QUESTION_MIN || g->q_size > REGION_QUESTION_MAX ||
         g->q_size % 64 != 0))
        return "question area size is not 0 or a multiple of 64 from 4096 to 2^30";
    if (g->tb_count > REGION_TBUF_COUNT_MAX)
        return "thread buffers are more than 1024";
    if (g->tb_count != 0 &&
        (!is_pow2(g->tb_size) || g->tb_size < REGION_TBUF_MIN ||
         g->tb_size > REGION_TBUF_MAX))
        return "thread buffer size is not a power of two from 4096 to 2^26";
    if (g->tt_count > REGION_TTRAIL_COUNT_MAX)
        return "threads' trails are more than 4096";
    if (g->tt_count != 0 &&
        (!is_pow2(g->tt_slots) || g->tt_slots < REGION_TTRAIL_SLOTS_MIN ||
         g->tt_slots > REGION_TTRAIL_SLOTS_MAX))
        return "a thread's trail's slots are not a power of two from 4 to 4096";
    return NULL;
}

int region_geom_layout(struct region_geom *g, const char **cause)
{
    uint64_t off;
    const char *why = geom_sizes(g);

    if (why != NULL) {
        *cause = why;
        errno = EINVAL;
        return -1;
    }
    off = align_up(sizeof(struct dapto_region), PAGE);
    g->ring_off = (uint32_t)off;
    off += g->ring_size;
    g->iface_off = (uint32_t)off;
    off = align_up(off + g->iface_size, 64);
    g->trail_off = (uint32_t)off;
    off = align_up(off + (uint64_t)g->trail_slots * DAPTO_TRAIL_SLOT, 64);
    g->mbox_off = (uint32_t)off;
    off = align_up(off + (uint64_t)g->mbox_count * sizeof(struct dapto_mailbox),
                   64);
    g->filt_off = g->filt_size != 0 ? (uint32_t)off : 0;
    off = align_up(off + g->filt_size, 64);
    g->cnt_off = g->cnt_slots != 0 ? (uint32_t)off : 0;
    off = align_up(off + cnt_bytes(g), PAGE);
    g->q_off = g->q_size != 0 ? (uint32_t)off : 0;
    off = align_up(off + g->q_size, PAGE);
    g->tb_off = g->tb_count != 0 ? (uint32_t)off : 0;
    off = align_up(off + region_tbuf_bytes(g), PAGE);
    g->rel_off = g->rel_size != 0 ? (uint32_t)off : 0;
    off = align_up(off + g->rel_size, PAGE);
    g->tt_off = g->tt_count != 0 ? (uint32_t)off : 0;
    off = align_up(off + region_ttrail_bytes(g), PAGE);
    if (off > UINT32_MAX) {
        *cause = "region would be larger than 4 GiB";
        errno = EINVAL;
        return -1;
    }
    g->size = (uint32_t)off;
    return 0;
}

void region_geom_read(struct region_geom *g, const struct dapto_region *h)
{
    /* One plain read of each field: the copy is what gets checked. */
    g->size = __atomic_load_n(&h->size, __ATOMIC_RELAXED);
    g->flags = __atomic_load_n(&h->flags, __ATOMIC_RELAXED);
    g->ring_off = __atomic_load_n(&h->ring_off, __ATOMIC_RELAXED);
    g->ring_size = __atomic_load_n(&h->ring_size, __ATOMIC_RELAXED);
    g->iface_off = __atomic_load_n(&h->iface_off, __ATOMIC_RELAXED);
    g->iface_size = __atomic_load_n(&h->iface_size, __ATOMIC_RELAXED);
    g->trail_off = __atomic_load_n(&h->trail_off, __ATOMIC_RELAXED);
    g->trail_slots = __atomic_load_n(&h->trail_slots, __ATOMIC_RELAXED);
    g->mbox_off = __atomic_load_n(&h->mbox_off, __ATOMIC_RELAXED);
    g->mbox_count = __atomic_load_n(&h->mbox_count, __ATOMIC_RELAXED);
    g->filt_off = __atomic_load_n(&h->filt_off, __ATOMIC_RELAXED);
    g->filt_size = __atomic_load_n(&h->filt_size, __ATOMIC_RELAXED);
    g->cnt_off = __atomic_load_n(&h->cnt_off, __ATOMIC_RELAXED);
    g->cnt_slots = __atomic_load_n(&h->cnt_slots, __ATOMIC_RELAXED);
    g->q_off = __atomic_load_n(&h->q_off, __ATOMIC_RELAXED);
    g->q_size = __atomic_load_n(&h->q_size, __ATOMIC_RELAXED);
    g->tb_off = __atomic_load_n(&h->tb_off, __ATOMIC_RELAXED);
    g->tb_count = __atomic_load_n(&h->tb_count, __ATOMIC_RELAXED);
    g->tb_size = __atomic_load_n(&h->tb_size, __ATOMIC_RELAXED);
    g->rel_off = __atomic_load_n(&h->rel_off, __ATOMIC_RELAXED);
    g->rel_size = __atomic_load_n(&h->rel_size, __ATOMIC_RELAXED);
    g->tt_off = __atomic_load_n(&h->tt_off, __ATOMIC_RELAXED);
    g->tt_count = __atomic_load_n(&h->tt_count, __ATOMIC_RELAXED);
    g->tt_slots = __atomic_load_n(&h->tt_slots, __ATOMIC_RELAXED);
}

const char *region_geom_check(const struct region_geom *g, uint64_t mapped)
{
    uint64_t lo[10], hi[10];
    const char *why;
    int i, j, n = 4;

    if (g->size < sizeof(struct dapto_region) || g->size > mapped)
        return "region size does not match the mapping";
    if ((why = geom_sizes(g)) != NULL)
        return why;
    if (g->ring_off % 8 != 0 || g->iface_off % 8 != 0 ||
        g->trail_off % 8 != 0 || g->mbox_off % 8 != 0 ||
        g->filt_off % 8 != 0 || g->cnt_off % 8 != 0 || g->q_off % 64 != 0 ||
        (g->tb_count != 0 && g->tb_off % PAGE != 0) || g->rel_off % 64 != 0 ||
        (g->tt_count != 0 && g->tt_off % 64 != 0))
        return "an area is not 8-byte aligned";
    lo[0] = g->ring_off;
    hi[0] = lo[0] + g->ring_size;
    lo[1] = g->iface_off;
    hi[1] = lo[1] + g->iface_size;
    lo[2] = g->trail_off;
    hi[2] = lo[2] + (uint64_t)g->trail_slots * DAPTO_TRAIL_SLOT;
    lo[3] = g->mbox_off;
    hi[3] = lo[3] + (uint64_t)g->mbox_count * sizeof(struct dapto_mailbox);
    /* empty areas take no place, wherever their offset says */
    if (g->filt_size != 0) {
        lo[n] = g->filt_off;
        hi[n++] = (uint64_t)g->filt_off + g->filt_size;
    }
    if (g->cnt_slots != 0) {
        lo[n] = g->cnt_off;
        hi[n++] = g->cnt_off + cnt_bytes(g);
    }
    if (g->q_size != 0) {
        lo[n] = g->q_off;
        hi[n++] = (uint64_t)g->q_off + g->q_size;
    }
    if (g->tb_count != 0) {
        lo[n] = g->tb_off;
        hi[n++] = (uint64_t)g->tb_off + region_tbuf_bytes(g);
    }
    if (g->rel_size != 0) {
        lo[n] = g->rel_off;
        hi[n++] = (uint64_t)g->rel_off + g->rel_size;
    }
    if (g->tt_count != 0) {
        lo[n] = g->tt_off;
        hi[n++] = (uint64_t)g->tt_off + region_ttrail_bytes(g);
    }
    for (i = 0; i < n; i++) {
        if (lo[i] < sizeof(struct dapto_region) || hi[i] > g->size)
            return "an area lies outside the region";
        for (j = 0; j < i; j++)
            if (lo[i] < hi[j] && lo[j] < hi[i])
                return "two areas overlap";
    }
    return NULL;
}

int region_create(struct region *r, const struct region_geom *g,
                  const char **cause)
{
    int memfd, efd, saved;

    r->hdr = NULL;
    r->mapped = 0;
    r->memfd = r->eventfd = -1;
    memfd = memfd_create("dapto-channel", MFD_CLOEXEC);
    if (memfd < 0) {
        *cause = "memfd_create";
        return -1;
    }
    efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (efd < 0) {
        saved = errno;
        close(memfd);
        errno = saved;
        *cause = "eventfd";
        return -1;
    }
    if (region_adopt(r, g, memfd, efd, cause) != 0) {
        saved = errno;
        close(memfd);
        close(efd);
        errno = saved;
        return -1;
    }
    return 0;
}

int region_adopt(struct region *r, const struct region_geom *g, int memfd,
                 int eventfd, const char **cause)
{
    struct region_geom geom = *g;
    struct dapto_region *h;
    void *map;

    r->hdr = NULL;
    r->mapped = 0;
    r->memfd = r->eventfd = -1;
    if (geom.size == 0 && region_geom_layout(&geom, cause) != 0)
        return -1;
    if ((*cause = region_geom_check(&geom, geom.size)) != NULL) {
        errno = EINVAL;
        return -1;
    }
    if (ftruncate(memfd, geom.size) != 0) {
        *cause = "ftruncate of the region";
        return -1;
    }
    map = mmap(NULL, geom.size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd,
               0);
    if (map == MAP_FAILED) {
        *cause = "mmap of the region";
        return -1;
    }

    /* A fresh memfd reads as zeros: only identity and geometry to fill. */
    h = map;
    h->id.magic = DAPTO_REGION_MAGIC;
    h->id.major = DAPTO_PROTO_MAJOR;
    h->id.median = DAPTO_PROTO_MEDIAN;
    h->id.minor = DAPTO_PROTO_MINOR;
    h->size = geom.size;
    h->flags = geom.flags;
    h->ring_off = geom.ring_off;
    h->ring_size = geom.ring_size;
    h->iface_off = geom.iface_off;
    h->iface_size = geom.iface_size;
    h->trail_off = geom.trail_off;
    h->trail_slots = geom.trail_slots;
    h->mbox_off = geom.mbox_off;
    h->mbox_count = geom.mbox_count;
    h->filt_off = geom.filt_off;
    h->filt_size = geom.filt_size;
    h->cnt_off = geom.cnt_off;
    h->cnt_slots = geom.cnt_slots;
    h->q_off = geom.q_off;
    h->q_size = geom.q_size;
    h->tb_off = geom.tb_off;
    h->tb_count = geom.tb_count;
    h->tb_size = geom.tb_size;
    h->rel_off = geom.rel_off;
    h->rel_size = geom.rel_size;
    h->tt_off = geom.tt_off;
    h->tt_count = geom.tt_count;
    h->tt_slots = geom.tt_slots;
    r->hdr = h;
    r->mapped = geom.size;
    r->geom = geom;
    r->memfd = memfd;
    r->eventfd = eventfd;
    return 0;
}

int region_map(struct region *r, int memfd, int eventfd, const char **cause)
{
    struct stat st;
    void *map;

    r->hdr = NULL;
    r->mapped = 0;
    r->memfd = memfd;
    r->eventfd = eventfd;
    memset(&r->geom, 0, sizeof r->geom);
    if (fstat(memfd, &st) != 0) {
        *cause = "the region descriptor is not open";
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct dapto_region_id) ||
        (uint64_t)st.st_size > UINT32_MAX) {
        *cause = "the region descriptor is not a region";
        errno = EINVAL;
        return -1;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
               memfd, 0);
    if (map == MAP_FAILED) {
        *cause = "mmap of the region";
        return -1;
    }
    if (__atomic_load_n(&((struct dapto_region_id *)map)->magic,
                        __ATOMIC_ACQUIRE) != DAPTO_REGION_MAGIC) {
        munmap(map, (size_t)st.st_size);
        *cause = "the region has a wrong magic number";
        errno = EINVAL;
        return -1;
    }
    r->hdr = map;
    r->mapped = (size_t)st.st_size;
    return 0;
}

void region_unmap(struct region *r)
{
    if (r->hdr != NULL)
        munmap(r->hdr, r->mapped);
    r->hdr = NULL;
    r->mapped = 0;
}

void region_close(struct region *r)
{
    region_unmap(r);
    if (r->memfd >= 0)
        close(r->memfd);
    if (r->eventfd >= 0)
        close(r->eventfd);
    r->memfd = r->eventfd = -1;
}

static int clear_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFD);

    if (fl < 0)
        return -1;
    return fcntl(fd, F_SETFD, fl & ~FD_CLOEXEC);
}

int region_inherit(const struct region *r)
{
    if (clear_cloexec(r->memfd) != 0 || clear_cloexec(r->eventfd) != 0)
        return -1;
    return 0;
}

/* Append the decimal form of V at *P, at most up to END; 0 or -1. */
static int put_dec(char **p, char *end, int v)
{
    char tmp[12];
    int n = 0;
    unsigned int u = (unsigned int)v;

    if (v < 0)
        return -1;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (end - *p < n)
        return -1;
    while (n > 0)
        *(*p)++ = tmp[--n];
    return 0;
}

int region_env(const struct region *r, char *buf, size_t size)
{
    static const char name[] = DAPTO_CHANNEL_ENV "=";
    char *p = buf, *end = buf + size;

    if (size < sizeof name)
        return -1;
    memcpy(p, name, sizeof name - 1);
    p += sizeof name - 1;
    if (put_dec(&p, end, r->memfd) != 0 || p == end)
        return -1;
    *p++ = ':';
    if (put_dec(&p, end, r->eventfd) != 0 || p == end)
        return -1;
    *p = '\0';
    return 0;
}

int region_runtime_id(const struct region *r, struct dapto_region_id *id)
{
    if (__atomic_load_n(&r->hdr->id.rt_magic, __ATOMIC_ACQUIRE) !=
        DAPTO_RUNTIME_MAGIC)
        return 0;
    memcpy(id, &r->hdr->id, sizeof *id);
    return 1;
}

void region_ack(struct region *r, uint32_t n)
{
    __atomic_store_n(&r->hdr->aspects_acked, n, __ATOMIC_RELEASE);
    futex_wake(&r->hdr->aspects_acked, INT_MAX);
}

/* Wake the owner of every thread buffer that may wait for room. */
static void tbufs_wake(struct region *r)
{
    unsigned char *base = (unsigned char *)r->hdr + r->geom.tb_off;

    for (uint32_t i = 0; i < r->geom.tb_count; i++) {
        struct dapto_tbuf *b = (struct dapto_tbuf *)(void *)(base + (size_t)i * sizeof *b);

        __atomic_fetch_add(&b->tail_wake, 1, __ATOMIC_RELEASE);
        futex_wake(&b->tail_wake, INT_MAX);
    }
}

void region_wake_all(struct region *r)
{
    struct dapto_region *h = r->hdr;

    __atomic_fetch_add(&h->tail_wake, 1, __ATOMIC_RELEASE);
    futex_wake(&h->tail_wake, INT_MAX);
    futex_wake(&h->aspects_acked, INT_MAX);
    for (uint32_t i = 0; i < r->geom.mbox_count; i++)
        futex_wake(&region_mailbox(r, i)->state, INT_MAX);
    tbufs_wake(r);
}

void region_let_go(struct region *r)
{
    struct dapto_region *h = r->hdr;
    uint32_t i;

    __atomic_store_n(&h->let_go, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&h->tail_wake, 1, __ATOMIC_RELEASE);
    futex_wake(&h->tail_wake, INT_MAX);
    futex_wake(&h->aspects_acked, INT_MAX);
    for (i = 0; i < r->geom.mbox_count; i++) {
        struct dapto_mailbox *mb = region_mailbox(r, i);

        if (mailbox_resume(mb) != 0)
            futex_wake(&mb->state, INT_MAX);
    }
    tbufs_wake(r);
}

struct dapto_mailbox *region_mailbox(const struct region *r, uint32_t i)
{
    if (i >= r->geom.mbox_count)
        return NULL;
    return (struct dapto_mailbox *)((unsigned char *)r->hdr + r->geom.mbox_off +
                                    (size_t)i * sizeof(struct dapto_mailbox));
}

const unsigned char *region_iface(const struct region *r, uint32_t off,
                                  uint32_t len)
{
    if (off > r->geom.iface_size || len > r->geom.iface_size - off)
        return NULL;
    return (const unsigned char *)r->hdr + r->geom.iface_off + off;
}
