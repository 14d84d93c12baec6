/* SPDX-License-Identifier: MIT */
/*
 * probes.h - the USDT probes of one process as events <design#probes>:
 * the probes that its executable and every library it maps (also those
 * loaded later) carry in their `.note.stapsdt` notes become events of
 * its registry, an aspect per provider, their arguments arg1..argN (or
 * the names and kinds of the hints, probe_hints).
 *
 * A probe event has no state byte: its state is kept here, and while it
 * is not zero every site of the probe holds a breakpoint (the target's,
 * carried out as the nop it replaces) and its semaphore is counted up;
 * a hit is read at the stop (probes_hit) into an event record that the
 * session hands on as the program's own.  A new library is seen at the
 * dynamic linker's breakpoint (its r_brk, also the target's).
 *
 * Nothing here prints: messages go to the say function given.
 */
#ifndef NOOSA_PROBES_H
#define NOOSA_PROBES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "protocol.h"
#include "reader.h"
#include "registry.h"

struct target;
struct probes;
struct probe_hints;

/* Codes of probe events: from this one up, in every registry (the
 * runtime never gives these, <protocol#probes>). */
#define PROBES_CODE_BASE DAPTO_PROBE_CODE_BASE

/* The state address a probe event's description gives: it has no state
 * byte in the program. */
#define PROBES_NO_STATE 1u

/* --- hints: names and kinds of known providers' arguments -------------- */

struct probe_hints *probe_hints_create(void);
void probe_hints_free(struct probe_hints *h);

/* Probe PROVIDER:NAME's arguments are named NAMES[i] (NULL: argI as
 * before) and of kind KINDS[i] (0: from their size; DAPTO_K_INT, LONG,
 * PTR or STR: a pointer read as a string), for the first N.  Replaces an
 * earlier hint's arguments; for events made from now on, and for those
 * of REG (may be NULL) made before, as far as a kind can change (an int
 * stays an int).  -1 with *cause when a name is not one. */
int probe_hints_params(struct probe_hints *h, struct registry *reg,
                       const char *provider, const char *name,
                       unsigned int n, const char *const *names,
                       const unsigned char *kinds, char **cause);

/* Argument ARG of probe PROVIDER:NAME (argN, N, or the name a hint or
 * REG's event gives it) is of KIND from now on; the others stay as they
 * are.  -1 with *cause when there is no such argument. */
int probe_hints_kind(struct probe_hints *h, struct registry *reg,
                     const char *provider, const char *name, const char *arg,
                     unsigned char kind, char **cause);

/* Probe PROVIDER:NAME enters (ROLE REGISTRY_ROLE_ENTER) or leaves
 * (REGISTRY_ROLE_LEAVE) a component named FORMAT, where %{ARG} stands for
 * the value of argument ARG (0: the hint is removed). */
int probe_hints_component(struct probe_hints *h, struct registry *reg,
                          const char *provider, const char *name, int role,
                          const char *format, char **cause);

/* The hints as text, a line each (to free). */
char *probe_hints_text(const struct probe_hints *h);

/* Give the events of REG that are probes what the hints say of them
 * (names and components; kinds only with KINDS, as the records are made
 * with them): a registry read from a recording, or one made before a
 * hint. */
void probe_hints_apply(const struct probe_hints *h, struct registry *reg,
                       int kinds);

/* The name of the component that ITEM, an event whose registry event has
 * a role, enters or leaves, into BUF (SIZE bytes): its length. */
size_t probe_component_name(const struct reader_item *item, char *buf,
                            size_t size);

/* --- the probes of a process -------------------------------------------- */

struct probes *probes_create(struct target *t, struct registry *reg,
                             const struct probe_hints *hints,
                             void (*say)(void *arg, const char *text),
                             void *arg);
void probes_free(struct probes *p);

/* Look at what the process maps now (at its start, or at the dynamic
 * linker's breakpoint): the probes of new objects become events (their
 * aspects are handed to ASPECT, already in the registry), those of
 * objects gone are forgotten.  A stopped thread is needed (the target
 * reads and writes memory). */
void probes_scan(struct probes *p,
                 void (*aspect)(void *arg, struct registry_aspect *a),
                 void *arg);

/* The process's runtime has attached: probes it can handle itself
 * <protocol#probes> are from now on (those wanted already too), each
 * site's instructions replaced by a jump to a trampoline that calls the
 * runtime (the process paused meanwhile); a site that cannot be (and
 * every site, when the runtime cannot) keeps its breakpoint. */
void probes_runtime(struct probes *p);

/* Whether CODE is one of the probe events. */
int probes_owns(const struct probes *p, unsigned int code);

/* Set the state of probe event CODE: while it is not zero, every site
 * holds a breakpoint and its semaphore counts one more. */
int probes_set_state(struct probes *p, unsigned int code, unsigned char state,
                     char **cause);

enum probes_hit {
    PROBES_HIT_NONE,  /* nothing to tell (a probe nobody wants now) */
    PROBES_HIT_EVENT, /* *REC holds the event's record */
    PROBES_HIT_RECORD, /* the same, and no consumer stops there (its
                          state has no DAPTO_STATE_STOP): the thread
                          need not wait while it is told */
    PROBES_HIT_LIBS   /* the dynamic linker's: the libraries changed and
                         are consistent (probes_scan) */
};

/* Thread TID waits at the breakpoint at ADDR: what it is.  For an event,
 * its record (time not set) in REC (DAPTO_EVENT_MAX bytes), *SIZE its
 * size. */
enum probes_hit probes_hit(struct probes *p, pid_t tid, uint64_t addr,
                           unsigned char *rec, size_t *size);

/* `info probes': every probe, a line each (to free). */
char *probes_text(const struct probes *p);

/* How many probe sites the process has. */
unsigned int probes_count(const struct probes *p);

#endif /* NOOSA_PROBES_H */
