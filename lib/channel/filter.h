/* SPDX-License-Identifier: MIT */
/*
 * filter.h - the monitor's side of filters and counters <protocol#filter>
 * <protocol#counters>: laying out the filter area, putting and removing
 * an event's filter with the area's space policy, checking a filter
 * completely before it is written, and reading counters.  The runtime's
 * side (evaluating filters) is lib/runtime/rtfilter.c.
 *
 * It does not compile conditions: a filter arrives here as a complete
 * blob (struct dapto_filter, its clauses and their programs).  Like the
 * rest of the channel library it allocates nothing: the caller gives the
 * memory for its own record of what it wrote.
 */
#ifndef NOOSA_FILTER_H
#define NOOSA_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"
#include "region.h"

/* What the monitor wrote for one event code (its own copy: the program
 * may scribble on the area's directory). */
struct filter_entry {
    uint32_t off;  /* offset of the event's filter in the area, 0: none */
    uint32_t size; /* its bytes */
};

/* The filter area of a region, as the monitor fills it. */
struct filter_space {
    unsigned char *area;          /* the area in the monitor's mapping */
    uint32_t size;                /* its bytes */
    uint32_t ncodes;              /* directory entries */
    uint32_t base;                /* first byte after the directory */
    uint32_t half;                /* bytes in each half of the space after it */
    uint32_t cur;                 /* the half being filled, 0 or 1 */
    uint32_t used;                /* bytes used in it */
    struct filter_entry *entries; /* the caller's, NCODES of them */
};

/* Lay out the filter area of region R for event codes 0..NCODES-1 (its
 * directory, all empty) and start filling it; ENTRIES (the caller's
 * memory, NCODES entries, kept for the life of FS) records what is
 * written.  Call once, before the program can read the area.  Returns 0,
 * or -1 with *cause when R has no filter area or the directory leaves no
 * room for filters. */
int filter_space_init(struct filter_space *fs, const struct region *r,
                      uint32_t ncodes, struct filter_entry *entries,
                      const char **cause);

/* Make FILTER (LEN bytes, checked by filter_check()) the filter of event
 * CODE: copy it into free space, then store its offset into the directory
 * with release ordering, so that the program sees the whole filter, old
 * or new <protocol#filter>.  When the current half is full, every filter
 * in effect is first copied to the start of the other half.  Returns 0,
 * or -1 with *cause (CODE out of range, LEN not the filter's size, the
 * area full). */
int filter_put(struct filter_space *fs, uint32_t code, const void *filter,
               size_t len, const char **cause);

/* Event CODE has no filter any more (directory entry 0). */
void filter_remove(struct filter_space *fs, uint32_t code);

/* Check FILTER (LEN bytes) completely against an event whose NPARAMS
 * parameters have the kinds KINDS (enum dapto_kind; DAPTO_K_USER travels
 * as a pointer): sizes, the clause table, each program's bounds, opcodes,
 * operands, forward jumps to instructions, types, stack depth, one integer
 * at every END, parameter indexes and kinds, counter ids and hit
 * counting.  Returns 0, or -1 with a message in MSG (SIZE bytes) naming
 * the clause and the byte of its program. */
int filter_check(const void *filter, size_t len, const unsigned char *kinds,
                 unsigned int nparams, char *msg, size_t size);

/* The value of counter ID of region R: the sum over its slots, slot 0
 * included <protocol#counters>; 0 when R has no counters or ID is out of
 * range. */
uint64_t filter_counter(const struct region *r, uint32_t id);

#endif /* NOOSA_FILTER_H */
