/* SPDX-License-Identifier: MIT */
/*
 * debug.h - the program's C data at a stop, for the commands (print,
 * bt, frame, info locals, display, browsing) and for any front end that
 * shows variables (<design#debug>): what the program is stopped at (its
 * thread, the event and its parameters), the frames of that thread with
 * one selected, expressions evaluated there, the value history ($1, $2,
 * ...), and values as trees whose children (members, elements, what a
 * pointer points to) are made only when asked for.
 *
 * Nothing is read before it is needed: the debug information is opened
 * at the first question of a run, its name index at the first global
 * looked up, the thread's frames at the first question of a stop (the
 * thread is held under ptrace just for the unwind).  Nothing prints.
 */
#ifndef NOOSA_DEBUG_H
#define NOOSA_DEBUG_H

#include <stdint.h>
#include <sys/types.h>

#include "cprint.h"
#include "cvalue.h"

struct debug;
struct target;
struct reader_item;
struct registry_event;
struct frames;
struct dinfo;

enum debug_why {
    DEBUG_EVENT,     /* a thread waits at an event */
    DEBUG_FAULT,     /* a thread is about to die of a signal */
    DEBUG_INTERRUPT, /* every thread was stopped */
    DEBUG_ATTACH     /* stopped by attaching to it */
};

struct debug *debug_create(void);
void debug_free(struct debug *g);

/* The program stopped: process PID through T, thread TID, for WHY; at
 * event ITEM (its parameters are copied: names an expression may use).
 * The last stop's frames are forgotten; the debug information is kept
 * while PID is the same process. */
void debug_stop(struct debug *g, struct target *t, pid_t pid, pid_t tid,
                enum debug_why why, const struct reader_item *item);
/* A recording stopped at event ITEM: its parameters, and no program. */
void debug_stop_replay(struct debug *g, const struct reader_item *item);
/* The program goes on: no stop any more. */
void debug_go(struct debug *g);
/* Event EVENT is being delivered and its thread does not wait: no stop
 * (the name, which must live until debug_go(), says why). */
void debug_pass(struct debug *g, const char *event);
/* The process is gone (ended, killed, let go): its debug information
 * too.  The value history stays, as gdb's does. */
void debug_forget(struct debug *g);

/* Counts the stops: a new number at each. */
unsigned long debug_serial(const struct debug *g);
/* Whether the program is stopped where debug can look. */
int debug_stopped(const struct debug *g);
/* What to say when there is no stop to look at (NULL when there is). */
const char *debug_why_not(const struct debug *g);

/* The frames of the stopped thread (unwound at the first call of a
 * stop): 0 with *FR, -1 with *cause. */
int debug_frames(struct debug *g, const struct frames **fr, char **cause);
/* The selected frame (the program's own innermost at a stop) and the
 * first one shown (after the runtime's, at an event). */
unsigned int debug_selected(struct debug *g);
unsigned int debug_first(struct debug *g);
/* How many frames are shown: from the first to main (as gdb's
 * backtrace past-main off: nothing of the C library's start-up), or to
 * the last when main is not among them. */
unsigned int debug_count(struct debug *g);
/* Select frame F (numbered as shown, from debug_first()): -1 with *cause
 * when there is none. */
int debug_select(struct debug *g, unsigned int f, char **cause);
/* The open debug information (NULL when there is none yet). */
struct dinfo *debug_info(struct debug *g, char **cause);

/* The parameter NAME of the event stopped at, as a C value (typed by
 * the interface's ptr<T> or by the typedef its user type names), or
 * NULL when the event has none of that name or it has no C type but
 * void *.  No frame is unwound for it. */
struct cvalue *debug_param(struct debug *g, const char *name);

/* Evaluate EXPR at the selected frame: 0 with *OUT (freed by the
 * caller), or -1 with *cause. */
int debug_eval(struct debug *g, const char *expr, struct cvalue **out,
               char **cause);
/* Evaluate EXPR at frame F (as debug_select numbers it). */
int debug_eval_at(struct debug *g, unsigned int f, const char *expr,
                  struct cvalue **out, char **cause);
/* The type TEXT names, or the type of expression TEXT (whatis, ptype):
 * 0 with *OUT, -1 with *cause. */
int debug_type(struct debug *g, const char *text, struct ctype **out,
               char **cause);

/* Add V to the value history (its contents are read now and kept):
 * its number. */
long debug_record(struct debug *g, struct cvalue *v);

/* The frame line gdb's bt prints for frame F (numbered as shown),
 * "#1  0x... in walk (n=0x..., depth=2) at dv.c:40"; with the
 * program's source line after it when LINE.  The caller frees it. */
char *debug_frame_line(struct debug *g, unsigned int f);
/* The source line of frame F as gdb shows it after a frame line
 * ("40\t    walk(n->next);"), or what keeps it from being read; NULL when
 * the frame has no line.  The caller frees it. */
char *debug_source_line(struct debug *g, unsigned int f);
/* name = value lines for frame F's locals (DSCOPE_LOCALS) or arguments
 * (DSCOPE_ARGS), innermost block first; "No locals." and "No
 * arguments." as gdb says it.  Each line is indented by INDENT. */
char *debug_vars(struct debug *g, unsigned int f, int what, int indent,
                 const struct cprint_opts *o);
/* info frame's text for frame F. */
char *debug_frame_info(struct debug *g, unsigned int f);

/* A value as a tree: how many children V has (members of a struct or
 * union, elements of an array, 1 for a non-null pointer to data: what it
 * points to), and child I with its name ("next", "[3]", "*p"); made when
 * asked, nothing read. */
uint64_t debug_nchildren(struct cvalue *v);
struct cvalue *debug_child(struct debug *g, struct cvalue *v, uint64_t i,
                           char **name);

#endif /* NOOSA_DEBUG_H */
