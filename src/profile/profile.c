/* SPDX-License-Identifier: MIT */
/*
 * profile.c - the two profiles as monitors: creating them, turning them
 * on and off (each holds a use of the component stacks while on), what
 * they hear from the stacks, and printing them when the program ends.
 * See profile.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "dispatch.h"
#include "session.h"
#include "sink.h"
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

    /* (during a replay's move, only a profile not absent from the
     * checkpoint restored: <design#checkpoints>) */
    if (p->freq.using && dispatch_told(p->dispatch, p->freq.c))
        pfreq_calls_made(p, c, n);
    if (p->time.using && dispatch_told(p->dispatch, p->time.c))
        ptime_changes(p, c, n);
}

struct profile *profile_create(struct stacks *st, struct session *s,
                               struct dispatch *d, struct sink *say)
{
    struct profile *p = xcalloc(1, sizeof *p);

    p->session = s;
    p->dispatch = d;
    p->say = say;
    p->st = st;
    p->print_at_end = 1;
    pfreq_init(p);
    ptime_init(p);
    stacks_watch(p->st, watch, p);
    return p;
}

void profile_free(struct profile *p)
{
    if (p == NULL)
        return;
    pfreq_free(p);
    ptime_free(p);
    pprogram_free(p);
    free(p);
}

static struct consumer *consumer(struct profile *p, enum profile_kind kind)
{
    return kind == PROFILE_FREQ ? p->freq.c : p->time.c;
}

struct consumer *profile_consumer(struct profile *p, enum profile_kind kind)
{
    return consumer(p, kind);
}

/* Why the program cannot keep the profiles by default (static text), or
 * NULL when it can: a live run whose runtime counts components and events
 * in its call trees.  USDT probes are noosa's events, which the trees
 * would miss (their components, their events). */
static const char *place_why(struct profile *p)
{
    const char *why = NULL;

    if (!pprogram_can(p, &why))
        return why != NULL ? why : "the program cannot keep it";
    if (!channel_paths(session_channel(p->session)))
        return "the program's runtime counts no component or event in its "
               "call trees (protocol 1.0.6)";
    if (session_has_probes(p->session))
        return "the program's USDT probes are noosa's events, which its call "
               "trees do not see";
    return NULL;
}

void profile_place(struct profile *p)
{
    int can, t = p->time.where, f = p->freq.where;

    p->place_why = place_why(p);
    can = p->place_why == NULL;

    if (t == PTIME_DEFAULT)
        t = can && !p->time.timeline ? PTIME_SAMPLED : PTIME_IN_NOOSA;
    if (f == PFREQ_DEFAULT)
        f = can ? PFREQ_IN_PROGRAM : PFREQ_IN_NOOSA;
    ptime_place(p, t);
    pfreq_place(p, f);
}

/* " (why the program does not keep it)" */
static const char *because(struct profile *p)
{
    static char buf[200];

    snprintf(buf, sizeof buf, " (%s)",
             p->place_why != NULL ? p->place_why : "the program cannot keep it");
    return buf;
}

void profile_status(struct profile *p)
{
    int64_t whole = 0;
    size_t i, k;
    const char *why = NULL;

    if (p->time.in_program || p->freq.in_program)
        ptime_program_read(p);
    for (i = 0; i < p->time.nthreads; i++) {
        for (k = 0; k < p->time.threads[i].n; k++)
            whole += p->time.threads[i].self[k];
    }
    sink_sayf(p->say, "frequency profile: %s, %llu events counted\n",
              profile_enabled(p, PROFILE_FREQ) ? "on" : "off",
              (unsigned long long)p->freq.total);
    sink_sayf(p->say, "time profile: %s, %zu thread%s, %.6f s\n",
              profile_enabled(p, PROFILE_TIME) ? "on" : "off",
              p->time.nthreads, p->time.nthreads == 1 ? "" : "s",
              (double)whole / 1e9);
    if (!profile_enabled(p, PROFILE_FREQ))
        ;
    else if (p->freq.in_program)
        sink_sayf(p->say, "frequency profile kept: in the program (calls "
                  "and events counted in its call trees)%s%s\n",
                  ptime_program(p, &why) ? "" : " when it can; now in noosa: ",
                  why != NULL ? why : "");
    else
        sink_sayf(p->say, "frequency profile kept: in noosa, from the records "
                  "of every enter and leave%s%s\n",
                  p->freq.where == PFREQ_IN_NOOSA ? " (as asked)" : "",
                  p->freq.where == PFREQ_IN_NOOSA ? "" : because(p));
    if (!profile_enabled(p, PROFILE_TIME))
        ;
    else if (p->time.in_program) {
        sink_sayf(p->say, "time profile kept: in the program%s%s\n",
                  ptime_program(p, &why) ? "" : " when it can; now in noosa: ",
                  why != NULL ? why : "");
        if (p->time.in_program == PTIME_SAMPLED)
            sink_sayf(p->say, "  calls counted, self time sampled every %u us: "
                      "%llu samples%s\n", psampler_period_us(p),
                      (unsigned long long)psampler_samples(p),
                      psampler_samples(p) < 100
                          ? " (few: \"profile time in program\" measures "
                            "every call, two clock reads each)"
                          : "");
        else
            sink_say(p->say, "  calls counted, self time measured at each "
                     "call (two clock reads)\n");
        if (p->time.program_overflow + p->time.program_unmatched != 0)
            sink_sayf(p->say, "  %llu calls found no room in a thread's tree, "
                      "%llu returns no call\n",
                      (unsigned long long)p->time.program_overflow,
                      (unsigned long long)p->time.program_unmatched);
    } else {
        sink_sayf(p->say, "time profile kept: in noosa, from the records of "
                  "every enter and leave%s%s\n",
                  p->time.where == PTIME_IN_NOOSA ? " (as asked)"
                  : p->time.timeline ? " (the timeline needs them)" : "",
                  p->time.where == PTIME_IN_NOOSA || p->time.timeline ? "" : because(p));
    }
    if (!p->time.in_program || p->time.nmarks > 0)
        sink_sayf(p->say, "timeline: %zu marks kept (at most %zu), %llu "
                  "dropped\n", p->time.nmarks, p->time.marks_limit,
                  (unsigned long long)p->time.marks_dropped);
    else
        sink_say(p->say, "timeline: none (\"profile timeline N\" keeps one, "
                 "from the records of every enter and leave)\n");
    sink_sayf(p->say, "printed when the program ends: %s\n",
              p->print_at_end ? "yes" : "no");
}

