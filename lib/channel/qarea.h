/* SPDX-License-Identifier: MIT */
/*
 * qarea.h - the monitor's side of questions <protocol#question>: laying
 * out the question area, writing and withdrawing definitions, and reading
 * the threads' tables back, entry by entry, without stopping the program.
 * The runtime's side (counting events into the tables) is
 * lib/runtime/rtquestion.c.
 *
 * Everything the monitor needs to find a table (offsets, sizes) comes
 * from its own copy of what it wrote, never from the area, which the
 * program may have scribbled on.  What it reads from the tables is data:
 * it is copied, and a reader makes no decision on it beyond showing it.
 * Like the rest of the channel library it allocates nothing.
 */
#ifndef NOOSA_QAREA_H
#define NOOSA_QAREA_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"
#include "region.h"

/* Bytes of one thread's slot, and of the definitions' page. */
#define QAREA_SLOT (2u << 20)
#define QAREA_HEAD 4096u

/* The question area of a region, as the monitor keeps it. */
struct qarea {
    unsigned char *area;   /* NULL: the region has none */
    uint32_t size;
    uint32_t nthreads;     /* slots */
    uint32_t slot_size;
    uint32_t epoch;        /* the last epoch given */
    /* what was written for each question: its definition (epoch 0: none) */
    struct dapto_question def[DAPTO_Q_MAX];
    /* the measurement window was written since the monitor last chose
     * one (the program may open and close it since) */
    int window_set;
};

/* Lay out the question area of region R (header, empty definitions,
 * slots).  Call once, before the program can read it.  Returns 0, or -1
 * with *cause when R has no question area or it is too small. */
int qarea_init(struct qarea *qa, const struct region *r, const char **cause);

/* The layout of a question's entries and table for DEF's keys, flags and
 * NENT (a power of two): sets nent, ent_size, text_off, hist_off and
 * tab_size.  Returns 0, or -1 when NENT is not a power of two from 1 to
 * 2^20. */
int qarea_shape(struct dapto_question *def, uint32_t nent);

/* Make DEF (shaped by qarea_shape) question INDEX: find room for its
 * table in every slot, then write it with a new epoch <protocol#question>.
 * A question INDEX had is withdrawn first.  Returns 0, or -1 with *cause
 * (index out of range, no room in a slot). */
int qarea_define(struct qarea *qa, unsigned int index,
                 const struct dapto_question *def, const char **cause);

/* Question INDEX starts again from nothing: a new epoch. */
void qarea_reset(struct qarea *qa, unsigned int index);

/* Question INDEX is gone; its room may be given again. */
void qarea_undefine(struct qarea *qa, unsigned int index);

/* Close (CLOSED) or open the measurement window <protocol#question>;
 * whether it is closed now. */
void qarea_window(struct qarea *qa, int closed);
int qarea_window_closed(const struct qarea *qa);

/* Slots handed to threads so far (at most nthreads), and the question
 * events of threads that found none. */
uint32_t qarea_threads(const struct qarea *qa);
uint64_t qarea_no_slot(const struct qarea *qa);

/* The header of question INDEX's table in slot SLOT (all but its stack of
 * marks), copied into *T:
 * 1 when that table counts for the question as defined now, 0 when the
 * thread has not counted since (or at all). */
int qarea_table(const struct qarea *qa, unsigned int index, uint32_t slot,
                struct dapto_qtable *t);

/* Copy entry E of question INDEX's table in slot SLOT into BUF (ent_size
 * bytes of its definition): 1 when it holds a key, 0 when free.  *TORN is
 * set when the thread was inside an update of it each time it was read
 * (it died or was stopped there): the copy may then lack the event in
 * flight. */
int qarea_entry(const struct qarea *qa, unsigned int index, uint32_t slot,
                uint32_t e, void *buf, int *torn);

#endif /* NOOSA_QAREA_H */
