/* SPDX-License-Identifier: MIT */
/*
 * fault.h - run-time errors of the monitored program: a fatal signal
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or an error reported with
 * dapto_error() stops the program before it dies.  This module reports
 * the error (what happened, the backtrace of the faulting thread, its
 * component stack, the last events, the other threads), applies the
 * error policy (ask, terminate, convert the next N), and converts an
 * error to failure when asked: the faulting thread resumes in its
 * innermost recovery point, or dapto_error() returns to its caller.
 * Commands: errors, bt, convert (src/tcl/cmd-fault.c).
 */
#ifndef NOOSA_FAULT_H
#define NOOSA_FAULT_H

#include <sys/types.h>

struct session;
struct dispatch;
struct stacks;
struct sink;
struct faults;
struct target_event;
struct fault_trail;

enum fault_policy {
    FAULT_NONE,      /* batch mode without a policy: terminate, and say
                        so and how to choose */
    FAULT_ASK,       /* stop and let the user choose (the screen's
                        default) */
    FAULT_TERMINATE, /* kill the program */
    FAULT_CONVERT    /* convert the next N errors (all when N is 0), then
                        ask */
};

/* Events shown before an error unless "errors last N" says otherwise. */
#define FAULT_LAST_DEFAULT 10

/* Create the error facility of session S: its trail consumer in D, the
 * component stacks ST (may be NULL) for its reports, which it says in
 * SAY.  BATCH: without a policy, errors end the program.  When the
 * program stops at an error, *WHERE (the root's) says so. */
struct faults *fault_create(struct session *s, struct dispatch *d,
                            struct stacks *st, struct sink *say, int batch,
                            char **where);
void fault_free(struct faults *f);

/* The program stopped at the fault EV (session_fault()): set *where,
 * report the error in the transcript and apply the policy, which may
 * convert the error or kill the program before this returns. */
void fault_stopped(struct faults *f, const struct target_event *ev);

/* The program corrupted the channel, which has let it go unmonitored
 * (channel_let_go): apply the policy, as to an error of the program.
 * Ask stops it (continue lets it go on, kill ends it), terminate kills
 * it, convert and batch mode without a policy let it go on. */
void fault_channel_broken(struct faults *f);

/* Keep the component stacks (stacks_use) for the reports, or not. */
void fault_set_stacks(struct faults *f, int on);
int fault_stacks(const struct faults *f);

void fault_set_policy(struct faults *f, enum fault_policy p,
                      unsigned long count);
enum fault_policy fault_policy(const struct faults *f, unsigned long *count);

/* Convert the error the program is stopped at (saying so in the
 * transcript); -1 with *cause when it cannot be converted. */
int fault_convert(struct faults *f, char **cause);

/* Say the backtrace of thread TID (0: the stopped thread; -1: every
 * thread) in the transcript.  The program must be stopped; EVENT_TID is
 * the thread of the event it is stopped at (0: none). */
int fault_backtrace(struct faults *f, pid_t tid, pid_t event_tid,
                    char **cause);

struct fault_trail *fault_trail(struct faults *f);

#endif /* NOOSA_FAULT_H */
