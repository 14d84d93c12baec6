/* SPDX-License-Identifier: MIT */
/*
 * stacks.h - the component stack of each thread of the program, kept
 * from the built-in events enter(name) and leave(name) and from function
 * entries and exits of auto-instrumented code (which the dispatcher hands
 * over as enter/leave events named after the function, see dispatch.h).
 *
 * The stacks are a consumer of the dispatcher: enter and leave are
 * recorded only while someone uses the stacks (stacks_use), so a program
 * nobody profiles never sends them.  Each frame also holds the node of its
 * path in a calling-context tree (cct.h) that profiles key their counters
 * by.
 *
 * A leave that does not match the innermost enter is reported once per
 * distinct case in the transcript and tolerated: the stack is popped down
 * to the matching frame if there is one, else the leave is ignored.  When
 * the stacks are taken into use while the program runs, enters before
 * that were never seen: leaves of those frames are ignored silently.
 */
#ifndef NOOSA_STACKS_H
#define NOOSA_STACKS_H

#include <stdint.h>
#include <sys/types.h>

#include "cct.h"

struct session;
struct dispatch;
struct sink;
struct reader_fn;
struct stacks;
struct symnames;

/* What a listener is told. */
enum {
    STACKS_PUSH,    /* NAME was pushed (after the push) */
    STACKS_POP,     /* NAME was popped (after the pop) */
    STACKS_MISMATCH /* a leave of NAME did not match the innermost enter
                       (before the frames it pops are popped) */
};

typedef void (*stacks_listener)(void *arg, int what, pid_t tid,
                                const char *name, int64_t ns);

/* A watcher is told of pushes and pops only (not of mismatches: of the
 * pops they make), each with its thread's innermost calling-context node
 * as it is after the change (CCT_ROOT for an empty stack): what a profile
 * keys its counts by, without the name's text.  Changes come in order, in
 * batches, by the time the call that made them returns. */
struct stacks_change {
    int64_t ns;
    pid_t tid;
    uint32_t node;
    int what; /* STACKS_PUSH or STACKS_POP */
};

typedef void (*stacks_watcher)(void *arg, const struct stacks_change *c,
                               size_t n);

/* Create the stacks and add them to dispatcher D (before the consumers
 * that use them, so that they see a stack already updated); mismatched
 * leaves are said in SAY.  All three may be NULL (a model without a
 * program, for tests). */
struct stacks *stacks_create(struct session *s, struct dispatch *d,
                             struct sink *say);
void stacks_free(struct stacks *st);

/* Count a user in (ON non-zero) or out.  Enter and leave are recorded only
 * while there is a user; the stacks are forgotten when the last one
 * leaves. */
void stacks_use(struct stacks *st, int on);
int stacks_used(const struct stacks *st);

/* The depth of thread TID's stack (0 for a thread never seen). */
unsigned int stacks_depth(const struct stacks *st, pid_t tid);
/* Frame I of thread TID's stack, 0 being the outermost: its name (owned
 * by the stacks, valid until stacks_free), and when ENTERED_NS is not
 * NULL the time it was entered (ns since the program started).  NULL when
 * there is no such frame. */
const char *stacks_frame(const struct stacks *st, pid_t tid, unsigned int i,
                         int64_t *entered_ns);
/* The calling-context node of thread TID's innermost frame (CCT_ROOT for
 * an empty stack). */
uint32_t stacks_context(const struct stacks *st, pid_t tid);
/* The calling-context tree of every stack seen. */
struct cct *stacks_cct(const struct stacks *st);

/* The threads with a stack, in the order they were first seen. */
unsigned int stacks_nthreads(const struct stacks *st);
pid_t stacks_thread(const struct stacks *st, unsigned int i);

/* Call FN for every push, pop and mismatch, in the order they happen
 * (listeners in the order they were added). */
void stacks_listen(struct stacks *st, stacks_listener fn, void *arg);
void stacks_unlisten(struct stacks *st, stacks_listener fn, void *arg);
/* Tell FN of every push and pop (see stacks_watcher). */
void stacks_watch(struct stacks *st, stacks_watcher fn, void *arg);

/* Forget every stack (as when a new run starts). */
void stacks_clear(struct stacks *st);

/* Push or pop as an enter or leave of NAME (LEN bytes) in thread TID at
 * NS would (what the consumer does for each event; for tests and for
 * other sources of enter/leave). */
void stacks_enter(struct stacks *st, pid_t tid, const char *name, size_t len,
                  int64_t ns);
void stacks_leave(struct stacks *st, pid_t tid, const char *name, size_t len,
                  int64_t ns);

/* Push or pop for each of the N function entries and exits FNS (and
 * enter/leave events with their interned names), in order, as the enter
 * and leave events the dispatcher makes of them would: functions named
 * through SN, the excluded ones skipped.  This is the consumer's direct
 * path (dispatch.h); names are kept by address until SN's stamp
 * changes. */
void stacks_functions(struct stacks *st, struct symnames *sn,
                      const struct reader_fn *fns, size_t n);

#endif /* NOOSA_STACKS_H */
