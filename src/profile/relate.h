/* SPDX-License-Identifier: MIT */
/*
 * relate.h - relations between events <design#relations>: the components
 * that conditions test (-within and -outside on questions, breakpoints,
 * handlers and the trace) and derived events (`derive NAME A -contains
 * B`, `-calls B`, `-before B -within C`), in the program where its
 * runtime keeps the threads' component stacks <protocol#relate>, in
 * noosa's own stacks (stacks.h) where it cannot.
 *
 * The relations are a consumer of the dispatcher: they ask for the
 * program's stacks (DAPTO_STATE_STACK on enter and leave) while anything
 * needs them, and for the events that are parts of derived events (their
 * clauses hand them over).  A derived event is an event of its own in
 * the program's interface (an aspect `derived:NAME`, codes from
 * DAPTO_DERIVED_BASE), added when its parts are known, so that every
 * consumer, recordings and their replay take it like any other.
 *
 * Nothing here knows Tcl: conditions arrive compiled.
 */
#ifndef NOOSA_RELATE_H
#define NOOSA_RELATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dispatch.h"
#include "protocol.h"
#include "registry.h"
#include "session.h"
#include "sink.h"

struct relations;
struct stacks;

/* The relations of a session, added to dispatcher D, with noosa's stacks
 * ST for what the program cannot decide, saying into SINK what the user
 * must know. */
struct relations *relations_create(struct session *s, struct dispatch *d, struct stacks *st,
                                   struct sink *sink);
void relations_free(struct relations *r);
/* The session is about to end (its program with it): from now on users
 * come and go without anything asked of it. */
void relations_end(struct relations *r);

/* ---- components (-within, -outside) ---- */

/* A user of component tests comes (ON) or goes: while there is one, the
 * program keeps its stacks.  NOOSA: it knows it will test in noosa (its
 * condition runs there): noosa's stacks are kept too. */
void relations_use(struct relations *r, int on, int noosa);

/* Whether NAME can be a component (1 to 119 bytes); -1 with *why
 * (static) when not. */
int relations_name_ok(const char *name, const char **why);

/* The index of component NAME in the current process's relations area,
 * for DAPTO_FOP_WITHIN (listed there now if it was not); -1 with *why
 * (static) when the program cannot test components. */
int relations_comp(struct relations *r, const char *name, const char **why);

/* Whether thread TID's stack, as noosa keeps it, has a frame of NAME:
 * for a condition noosa evaluates.  Noosa's stacks are taken into use
 * from then on if they were not (the frames entered before are not
 * known). */
int relations_within_noosa(struct relations *r, pid_t tid, const char *name);

/* ---- derived events ---- */

enum derive_kind {
    DERIVE_CONTAINS = DAPTO_REL_CONTAINS,
    DERIVE_CALLS = DAPTO_REL_CALLS,
    DERIVE_BEFORE = DAPTO_REL_BEFORE
};

struct derive_spec {
    const char *name;
    enum derive_kind kind;
    const char *a, *b, *c; /* parts; C NULL without -within */
    /* the condition on B (its text, and its program for B's clause),
     * NULL: none */
    const char *cond;
    const unsigned char *prog;
    size_t prog_len;
};

/* Check SPEC against interface REG (NULL: not known yet) and define it.
 * 0, or -1 with *cause (caller frees). */
int relations_derive(struct relations *r, const struct derive_spec *spec, struct registry *reg,
                     char **cause);
/* Forget derived event NAME: 0, or -1 with *cause (no such, or a part of
 * another). */
int relations_underive(struct relations *r, const char *name, char **cause);

unsigned int relations_nderived(const struct relations *r);
const char *relations_derived_name(const struct relations *r, unsigned int i);
int relations_has(const struct relations *r, const char *name);
/* "an execution of parse during which miss happened, if {...}" (caller
 * frees), or NULL. */
char *relations_describe(const struct relations *r, const char *name);
/* Where it is detected: "in the program: N checked, M recorded", or why
 * not (caller frees), or NULL. */
char *relations_where(const struct relations *r, const char *name);
/* What the program counted for it (every process's): -1 when it is not
 * detected in this run. */
int relations_counts(const struct relations *r, const char *name, uint64_t *checked,
                     uint64_t *recorded);

/* The interface grew (an aspect arrived) or a derived event was defined:
 * add to the current process's interface the derived events whose parts
 * it now has, and write them into its program. */
void relations_interface(struct relations *r);

#endif /* NOOSA_RELATE_H */
