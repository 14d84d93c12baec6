/* SPDX-License-Identifier: MIT */
/*
 * region.h - the shared region of the channel <protocol#activate>: its
 * geometry, creating it (monitor side), mapping an existing one (runtime
 * side), and the few header words both ends touch outside the ring
 * (version block, aspect acknowledgement).
 *
 * This module, ring.h, trail.h, mailbox.h and the value codec of dapto.h
 * form the channel library lib/libchannel.la: noosa links it as it is,
 * libdapto links it with everything hidden.  None of it allocates memory
 * or uses stdio; errors are returned as -1 with errno and a static
 * description of the failed step in *cause.
 *
 * Never trust the header after the other end has started: the target can
 * write anywhere in the region.  Read the geometry once into a struct
 * region_geom, check it, and use only that copy.
 */
#ifndef NOOSA_REGION_H
#define NOOSA_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

/* Geometry of a region: a private, checked copy of the header's. */
struct region_geom {
    uint32_t size;        /* bytes in the whole region */
    uint32_t flags;       /* DAPTO_RF_* */
    uint32_t ring_off;    /* event ring */
    uint32_t ring_size;   /* a power of two, at least REGION_RING_MIN */
    uint32_t iface_off;   /* interface descriptions */
    uint32_t iface_size;
    uint32_t trail_off;   /* post-mortem trail */
    uint32_t trail_slots; /* a power of two */
    uint32_t mbox_off;    /* stop mailboxes */
    uint32_t mbox_count;  /* at least 1 */
    uint32_t filt_off;    /* filter area <protocol#filter>; 0 with filt_size 0 */
    uint32_t filt_size;   /* 0: no filters (a monitor of minor < 2) */
    uint32_t cnt_off;     /* counter slots <protocol#counters> */
    uint32_t cnt_slots;   /* of DAPTO_CNT_PER_SLOT counters; 0: none */
    uint32_t q_off;       /* question area <protocol#question>; 0 with q_size 0 */
    uint32_t q_size;      /* 0: no questions (a monitor of minor < 3) */
    uint32_t tb_off;      /* thread buffers <protocol#tbuf>; 0 with tb_count 0 */
    uint32_t tb_count;    /* 0: none (the monitor did not offer them, or
                             speaks a minor below 4) */
    uint32_t tb_size;     /* bytes of one buffer, a power of two */
    uint32_t rel_off;     /* relations area <protocol#relate>; 0 with rel_size 0 */
    uint32_t rel_size;    /* 0: none (a monitor of minor < 5) */
    uint32_t tt_off;      /* threads' trails <protocol#ttrail>; 0 with tt_count 0 */
    uint32_t tt_count;    /* 0: none (a monitor of minor below 6) */
    uint32_t tt_slots;    /* slots of one trail, a power of two */
};

#define REGION_RING_MIN 4096u
#define REGION_RING_MAX (1u << 30)
#define REGION_IFACE_MAX (1u << 26)
#define REGION_TRAIL_MAX (1u << 20) /* slots */
#define REGION_MBOX_MAX 256u
#define REGION_FILTER_MIN 256u      /* bytes, when there is a filter area */
#define REGION_FILTER_MAX (1u << 24)
#define REGION_CNT_MAX 4096u        /* counter slots */
#define REGION_QUESTION_MIN 4096u   /* bytes, when there is a question area */
#define REGION_QUESTION_MAX (1u << 30)
#define REGION_TBUF_MIN 4096u       /* bytes of a thread buffer */
#define REGION_TBUF_MAX (1u << 26)
#define REGION_TBUF_COUNT_MAX 1024u
#define REGION_TTRAIL_COUNT_MAX 4096u /* threads' trails */
#define REGION_TTRAIL_SLOTS_MIN 4u    /* slots of one */
#define REGION_TTRAIL_SLOTS_MAX 4096u
#define REGION_RELATE_MIN (32768u + 65536u) /* bytes, when there is a
                                               relations area: one slot */
#define REGION_RELATE_MAX (1u << 30)

/* Defaults of region_geom_default(). */
#define REGION_DEFAULT_RING (1u << 20)
#define REGION_DEFAULT_IFACE (256u << 10)
#define REGION_DEFAULT_TRAIL 1024u
#define REGION_DEFAULT_MBOX 8u
#define REGION_DEFAULT_FILTER (64u << 10)
#define REGION_DEFAULT_CNT 32u
/* 64 threads' tables of 2 MiB, after a page of definitions; pages the
 * program never touches cost nothing. */
#define REGION_DEFAULT_QUESTION (4096u + (128u << 20))
/* 64 threads' component stacks of 64 KiB, after the definitions. */
#define REGION_DEFAULT_RELATE (32768u + (64u << 16))
/* 64 threads' trails of 16 slots (2 KiB each) */
#define REGION_DEFAULT_TTRAILS 64u
#define REGION_DEFAULT_TTRAIL_SLOTS 16u

/* A mapped region and its two descriptors. */
struct region {
    struct dapto_region *hdr; /* the mapping; NULL when closed */
    size_t mapped;            /* bytes mapped */
    int memfd;
    int eventfd;
    struct region_geom geom;  /* checked copy; valid after create or check */
};

