/* SPDX-License-Identifier: MIT */
/*
 * rtrelate.h - relations in the program <protocol#relate>: each thread's
 * component stack (pushed and popped by enter and leave, named or of
 * functions), which components are on it (what DAPTO_FOP_WITHIN tests),
 * and derived events: an execution of a component that contained or
 * called a part, a part preceded by another (in the same execution of a
 * component), detected as the thread goes and emitted as events of their
 * own codes.  The monitor's side is lib/channel/relarea.h.
 *
 * The rtrel_* functions work on a slot (struct dapto_rel_thread) and an
 * environment given to them, and touch no global: tests drive them on
 * any bytes.  They trust nothing of the area: every index read there is
 * checked or masked, every copy is of a generation read twice.  No
 * allocation, no stdio, no system call.  A slot is used by one thread; an
 * update interrupted by a signal handler leaves the handler's events out
 * (counted in the slot's `lost`).  The rt_rel_* functions are the
 * runtime's: the calling thread's slot on the attached runtime.
 */
#ifndef NOOSA_RTRELATE_H
#define NOOSA_RTRELATE_H

#include <stdint.h>

#include "dapto.h"
#include "protocol.h"
#include "rtquestion.h"

struct rtrel_env;

/* Emit derived event DEF: REC holds its values (len, flags and time
 * set); the callee fills in the rest of the header and delivers it as
 * the event's state says. */
typedef void (*rtrel_emit_fn)(const struct rtrel_env *e, struct dapto_record *rec,
                              unsigned int def);

struct rtrel_env {
    unsigned char *area; /* NULL: none */
    uint32_t size;
    /* the header's geometry, read and checked by rtrel_env_init() */
    uint32_t nthreads, slot_size, tabs_off, comps_off, fns_off, defs_off;
    uint64_t (*now)(void);      /* a timestamp, in record time units */
    rtrel_emit_fn emit;
    void (*count)(unsigned int id); /* add 1 to counter ID <protocol#counters> */
    /* The runtime popped frame F at a recovery point (an error converted
     * <protocol#recover>): the leave it makes in the program's stead;
     * NULL: none. */
    void (*unwound)(const struct dapto_rel_frame *f);
};

/* Read and check the header of the area AREA (SIZE bytes) into E, with
 * the callbacks E has already.  0, or -1 (E->area NULL) when the
 * geometry is not sound. */
int rtrel_env_init(struct rtrel_env *e, unsigned char *area, uint32_t size);

/* A slot for thread TID, taken from the area (next); NULL when they are
 * all taken (no_slot counted). */
struct dapto_rel_thread *rtrel_take(const struct rtrel_env *e, uint32_t tid);

/* A component was entered: named component NAME (KEY its address, FN 0)
 * or function KEY (FN 1). */
void rtrel_enter(const struct rtrel_env *e, struct dapto_rel_thread *t, uint64_t key,
                 int fn);
/* A component was left: the innermost frame of KEY is popped, and every
 * frame above it (left without their leaves); a leave of a component not
 * on the stack changes nothing. */
void rtrel_leave(const struct rtrel_env *e, struct dapto_rel_thread *t, uint64_t key,
                 int fn);

/* Pop every frame above DEPTH, innermost first, telling E->unwound of
 * each: the thread resumes at a recovery point entered at that depth. */
void rtrel_unwind(const struct rtrel_env *e, struct dapto_rel_thread *t, uint32_t depth);

/* An event, whose parameters ARG reads (with CTX), is part ROLE
 * (DAPTO_REL_PART_A or _B) of derived event DEF: its clause fired. */
void rtrel_part(const struct rtrel_env *e, struct dapto_rel_thread *t, unsigned int def,
                unsigned int role, rtq_arg_fn arg, const void *ctx);

/* The components with a frame on T's stack (bit c: component c), T
 * brought up to date first. */
uint64_t rtrel_mask(const struct rtrel_env *e, struct dapto_rel_thread *t);

/* ---- the runtime's: the calling thread, the attached runtime ---- */

/* The thread's slot, RTREL_NO_SLOT when there was none left, NULL
 * before its first need; the attach it is of (runtime.epoch). */
#define RTREL_NO_SLOT ((struct dapto_rel_thread *)1)

/* Named component NAME entered or left (ENTER), in the enter and leave
 * events with DAPTO_STATE_STACK. */
void rt_rel_name(int enter, const char *name);
/* Function FN entered or left, in the function hooks with
 * DAPTO_STATE_STACK. */
void rt_rel_fn(int enter, void *fn);
/* A part's clause fired (rtfilter.c). */
void rt_rel_part(unsigned int def, unsigned int role, rtq_arg_fn arg, const void *ctx);
/* What DAPTO_FOP_WITHIN tests, for the calling thread. */
uint64_t rt_rel_mask(void);

/* Recovery points <protocol#recover>: the thread entered its recovery
 * point of depth RDEPTH (1 for the outermost), and resumes at it. */
void rt_rel_try(unsigned int rdepth);
void rt_rel_resume(unsigned int rdepth);

/* Forget the calling thread's slot: in a forked child. */
void rt_rel_fork_child(void);

#endif /* NOOSA_RTRELATE_H */
