/* SPDX-License-Identifier: MIT */
/*
 * guard.h - a condition under which a consumer of the Tcl layer (a
 * breakpoint, a handler, the trace, a monitor's subscription) wants an
 * event: a Tcl expression over the event's parameters and n_thread, with
 * hit counting (every N, after N, count N).  Where its shape allows
 * (cond-tcl.h), it is compiled into a clause the program evaluates before
 * the event is recorded or stops it <protocol#filter>; otherwise, or while
 * the program cannot, noosa evaluates it as a Tcl expression, as before.
 * Either way it means the same (tests/cond/equiv.sh).
 *
 * The consumer lists its guards for an event in its clauses hook
 * (dispatch.h) with guard_clause(), and asks guard_holds() at delivery.
 */
#ifndef NOOSA_GUARD_H
#define NOOSA_GUARD_H

#include <stdint.h>
#include <tcl.h>

#include "dispatch.h"

struct interp;
struct guard;

/* Check that COND parses as a Tcl expression: TCL_OK, or TCL_ERROR with
 * "bad condition ..." in TCL's result.  Compiling would not do: Tcl
 * compiles a bad expression into code that fails when run. */
int guard_check(Tcl_Interp *tcl, Tcl_Obj *cond);

/* Check that COND (NULL: none) can hold where command WHAT applies it,
 * when the program's interface REG is known (NULL: not yet): the events
 * of REG that TAKES accepts each give every variable COND reads directly
 * (EVERY), or at least one of them does (not EVERY; the others are left
 * out, as the trace does).  TCL_ERROR with the variable and the event's
 * parameters in TCL's result otherwise: reading a variable an event does
 * not give is an error at every such event. */
int guard_check_reads(Tcl_Interp *tcl, const char *what, Tcl_Obj *cond,
                      struct registry *reg,
                      int (*takes)(void *arg, const struct registry_event *ev),
                      void *arg, int every);

/* A guard of condition COND (NULL: always; a reference is taken) with
 * hit counting EVERY (0: none), AFTER and COUNT (0: no limit).  The
 * caller has checked that COND parses as an expression. */
struct guard *guard_create(Tcl_Obj *cond, uint32_t every, uint32_t after,
                           uint32_t count);
void guard_free(struct guard *g);

/* Whether hit number H (1, 2, ...) of a condition fires with hit
 * counting EVERY, AFTER and COUNT, as the program counts
 * <protocol#filter>: for those who count hits themselves. */
int guard_fires(uint32_t every, uint32_t after, uint32_t count, uint64_t h);

/* Whether NAME, the word after -within or -outside (WHAT says whose), can
 * be a component: TCL_OK, or TCL_ERROR with the reason in TCL. */
int guard_within_check(Tcl_Interp *tcl, const char *what, const char *opt, const char *name);

/* G holds only where the event's thread has (OUTSIDE: has not) a frame
 * of component NAME on its stack <design#relations>: tested in the
 * program with the condition where it can, else in noosa (its stacks,
 * kept from now on when G's condition cannot run in the program on EV,
 * NULL: not known).  Call once, after guard_create(). */
void guard_within(struct guard *g, struct interp *in, const char *name, int outside,
                  const struct registry_event *ev);
/* The component G tests, or NULL; *OUTSIDE whether its absence. */
const char *guard_within_name(const struct guard *g, int *outside);
/* " -within NAME", " -outside NAME" or "" (static), for listings. */
const char *guard_within_words(const struct guard *g);

/* Its condition (NULL: always) and hit counting, for listings. */
Tcl_Obj *guard_cond(const struct guard *g);
/* "every N after M count K", or "" without hit counting (static). */
const char *guard_counting(const struct guard *g);

/* The times G held in noosa, for its hit counting (every, after,
 * count), and the same set back: a replay's checkpoints keep it
 * (<design#checkpoints>). */
uint64_t guard_hits(const struct guard *g);
void guard_set_hits(struct guard *g, uint64_t hits);

/* Whether G wants every event, whatever happens: no condition and no
 * hit counting. */
int guard_always(const struct guard *g);

/* Whether every variable G's condition reads directly (not inside a
 * command substitution) is one EV gives it: a parameter, n_ename, n_time
 * or n_thread (names with "::" are left out: they are not the event's).
 * When not, the condition cannot hold at EV: reading the variable is an
 * error.  1 without a condition. */
int guard_reads_event(const struct guard *g,
                      const struct registry_event *ev);

/* For the clauses hook: fill *CL with G's clause on EV (program, BITS,
 * TAG, hit counting) and return 1 when the program can evaluate it, or
 * return 0 when noosa must (the reason is kept for guard_where()).  INDEX
 * is the clause's position in the consumer's list for EV, which
 * guard_holds() will look up in the delivery's placed bits. */
int guard_clause(struct guard *g, struct interp *in,
                 const struct registry_event *ev, unsigned char bits,
                 unsigned int tag, unsigned int index,
                 struct dispatch_clause *cl);

/* For the clauses hook: G is not among the clauses listed for EV this
 * time (there was no room), so noosa evaluates it there. */
void guard_unlisted(struct guard *g, const struct registry_event *ev);

/* Whether G holds for the event being delivered in DE: from the bits the
 * program set when it evaluated G's clause, else by evaluating the
 * condition in noosa and counting hits.  Returns 1 or 0, or -1 when the
 * condition could not be evaluated (the message in the interpreter's
 * result). */
int guard_holds(struct guard *g, struct interp *in,
                const struct dispatch_event *de);

/* Where G runs for EV, for listings: "in the program: N checked, M
 * passed", "in the program when it runs", or "in noosa: WHY" (caller
 * frees).  C and TAG name its clause in the dispatcher. */
char *guard_where(struct guard *g, struct interp *in,
                  const struct consumer *c, unsigned int tag,
                  const struct registry_event *ev);

#endif /* NOOSA_GUARD_H */