size_t profile_marks_limit(const struct profile *p)
{
    return p->time.marks_limit;
}

void profile_set_marks_limit(struct profile *p, size_t n)
{
    p->time.marks_limit = n;
    /* <protocol#cct>: the program keeps no order of calls: a timeline is
     * made from the records of every enter and leave */
    p->time.timeline = n > 0;
    profile_place(p);
}

size_t profile_nthreads(const struct profile *p)
{
    return p->time.nthreads;
}

int profile_thread_id(const struct profile *p, size_t i)
{
    return (int)p->time.threads[i].tid;
}

int profile_print_at_end(const struct profile *p)
{
    return p->print_at_end;
}

void profile_set_print_at_end(struct profile *p, int on)
{
    p->print_at_end = on != 0;
}

void profile_enable(struct profile *p, enum profile_kind kind, int on)
{
    dispatch_enable(p->dispatch, consumer(p, kind), on);
}

int profile_enabled(const struct profile *p, enum profile_kind kind)
{
    return dispatch_enabled(consumer((struct profile *)p, kind));
}

int profile_in_program(const struct profile *p, enum profile_kind kind)
{
    /* the place asked for, the default's being what it is where the
     * program can keep it */
    if (kind == PROFILE_FREQ)
        return p->freq.where == PFREQ_DEFAULT ? PFREQ_IN_PROGRAM : p->freq.where;
    if (p->time.where == PTIME_DEFAULT)
        return p->time.timeline ? PTIME_IN_NOOSA : PTIME_SAMPLED;
    return p->time.where;
}

void profile_set_in_program(struct profile *p, enum profile_kind kind, int on)
{
    if (kind == PROFILE_FREQ)
        p->freq.where = on != 0 ? PFREQ_IN_PROGRAM : PFREQ_IN_NOOSA;
    else
        p->time.where = on;
    profile_place(p);
}

void profile_reset(struct profile *p, enum profile_kind kind)
{
    if (kind == PROFILE_FREQ)
        pfreq_reset(p);
    else
        ptime_reset(p);
    /* kept in the program: what its trees hold now is the new zero */
    if (kind == PROFILE_FREQ ? p->freq.in_program : p->time.in_program)
        pprogram_reset(p, kind);
}

void profile_ended(struct profile *p)
{
    struct profile_query q;
    char *cause = NULL;

    /* <protocol#cct>: what the program's trees hold, while they are
     * there */
    if (p->time.in_program || p->freq.in_program)
        ptime_program_read(p);
    if (!p->print_at_end)
        return;
    memset(&q, 0, sizeof q);
    if (profile_enabled(p, PROFILE_FREQ)) {
        q.kind = PROFILE_FREQ;
        q.view = PROFILE_TREE;
        if (profile_print(p, &q, &cause) != 0) {
            sink_error(p->say, "%s", cause);
            free(cause);
            cause = NULL;
        }
    }
    if (profile_enabled(p, PROFILE_TIME)) {
        q.kind = PROFILE_TIME;
        q.view = PROFILE_FLAT;
        q.limit = PROFILE_END_ROWS;
        if (profile_print(p, &q, &cause) != 0) {
            sink_error(p->say, "%s", cause);
            free(cause);
        }
    }
}
