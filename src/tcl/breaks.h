/* SPDX-License-Identifier: MIT */
/*
 * breaks.h - breakpoints on events (`break EVENT ?if COND?`, delete,
 * enable, disable) and stepping to the next visible event, as consumers
 * that put their events in the stop state.
 */
#ifndef NOOSA_BREAKS_H
#define NOOSA_BREAKS_H

#include <sys/types.h>

struct interp;
struct breaks;

struct breaks *breaks_create(struct interp *in);
void breaks_free(struct breaks *b);
void breaks_init_commands(struct breaks *b);

/* Stop at the Nth visible event from now on (N 0 or 1: the next), or
 * at a stop before it. */
void breaks_step(struct breaks *b, unsigned long n);
/* The program is stopped at a breakpoint: let it not stop there the next
 * N times it holds (gdb's continue N: N - 1); its number, or 0 when the
 * stop is not a breakpoint's. */
int breaks_ignore(struct breaks *b, unsigned long n);
/* Forget a step that did not end in a stop at an event. */
void breaks_cancel_step(struct breaks *b);

/* Print the breakpoints in the transcript. */
void breaks_list(struct breaks *b);

/* One breakpoint, for front ends that show them (strings are the
 * breakpoint's: valid until it changes). */
struct breaks_info {
    int id;
    const char *event;
    const char *cond;  /* NULL: always */
    const char *counting; /* "every N after M count K", or "" */
    int enabled;
    unsigned long hits;
    pid_t pid;         /* only in this process; 0: in all */
};

/* The number of breakpoints, and breakpoint I (0 ..) in order of id. */
unsigned int breaks_count(const struct breaks *b);
int breaks_get(const struct breaks *b, unsigned int i,
               struct breaks_info *info);
/* Where breakpoint I's condition runs ("in the program: N checked, M
 * passed", "in noosa: WHY"), or NULL without one; caller frees. */
char *breaks_where(struct breaks *b, unsigned int i);

#endif /* NOOSA_BREAKS_H */
