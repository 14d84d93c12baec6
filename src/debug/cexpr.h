/* SPDX-License-Identifier: MIT */
/*
 * cexpr.h - C expressions over the program's data, as gdb's print takes
 * them: names (in the order the scope gives), literals, . -> * & [] and
 * gdb's @, casts to scalar, pointer, struct and array types, {TYPE} ADDR,
 * arithmetic with C's conversions and pointer arithmetic, comparisons,
 * logic (short-circuit), ?:, sizeof, registers ($pc, $sp, $rax ...) and
 * the value history ($, $N, $$, $$N).  Nothing is written into the
 * program and none of its functions is called.
 */
#ifndef NOOSA_CEXPR_H
#define NOOSA_CEXPR_H

#include "cvalue.h"

struct dinfo;
struct frames;

struct cscope {
    struct ctypes *types;      /* where the types expressions make go */
    struct dinfo *d;           /* NULL: no program (a recording) */
    const struct frames *fr;   /* NULL: no frames (globals only) */
    unsigned int f;            /* the selected frame */
    /* When FR is NULL: the frames, asked for the first time a name is
     * not the event's (a stop at an event unwinds only then); NULL when
     * there are none. */
    const struct frames *(*frames)(void *arg, unsigned int *f);
    int frames_asked;
    /* Names looked up before the frame's (the event's parameters): a
     * new value, or NULL. */
    struct cvalue *(*lookup)(void *arg, const char *name);
    /* The value history: $N (N > 0, REL 0), $ ($$0) and $$N (REL 1, N
     * back from the last); a copy, or NULL with *cause. */
    struct cvalue *(*history)(void *arg, long n, int rel, char **cause);
    void *arg;
    /* What to say when the program's memory or frames are wanted and
     * there are none (D or FR NULL). */
    const char *no_program;
};

/* Evaluate TEXT: 0 with *OUT (the caller frees it), or -1 with *cause in
 * gdb's words ("No symbol \"x\" in current context.", "A syntax error in
 * expression, near `...'."). */
int cexpr_eval(const struct cscope *s, const char *text, struct cvalue **out,
               char **cause);

/* The type TEXT names, when it is a type name ("struct node *"): 1 with
 * *OUT; 0 when it is not a type name; -1 with *cause. */
int cexpr_type(const struct cscope *s, const char *text, struct ctype **out,
               char **cause);

#endif /* NOOSA_CEXPR_H */
