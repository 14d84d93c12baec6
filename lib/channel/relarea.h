/* SPDX-License-Identifier: MIT */
/*
 * relarea.h - the monitor's side of relations <protocol#relate>: laying
 * out the relations area, listing components (names and their functions'
 * addresses), writing and withdrawing derived events' definitions, asking
 * for the stacks anew (an epoch), and reading what the threads' slots
 * say of themselves.  The runtime's side (the stacks, the derived events)
 * is lib/runtime/rtrelate.c.
 *
 * Everything the monitor needs to find something in the area comes from
 * its own copy of what it wrote, never from the area, which the program
 * may have scribbled on.  Like the rest of the channel library it
 * allocates nothing.
 */
#ifndef NOOSA_RELAREA_H
#define NOOSA_RELAREA_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"
#include "region.h"

/* Bytes of the header page (header, components, addresses, definitions)
 * and of one thread's slot. */
#define RELAREA_HEAD 32768u
#define RELAREA_SLOT 65536u

struct relarea {
    unsigned char *area; /* NULL: the region has none */
    uint32_t size;
    uint32_t nthreads;
    uint32_t slot_size;
    uint32_t gen;        /* the last gen written (even) */
    uint32_t epoch;      /* the last epoch written */
    unsigned int ncomps; /* components listed (never fewer in a run) */
    char names[DAPTO_REL_COMPS][DAPTO_REL_NAME];
    unsigned int nfns;   /* addresses listed */
    struct dapto_rel_fn fns[DAPTO_REL_FNS];
    struct dapto_rel_def defs[DAPTO_REL_DERIVED]; /* kind 0: none */
};

_Static_assert(sizeof(struct dapto_rel_area) +
                   DAPTO_REL_COMPS * sizeof(struct dapto_rel_comp) +
                   DAPTO_REL_FNS * sizeof(struct dapto_rel_fn) +
                   DAPTO_REL_DERIVED * sizeof(struct dapto_rel_def) <=
               RELAREA_HEAD,
               "the relations area's header page holds its tables");
_Static_assert(sizeof(struct dapto_rel_thread) <= RELAREA_SLOT,
               "a thread's slot holds its stack");

/* Lay out the relations area of region R (header, empty tables, slots).
 * Call once, before the program can read it.  Returns 0, or -1 with
 * *cause when R has none or it is too small. */
int relarea_init(struct relarea *ra, const struct region *r, const char **cause);

/* Component NAME's index: the one it has, else a new one.  -1 with
 * *cause when NAME is empty or too long, or every component is taken. */
int relarea_comp(struct relarea *ra, const char *name, const char **cause);
/* Component NAME's index, or -1 when it has none. */
int relarea_find(const struct relarea *ra, const char *name);

/* Function ADDR is (also) component COMP.  0, or -1 with *cause when
 * there is no room (or ADDR is 0). */
int relarea_fn(struct relarea *ra, uint64_t addr, unsigned int comp, const char **cause);

/* Derived event INDEX is DEF from now on (kind 0: none).  Threads drop
 * what they kept for it when it changes. */
void relarea_define(struct relarea *ra, unsigned int index, const struct dapto_rel_def *def);

/* The stacks are asked for again after a time without: every thread
 * starts an empty stack (the enters and leaves of the time without were
 * not seen). */
void relarea_new_epoch(struct relarea *ra);

/* The offset, from the area's start, of derived event INDEX's state
 * byte. */
uint32_t relarea_state_off(unsigned int index);

/* Slots handed to threads so far (at most nthreads), and the enters and
 * leaves of threads that found none. */
uint32_t relarea_threads(const struct relarea *ra);
uint64_t relarea_no_slot(const struct relarea *ra);

/* What slot SLOT says of itself, copied: its thread, frames beyond
 * DAPTO_REL_DEPTH, executions that found no room.  0, or -1 when there is
 * no such slot. */
int relarea_thread(const struct relarea *ra, uint32_t slot, uint32_t *tid, uint64_t *deep,
                   uint64_t *lost);

#endif /* NOOSA_RELAREA_H */