/* Fill G with the default sizes (ring, interface area, trail, mailboxes,
 * filter area, counter slots, question area, relations area, threads'
 * trails; no thread buffers) and flags 0; offsets and size are left 0 for
 * region_geom_layout(). */
void region_geom_default(struct region_geom *g);

/* Lay out a region for the sizes in G (ring_size, iface_size, trail_slots,
 * mbox_count, filt_size, cnt_slots, q_size, tb_count, tb_size, rel_size,
 * tt_count, tt_slots; flags kept): set the offsets and the total size.  A
 * filter, counter, question, thread buffer, relations or threads' trail
 * area of size 0 gets offset 0.  Returns 0,
 * or -1 with *cause (EINVAL) when a size is out of range. */
int region_geom_layout(struct region_geom *g, const char **cause);

/* Copy the geometry from header H into G.  Check G afterwards. */
void region_geom_read(struct region_geom *g, const struct dapto_region *h);

/* Check geometry G against a mapping of MAPPED bytes: every area inside
 * the region after the header, 8-aligned and disjoint from the others,
 * sizes within limits.  Empty filter and counter areas (an older
 * monitor's) are sound and take no place.  Returns NULL when sound, else what is wrong. */
const char *region_geom_check(const struct region_geom *g, uint64_t mapped);

/* Monitor side: create a region with geometry G (laid out by this call
 * when G->size is 0): a memfd of the right size, mapped shared, its header
 * initialised (identity with this protocol version, geometry, zero
 * counters), and a non-blocking eventfd.  Both descriptors are
 * close-on-exec; see region_inherit().  Returns 0, or -1 with errno and
 * *cause, leaving R closed. */
int region_create(struct region *r, const struct region_geom *g,
                  const char **cause);

/* Monitor side: the same on descriptors made elsewhere (by the runtime
 * of a program attached to while it runs <protocol#attach>): MEMFD, empty,
 * is sized to the region, mapped and initialised.  R owns both
 * descriptors on success; on failure (-1 with errno and *cause) they
 * stay the caller's. */
int region_adopt(struct region *r, const struct region_geom *g, int memfd,
                 int eventfd, const char **cause);

/* Map the region behind MEMFD (eventfd EVENTFD is only recorded), as the
 * runtime does at attach: the descriptor must be a file of at least the
 * size of the identity block and whose first word is DAPTO_REGION_MAGIC.
 * The geometry is NOT checked: after comparing versions, copy it with
 * region_geom_read() into R->geom and check it with region_geom_check().
 * Returns 0, or -1 with errno and *cause.  R owns neither descriptor. */
int region_map(struct region *r, int memfd, int eventfd, const char **cause);

/* Unmap R and close both descriptors (those < 0 are skipped). */
void region_close(struct region *r);

/* Unmap R, leaving its descriptors open. */
void region_unmap(struct region *r);

/* In the child between fork() and exec(): clear close-on-exec on both
 * descriptors so that the program inherits them.  Async-signal-safe.
 * Returns 0 or -1 with errno. */
int region_inherit(const struct region *r);

/* Write "DAPTO_CHANNEL=MEMFD:EVENTFD" into BUF (SIZE bytes, 40 suffice)
 * for the program's environment.  Async-signal-safe.  Returns 0, or -1
 * when BUF is too small. */
int region_env(const struct region *r, char *buf, size_t size);

/* Whether the runtime has written its identity: returns 1 and copies the
 * identity block into ID once rt_magic is DAPTO_RUNTIME_MAGIC, else 0.
 * The monitor compares rt_major/rt_median with its own <protocol#version>. */
int region_runtime_id(const struct region *r, struct dapto_region_id *id);

/* Monitor side: acknowledge aspects 1..N <protocol#ack>: store N into
 * aspects_acked (after the states of the new events are written) and wake
 * the waiting thread. */
void region_ack(struct region *r, uint32_t n);

/* Monitor side: let the program go <protocol#letgo>: set let_go and wake
 * every futex the runtime may wait on; threads stopped at events are
 * resumed, and none waits for the monitor again.  (The caller turns the
 * events off first.) */
void region_let_go(struct region *r);
/* Monitor side: wake every futex the program may wait on, changing
 * nothing (again, after region_let_go(): a thread that waits on still
 * finds it let go). */
void region_wake_all(struct region *r);

/* Bytes of the thread buffer area of G: the headers, page-aligned, then
 * the buffers <protocol#tbuf>. */
uint64_t region_tbuf_bytes(const struct region_geom *g);

/* Bytes of the threads' trail area of G <protocol#ttrail>. */
uint64_t region_ttrail_bytes(const struct region_geom *g);

/* Bytes of one thread's trail of G: its header and its slots. */
static inline uint64_t region_ttrail_size(const struct region_geom *g)
{
    return sizeof(struct dapto_ttrail) + (uint64_t)g->tt_slots * DAPTO_TT_SLOT;
}

/* Mailbox I of R, or NULL when I is out of range (I comes from a record:
 * check it here). */
struct dapto_mailbox *region_mailbox(const struct region *r, uint32_t i);

/* The interface area bytes [OFF, OFF+LEN), or NULL when that range is not
 * inside the area (OFF and LEN come from a record). */
const unsigned char *region_iface(const struct region *r, uint32_t off,
                                  uint32_t len);

#endif /* NOOSA_REGION_H */
