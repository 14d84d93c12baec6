/* SPDX-License-Identifier: MIT */
/*
 * profile.h - the frequency and time profiles, two built-in monitors
 * that aggregate in C what the program does, keyed by its component
 * stacks (stacks.h):
 *
 *  - frequency: how often each visible event happened under each stack,
 *    and how often each component was entered (its calls);
 *  - time: self and total time under each stack, per thread, with call
 *    counts, from the events' timestamps; and, up to a limit, the
 *    timeline of enters and leaves for a trace viewer.
 *
 * Each is a consumer of the dispatcher, enabled or disabled like any
 * monitor (`profile freq on` is `monitor enable frequency-profile`), and
 * uses the stacks only while enabled.  Both keep counting across runs
 * until reset.  The views (profile-view.c) turn them into rows, flat or
 * as a tree, sorted; profile-export.c writes folded stacks and Chrome
 * trace-event JSON; profile-cmd.c is the `profile` command.
 */
#ifndef NOOSA_PROFILE_H
#define NOOSA_PROFILE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct stacks;
struct session;
struct dispatch;
struct sink;
struct consumer;
struct profile;

enum profile_kind { PROFILE_FREQ, PROFILE_TIME };
enum profile_view { PROFILE_TREE, PROFILE_FLAT };
enum profile_sort {
    PROFILE_SORT_DEFAULT, /* freq: count; time flat: self; time tree: total */
    PROFILE_SORT_COUNT,   /* events (freq) or calls (time) */
    PROFILE_SORT_SELF,
    PROFILE_SORT_TOTAL,
    PROFILE_SORT_NAME
};

/* What to show. */
struct profile_query {
    enum profile_kind kind;
    enum profile_view view;
    enum profile_sort sort;
    pid_t thread;       /* time: one thread, 0 for all merged */
    pid_t pid;          /* time: the threads of one process merged, 0 for
                           those of every process */
    const char *event;  /* freq: one event (NULL: all, then the calls) */
    size_t limit;       /* rows at most per group (0: all) */
};

/* One line of a view.  For the frequency profile, rows come in groups,
 * one per event (EVENT set, "" for the calls group), each ending with a
 * total row.  For the time profile there is one group (EVENT NULL). */
struct profile_row {
    const char *event;  /* group (freq); owned by the profile */
    char *label;        /* tree: component name; flat: name; freq tree:
                           the whole stack; "(top level)" for the empty
                           stack; owned by the row */
    unsigned int depth; /* tree indentation (time tree), else 0 */
    int total_row;      /* the total of a group (freq) */
    uint32_t node;      /* tree: calling-context node; flat: name */
    uint64_t count;     /* freq: events or calls; time: calls */
    int64_t self_ns;    /* time */
    int64_t total_ns;
    double self_pct;    /* of the whole time */
    double total_pct;
};

struct profile_rows {
    struct profile_row *rows;
    size_t n, cap;
    int64_t whole_ns;     /* time: the whole time shown */
    uint64_t whole_count; /* freq: all events counted */
};

/* Create the profiles over the component stacks ST, as consumers of
 * dispatcher D (off); they print into SAY. */
struct profile *profile_create(struct stacks *st, struct session *s,
                               struct dispatch *d, struct sink *say);
void profile_free(struct profile *p);
/* The consumer of a profile (for listings of monitors). */
struct consumer *profile_consumer(struct profile *p, enum profile_kind kind);

/* Say whether each profile is on and how much it holds. */
void profile_status(struct profile *p);
/* The timeline's limit of marks kept. */
size_t profile_marks_limit(const struct profile *p);
void profile_set_marks_limit(struct profile *p, size_t n);
/* The threads of the time profile: their number, and the I-th's id. */
size_t profile_nthreads(const struct profile *p);
int profile_thread_id(const struct profile *p, size_t i);
/* Whether the profiles that are on are printed when the program ends. */
/* Where profile KIND of functions is kept: in the program's own call
 * trees <protocol#cct> (1), or in noosa from their records (0, the
 * default); the time profile also in the program's trees with its self
 * times sampled by noosa, the program reading no clock (2).  In the
 * program, the frequency profile is the calls of each call path, and
 * counts no event. */
int profile_in_program(const struct profile *p, enum profile_kind kind);
void profile_set_in_program(struct profile *p, enum profile_kind kind, int on);

int profile_print_at_end(const struct profile *p);
void profile_set_print_at_end(struct profile *p, int on);

/* Turn a profile on or off, or zero it. */
void profile_enable(struct profile *p, enum profile_kind kind, int on);
int profile_enabled(const struct profile *p, enum profile_kind kind);
void profile_reset(struct profile *p, enum profile_kind kind);

/* The program ended: print the profiles that are on (Noosa did) unless
 * printing at the end is off. */
void profile_ended(struct profile *p);

/* The rows of a view (profile-view.c).  Returns 0, or -1 with *cause
 * (an unknown thread or event).  Free with profile_rows_free(). */
int profile_rows(struct profile *p, const struct profile_query *q,
                 struct profile_rows *out, char **cause);
void profile_rows_free(struct profile_rows *r);
/* Print a view in the transcript (Noosa's format for the frequency
 * profile). */
int profile_print(struct profile *p, const struct profile_query *q,
                  char **cause);

/* Exports (profile-export.c).  Return 0, or -1 with *cause. */
enum profile_metric { PROFILE_M_AUTO, PROFILE_M_TIME, PROFILE_M_CALLS,
                      PROFILE_M_EVENTS };
int profile_export_folded(struct profile *p, FILE *f,
                          enum profile_metric metric, pid_t thread,
                          char **cause);
int profile_export_chrome(struct profile *p, FILE *f, char **cause);

#endif /* NOOSA_PROFILE_H */
