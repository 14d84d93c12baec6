/* SPDX-License-Identifier: MIT */
/*
 * dispatch.h - the dispatcher (Eve's coordinator, <design#dispatch>):
 * consumers of events (handlers, breakpoints, stepping, traces, profiles,
 * Tcl monitors) say which events they want and how; the dispatcher writes the union of their wishes into
 * the program as event states, so that events nobody wants are never
 * emitted, and hands each event only to the consumers that asked for it,
 * through a table by event code recomputed only when a wish changes.
 *
 * Wishes are kept by event, not code: codes belong to one run, so the
 * table is rebuilt whenever the program describes a new aspect.
 */
#ifndef NOOSA_DISPATCH_H
#define NOOSA_DISPATCH_H

#include "reader.h"
#include "registry.h"

struct session;
struct dispatch;
struct consumer;
struct ckpt_ops;
struct symnames;
struct dispatch_post;

/* What a consumer is told about one event.  Function entries and exits of
 * auto-instrumented code (READER_FUNCTION items) are handed over as the
 * built-in events enter and leave, their name parameter the function's
 * name (resolved through symnames.h); they never wait, so a consumer
 * cannot stop the program there. */
struct dispatch_event {
    const struct reader_item *item;
    const struct registry_event *event;
    int waiting;   /* the thread waits: operations may run now */
    int stop;      /* set by a consumer: keep the program stopped */
    char *where;   /* with stop: what stopped it (consumer's xstrdup) */
    /* The consumer's clauses (consumer_ops.clauses) that the program
     * evaluated for this event (bit i: its clause i), and those of them
     * that held.  A clause not in PLACED is the consumer's to evaluate
     * (the program could not, or the event was written before its filter
     * was). */
    uint32_t placed;
    uint32_t held;
};

/* A condition under which a consumer wants an event, compiled into a
 * clause program (cond.h) for the program to evaluate <protocol#filter>. */
struct dispatch_clause {
    const unsigned char *prog; /* ends with DAPTO_FOP_END; the consumer's */
    size_t len;
    unsigned char bits;        /* DAPTO_STATE_RECORD and/or _STOP */
    unsigned int tag;          /* the consumer's name for it (stable) */
    uint32_t every;            /* hit counting: 0 none, else >= 1 */
    uint32_t after;
    uint32_t count;
    /* A question's clause <protocol#question>: DAPTO_CL_QUESTION or
     * DAPTO_CL_QSTART (bits then 0, no hit counting), and the question's
     * index in the program's question area; or a part's of a derived
     * event, DAPTO_CL_PART, with the derived event's index in QUESTION
     * and the part in COUNT <protocol#relate>; or the window's,
     * DAPTO_CL_WINDOW, opening it with COUNT 1. */
    unsigned char qflags;
    unsigned int question;
};

/* At most this many clauses of one consumer for one event. */
#define DISPATCH_CLAUSES 12

struct consumer_ops {
    const char *name;
    /* The DAPTO_STATE_* bits the consumer wants for EV (0: none). */
    unsigned char (*want)(void *arg, const struct registry_event *ev);
    /* An event the consumer wants recorded or stopped at.  A consumer
     * that wants only DAPTO_STATE_TRAIL for an event (it reads the
     * post-mortem trail after the fact) is not told of it; one whose
     * deliver is NULL is never told (its wishes are what it asks for the
     * program, e.g. for others' benefit). */
    void (*deliver)(void *arg, struct dispatch_event *de);
    /* The consumer was disabled (on = 0) or enabled again; may be NULL. */
    void (*notice)(void *arg, int on);
    /* Its conditions on EV, for the program to evaluate; may be NULL.
     * Fills CL with at most MAX clauses (valid until the next call) and
     * returns how many, and sets *UNCOND to the bits it wants for EV
     * whatever the conditions (those it evaluates itself).  The bits of
     * want() are then UNCOND and the clauses' together. */
    unsigned int (*clauses)(void *arg, const struct registry_event *ev,
                            unsigned char *uncond, struct dispatch_clause *cl,
                            unsigned int max);
    /* <design#checkpoints> A consumer whose state comes from the events
     * it is told of gives how to save and restore it (its save may
     * return NULL when the state is kept elsewhere, the Tcl layer's
     * variables for handlers): it is then a participant of the session's
     * checkpoints, told of the events a replay's move hands over, and
     * of the stretches of a reverse search.  NULL: nothing to keep
     * (the trace, stepping), told of none of them. */
    const struct ckpt_ops *state;
};

