/* SPDX-License-Identifier: MIT */
/*
 * profile-int.h - what the files of the profile family share: the data
 * of the two profiles.  Not for anyone else; see profile.h.
 */
#ifndef NOOSA_PROFILE_INT_H
#define NOOSA_PROFILE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile.h"
#include "registry.h"

struct channel;
struct consumer;
struct stacks;
struct stacks_change;

/* One count of the frequency profile: event EV (a name number of the
 * calling-context tree) under NODE.  N == 0: an empty slot. */
struct fcount {
    uint32_t node;
    uint32_t ev;
    uint64_t n;
};

struct pfreq {
    struct consumer *c;
    int using; /* holds a use of the stacks */
    struct fcount *slots; /* by (node, ev) */
    size_t mask, n;
    uint64_t *calls; /* by node */
    size_t ncalls;
    uint64_t total; /* events counted */
    /* <protocol#cct>: where it is kept: asked (PFREQ_*), and for this
     * run (in_program): the calls of functions and components are the
     * program's trees' (read with the time profile's, profile-program.c),
     * and each event's record says its thread's path there */
    int where;
    int in_program;
    /* Event code -> event name number (UINT32_MAX: not known yet), for
     * the current run, and the event it was made for (the processes of a
     * run may give one code to different events: <design#processes>). */
    unsigned int limit;
    uint32_t *evname;
    const struct registry_event **evfor;
};

/* A thread of the time profile. */
struct tthread {
    pid_t tid;
    pid_t pid;    /* its process <design#processes> */
    uint32_t cur; /* its innermost node, as last told */
    int64_t last; /* when it was last told, -1 when not since a reset */
    int64_t *self; /* by node */
    uint64_t *calls;
    size_t n;      /* nodes the arrays cover */
};

/* An enter (B) or leave (E) of the timeline. */
struct tmark {
    int64_t ns;
    int32_t tid;
    uint32_t what; /* node << 1 | 1 for a leave */
};

#define PTIME_BLOCK 65536

struct tblock {
    int refs;
    struct tmark m[PTIME_BLOCK];
};

/* Mark I of the timeline (I < nmarks). */
#define PTIME_MARK(t, i) (&(t)->blocks[(i) / PTIME_BLOCK]->m[(i) % PTIME_BLOCK])

struct ptime {
    struct consumer *c;
    int using;
    struct tthread *threads;
    size_t nthreads, cap, last;
    /* the timeline, in blocks of PTIME_BLOCK marks: a block is shared
     * with the checkpoints that saved it, and copied before a mark is
     * added to it while it is (<design#checkpoints>) */
    struct tblock **blocks;
    size_t nblocks, blocks_cap;
    size_t nmarks;
    size_t marks_limit;     /* 0: no timeline */
    uint64_t marks_dropped; /* past the limit */
    pid_t pid;              /* of the run the timeline is from */
    /* <protocol#cct>: where it is kept: asked (PTIME_*), and for this
     * run (in_program: the program's tree is defined in each process's
     * question area; PTIME_SAMPLED: a tree that keeps no time, its self
     * times sampled), and what reading it found */
    int where;
    int in_program;
    int timeline;           /* a timeline was asked for: kept in noosa */
    uint64_t program_overflow, program_unmatched, program_torn;
    struct psampler *sampler; /* PTIME_SAMPLED */
};

/* Where the time profile of functions is kept (ptime.in_program). */
enum {
    PTIME_IN_NOOSA,   /* from the records */
    PTIME_IN_PROGRAM, /* the program's trees, a clock read each call */
    PTIME_SAMPLED,    /* the program's trees, no clock: the self times are
                       * noosa's samples of each thread's current path */
    PTIME_DEFAULT     /* (ptime.where) sampled when the program can keep
                       * it and no timeline is asked for, else noosa */
};

/* Where the frequency profile is kept (pfreq.where). */
enum { PFREQ_IN_NOOSA, PFREQ_IN_PROGRAM, PFREQ_DEFAULT };

struct profile {
    struct session *session;
    struct dispatch *dispatch;
    struct sink *say;
    struct stacks *st;
    struct pfreq freq;
    struct ptime time;
    int print_at_end;
    /* why the profiles are kept in noosa by default (static text), or
     * NULL when the program keeps them (profile_place) */
    const char *place_why;
    /* <protocol#cct>: what the program's trees held when the profile
     * kept there was last reset, by kind (profile-program.c) */
    struct pzeros *zero[2]; /* by enum profile_kind */
};

/* profile-freq.c */
void pfreq_init(struct profile *p);
void pfreq_free(struct profile *p);
void pfreq_reset(struct profile *p);
/* Count the calls that the pushes among changes C[0..N) make. */
void pfreq_calls_made(struct profile *p, const struct stacks_change *c,
                      size_t n);
/* Add N calls of NODE. */
void pfreq_add_calls(struct profile *p, uint32_t node, uint64_t n);
/* N events EV counted at node NODE (the program's tree's). */
void pfreq_add_event(struct profile *p, uint32_t node, const struct registry_event *ev,
                     uint64_t n);
/* Counts of NODE for every event: call FN for each (ev, n). */
uint64_t pfreq_calls(const struct profile *p, uint32_t node);

/* profile-time.c */
void ptime_init(struct profile *p);
void ptime_free(struct profile *p);
void ptime_reset(struct profile *p);
/* Charge the time between changes C[0..N) of the stacks. */
void ptime_changes(struct profile *p, const struct stacks_change *c,
                   size_t n);
/* Thread TID, or NULL. */
struct tthread *ptime_thread(struct profile *p, pid_t tid, int add);
/* Make TH's arrays cover NODE. */
void ptime_cover(struct tthread *th, uint32_t node);
/* Keep the profile where IN says for this run (stacks, sampler, states
 * as that wants them). */
void ptime_place(struct profile *p, int in);
void pfreq_place(struct profile *p, int in);
/* profile.c: both profiles where they are asked to be kept, as this run
 * (the program, or a recording) allows. */
void profile_place(struct profile *p);

/* profile-program.c <protocol#cct> */
/* Whether EV is the built-in enter or leave, which the program's trees
 * count when a profile is kept there. */
int pprogram_event(const struct registry_event *ev);
/* The sampler of PTIME_SAMPLED: started and stopped with the mode. */
void psampler_use(struct profile *p, int on);
void psampler_free(struct profile *p);
/* Profile KIND (PROFILE_FREQ, PROFILE_TIME) kept in the program starts
 * from nothing: what its trees hold now is taken as its zero (the trees
 * themselves go on, the other profile may read them). */
void pprogram_reset(struct profile *p, int kind);
void pprogram_free(struct profile *p);
/* A new run (not a process joining one): what was of the last run's trees
 * is forgotten. */
void pprogram_started(struct profile *p);
/* What it did: samples taken, and the period in microseconds. */
uint64_t psampler_samples(const struct profile *p);
unsigned int psampler_period_us(const struct profile *p);
/* Whether this run's program can keep the profiles (when not, *WHY,
 * static, says why), defining nothing. */
int pprogram_can(struct profile *p, const char **why);
/* Whether this run counts functions in the program (defining its tree
 * there first when needed); when not, *WHY (static) says why. */
int ptime_program(struct profile *p, const char **why);
/* Read the program's trees into the threads of the time profile and the
 * calls of the frequency profile, those kept in the program (what is read
 * last is kept when the program is gone). */
void ptime_program_read(struct profile *p);

#endif /* NOOSA_PROFILE_INT_H */
