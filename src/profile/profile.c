/* SPDX-License-Identifier: MIT */
/*
 * profile.c - the two profiles as monitors: creating them, turning them
 * on and off (each holds a use of the component stacks while on), what
 * they hear from the stacks, and printing them when the program ends.
 * See profile.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "interp.h"
#include "monitor.h"
#include "profile-int.h"
#include "stacks.h"
#include "xmalloc.h"

/* Rows of the time profile printed when the program ends. */
#define PROFILE_END_ROWS 25

/* Pushes and pops.  (`using` is whether each profile is on: its
 * consumer's notice keeps it so.) */
static void watch(void *arg, const struct stacks_change *c, size_t n)
{
    struct profile *p = arg;

    if (p->freq.using)
        pfreq_calls_made(p, c, n);
    if (p->time.using)
        ptime_changes(p, c, n);
}

struct profile *profile_create(struct interp *in)
{
    struct profile *p = xcalloc(1, sizeof *p);

    p->in = in;
    p->st = in->stacks;
    p->print_at_end = 1;
    pfreq_init(p);
    ptime_init(p);
    stacks_watch(p->st, watch, p);
    monitors_builtin(in->monitors, p->freq.c,
                     "counts each visible event under each component stack, "
                     "and the calls (profile freq)");
    monitors_builtin(in->monitors, p->time.c,
                     "self and total time and calls per component stack and "
                     "thread (profile time)");
    return p;
}

void profile_free(struct profile *p)
{
    if (p == NULL)
        return;
    pfreq_free(p);
    ptime_free(p);
    free(p);
}

static struct consumer *consumer(struct profile *p, enum profile_kind kind)
{
    return kind == PROFILE_FREQ ? p->freq.c : p->time.c;
}

void profile_enable(struct profile *p, enum profile_kind kind, int on)
{
    dispatch_enable(p->in->dispatch, consumer(p, kind), on);
}

int profile_enabled(const struct profile *p, enum profile_kind kind)
{
    return dispatch_enabled(consumer((struct profile *)p, kind));
}

void profile_reset(struct profile *p, enum profile_kind kind)
{
    if (kind == PROFILE_FREQ)
        pfreq_reset(p);
    else
        ptime_reset(p);
}

void profile_ended(struct profile *p)
{
    struct profile_query q;
    char *cause = NULL;

    if (!p->print_at_end)
        return;
    memset(&q, 0, sizeof q);
    if (profile_enabled(p, PROFILE_FREQ)) {
        q.kind = PROFILE_FREQ;
        q.view = PROFILE_TREE;
        if (profile_print(p, &q, &cause) != 0) {
            interp_error(p->in, "%s", cause);
            free(cause);
            cause = NULL;
        }
    }
    if (profile_enabled(p, PROFILE_TIME)) {
        q.kind = PROFILE_TIME;
        q.view = PROFILE_FLAT;
        q.limit = PROFILE_END_ROWS;
        if (profile_print(p, &q, &cause) != 0) {
            interp_error(p->in, "%s", cause);
            free(cause);
        }
    }
}