/* What some consumers want to hear besides events (dispatch_set_hooks); every
 * member may be NULL. */
struct consumer_hooks {
    /* A new run of the program has begun (ITEM is its hello); told to
     * every consumer, enabled or not. */
    void (*started)(void *arg, const struct reader_item *item);
    /* Another process joined the run under way (ITEM is its hello; it is
     * the session's current process): a child followed, or a process of
     * several that executed another program <design#processes>.  Told to
     * every consumer, enabled or not. */
    void (*joined)(void *arg, const struct reader_item *item);
    /* Whether the consumer wants the artificial events named NAME that
     * consumers post to each other (dispatch_post). */
    int (*wants_post)(void *arg, const char *name);
    /* An artificial event the consumer wants. */
    void (*post)(void *arg, const struct dispatch_post *p);
    /* Function entries and exits, and enter/leave events with interned
     * names, straight from the ring (the direct path), N of them in
     * order.  When every consumer told of enter and of leave has it (the
     * same consumers for both), they go to it and to nothing else,
     * without items: it resolves the functions' names itself (with
     * dispatch_symnames(), leaving out the excluded functions, as the
     * enter/leave events made of them would). */
    void (*functions)(void *arg, const struct reader_fn *fns, unsigned int n);
    /* Events of a recording that the consumer only counts, N of them in
     * order, without items (no values; never a stop): when every
     * consumer told of an event has it (or none is told of it), a
     * recording's events of it go to them this way (dispatch_counts()). */
    void (*counts)(void *arg, const struct reader_ev *evs, unsigned int n);
};

/* An artificial event (Eve's): a name and string arguments, posted by a
 * consumer (FROM, which is not told) or by the user (FROM NULL). */
struct dispatch_post {
    const char *name;
    const struct consumer *from;
    int argc;
    const char *const *argv;
};

struct dispatch *dispatch_create(struct session *s);
void dispatch_free(struct dispatch *d);

/* Add a consumer (enabled); the dispatcher keeps OPS and ARG. */
struct consumer *dispatch_add(struct dispatch *d,
                              const struct consumer_ops *ops, void *arg);
void dispatch_remove(struct dispatch *d, struct consumer *c);
/* Give consumer C the hooks in MORE (kept by the dispatcher). */
void dispatch_set_hooks(struct dispatch *d, struct consumer *c,
                   const struct consumer_hooks *more);
void dispatch_enable(struct dispatch *d, struct consumer *c, int on);
int dispatch_enabled(const struct consumer *c);
const char *dispatch_name(const struct consumer *c);
/* All consumers, in order of addition (for listings). */
unsigned int dispatch_count(const struct dispatch *d);
struct consumer *dispatch_at(const struct dispatch *d, unsigned int i);
void *dispatch_arg(const struct consumer *c);
/* What consumer C asks for EV, enabled or not (for listings). */
unsigned char dispatch_wants(const struct consumer *c,
                             const struct registry_event *ev);

/* <design#checkpoints> Consumer C's state changed other than by events
 * (reset): the checkpoints forget it (turning it on or off does so
 * too). */
void dispatch_forget(struct dispatch *d, struct consumer *c);
/* A replay's move hands the events before its own to the consumers that
 * keep a state (ON), or is done (ON 0): only those not absent from the
 * checkpoint restored are told of events meanwhile.  With ON, returns the
 * codes they want (reader_code_bit(), READER_ITEMS_BIT besides). */
uint64_t dispatch_quiet(struct dispatch *d, int on);
/* Whether consumer C is told of events now (not during a move when it is
 * not a participant or absent): for what tells it otherwise (the
 * stacks' watchers). */
int dispatch_told(const struct dispatch *d, const struct consumer *c);

/* The session's current process changed (its process hook): events,
 * states and filters are that process's from now on.  Each process of a
 * run has its own table (its interface's codes), filters and counters,
 * and the states of every process are written at each recomputation;
 * consumers are asked what they want for each process in turn
 * (session_pid() says which). */
void dispatch_process(struct dispatch *d);

/* A consumer's wishes changed: the states and the table are recomputed
 * at the next dispatch_flush() (once, however many changes). */
void dispatch_changed(struct dispatch *d);
/* Recompute if anything changed and write the states into the program.
 * Front ends call it after each command; it is also done before each
 * event is delivered, and never while one is being delivered. */
void dispatch_flush(struct dispatch *d);
/* Recompute now (deferred when called during a delivery). */
void dispatch_sync(struct dispatch *d);

/* A function record ITEM (READER_FUNCTION) as the built-in event enter
 * or leave with the function's name, in *OUT (valid until the next
 * function record is dispatched), or NULL when the interface has no such
 * event or the address has no name.  For the root, which says where a
 * function record the program waits at stopped. */
const struct reader_item *dispatch_function_item(struct dispatch *d,
                                                 const struct reader_item *item,
                                                 struct reader_item *out);

/* Hand an item of the program to the consumers; returns 1 when one of
 * them keeps the program stopped, with *where describing why (caller
 * frees). */
int dispatch_item(struct dispatch *d, const struct reader_item *item,
                  char **where);

/* Hand the records of the direct path (session_direct, which the
 * dispatcher turns on and off as wishes change) to the consumers that
 * take them; returns how many were taken (0 when the direct path no
 * longer holds: they are to come as items). */
unsigned int dispatch_functions(struct dispatch *d, const struct reader_fn *fns,
                                unsigned int n);

/* The events of a recording that only consumers with a counts hook are
 * told of, if any: a table by code (*limit codes; 1: such an event), or
 * NULL when there are none or the table is to be made again. */
const unsigned char *dispatch_counted(const struct dispatch *d,
                                      unsigned int *limit);

/* Hand the events EVS of a recording (session_counting, which the
 * dispatcher turns on and off as wishes change) to the consumers that
 * count them; returns how many were taken (fewer than N when an event
 * is no longer counted only: it and those after it are to come as
 * items). */
unsigned int dispatch_counts(struct dispatch *d, const struct reader_ev *evs,
                             unsigned int n);

/* Deliver artificial event P to the enabled consumers that want it, in
 * order, now (also from inside a delivery).  Returns how many were told,
 * or -1 with *cause when posts nest too deeply (a loop of monitors
 * posting to each other). */
int dispatch_post(struct dispatch *d, const struct dispatch_post *p,
                  char **cause);

/* A consumer keeps the program stopped at DE, WHERE (an xasprintf
 * string, taken) saying why; the first consumer to stop it names the
 * stop, a later one's WHERE is freed. */
void dispatch_stop(struct dispatch_event *de, char *where);

/* The names of auto-instrumented functions (with the user's exclusion
 * patterns). */
struct symnames *dispatch_symnames(const struct dispatch *d);

/* Whether the program can evaluate conditions (its runtime has filters,
 * protocol minor 2); when not, *why (static) says why. */
int dispatch_filters(const struct dispatch *d, const char **why);

/* What the program counted for consumer C's clause TAG on EV (checked:
 * evaluations; passed: times it fired), and for the event EV as a whole
 * (checked: times its filter ran; passed: times it went on).  -1 when
 * the program does not evaluate it. */
int dispatch_clause_counts(const struct dispatch *d, const struct consumer *c,
                           const struct registry_event *ev, unsigned int tag,
                           uint64_t *checked, uint64_t *passed);
int dispatch_event_counts(const struct dispatch *d,
                          const struct registry_event *ev, uint64_t *checked,
                          uint64_t *passed);

/* A counter of the current process's counter area for a consumer's own
 * use in this run <protocol#counters>, or DAPTO_CNT_NONE when none is
 * left. */
uint16_t dispatch_counter(struct dispatch *d);

/* The state written for event EV in the current run. */
unsigned char dispatch_state(const struct dispatch *d,
                             const struct registry_event *ev);

#endif /* NOOSA_DISPATCH_H */
