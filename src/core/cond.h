/* SPDX-License-Identifier: MIT */
/*
 * cond.h - conditions on an event's parameters, compiled into the bytecode
 * of a filter clause <protocol#filter>, and whole filters built from
 * clauses.  A condition is a small tree: parameters, the thread, constants,
 * comparisons, string equality and glob matching, &&, || and !.  Its
 * meaning is the plain mathematical one (an integer compared with a double
 * is compared exactly, not after rounding), which is what Tcl's expr means
 * for the same shapes; it is up to the parser of a language (cond-tcl.c)
 * to build a tree only where its language agrees.  No Tcl here.
 */
#ifndef NOOSA_COND_H
#define NOOSA_COND_H

#include <stddef.h>
#include <stdint.h>

#include "registry.h"

enum cond_kind {
    COND_PARAM,  /* parameter `index` of the event */
    COND_THREAD, /* the thread's id (n_thread) */
    COND_INT,    /* integer constant `i` */
    COND_UINT,   /* integer constant `u` above INT64_MAX: only for pointers */
    COND_DOUBLE, /* double constant `d` */
    COND_STR,    /* string constant `s` of `len` bytes (no NUL inside) */
    COND_CMP,    /* l `cmp` r, numbers by value, strings (EQ, NE) by bytes */
    COND_GLOB,   /* string l matches glob pattern r (as Tcl's string match) */
    COND_AND,
    COND_OR,
    COND_NOT     /* !l */
};

/* The same numbers as enum dapto_filter_cmp. */
enum cond_cmp {
    COND_EQ = 0, COND_NE = 1, COND_LT = 2, COND_LE = 3, COND_GT = 4, COND_GE = 5
};

struct cond {
    enum cond_kind kind;
    enum cond_cmp cmp;       /* COND_CMP */
    unsigned int index;      /* COND_PARAM */
    int64_t i;               /* COND_INT */
    uint64_t u;              /* COND_UINT */
    double d;                /* COND_DOUBLE */
    char *s;                 /* COND_STR, owned */
    size_t len;
    struct cond *l, *r;      /* operands, owned */
};

/* Builders.  Those with operands take ownership of them. */
struct cond *cond_param(unsigned int index);
struct cond *cond_thread(void);
struct cond *cond_int(int64_t i);
struct cond *cond_uint(uint64_t u);
struct cond *cond_double(double d);
struct cond *cond_str(const char *s, size_t len); /* copies S */
struct cond *cond_cmp(enum cond_cmp cmp, struct cond *l, struct cond *r);
struct cond *cond_glob(struct cond *s, struct cond *pattern);
struct cond *cond_and(struct cond *l, struct cond *r);
struct cond *cond_or(struct cond *l, struct cond *r);
struct cond *cond_not(struct cond *c);
void cond_free(struct cond *c);

/*
 * Compile C for event EV into at most SIZE bytes at OUT: a program ending
 * in DAPTO_FOP_END whose one value is non-zero where C holds.  Types are
 * checked against EV's parameters: integers (int, long, n_thread) compare
 * as signed 64-bit, pointers and user types as unsigned and only with ==
 * and != against pointers or integer constants not below 0, doubles with
 * numbers, strings only with == and != against strings and in glob
 * matching.  Returns the program's length, or -1 with *cause (caller
 * frees) saying why C cannot run in the program.
 */
int cond_compile(const struct cond *c, const struct registry_event *ev,
                 unsigned char *out, size_t size, char **cause);

/* One clause of a filter: its program (from cond_compile), the state bits
 * it adds when it fires, its hit counting and counter ids (DAPTO_CNT_NONE
 * for none). */
struct cond_clause {
    uint8_t bits;  /* DAPTO_STATE_{TRAIL,RECORD,STOP} */
    uint8_t flags; /* DAPTO_CL_* */
    uint16_t checked, passed, hits;
    uint32_t every, after, count;
    const unsigned char *prog;
    size_t prog_len;
};

/*
 * Build the struct dapto_filter of one event into at most SIZE bytes at
 * OUT: UNCOND bits, counter ids CHECKED and PASSED, and the N clauses CL
 * with their programs after them.  The size is padded to a multiple of 8
 * (filters sit at 8-aligned offsets) and may not pass DAPTO_FILTER_MAX.
 * Returns the size, or -1 with *cause.
 */
int cond_filter(uint8_t uncond, uint16_t checked, uint16_t passed,
                const struct cond_clause *cl, unsigned int n,
                unsigned char *out, size_t size, char **cause);

/*
 * A clause of -within component COMP (or, NEG, -outside it)
 * <protocol#relate>: `WITHIN COMP, [NOT,]` then the condition PROG (LEN
 * bytes, ending with END; NULL: none) under `JF`, as `&&` compiles, into
 * at most SIZE bytes at OUT.  Returns its length, or -1 when it does not
 * fit.
 */
int cond_within(unsigned int comp, int neg, const unsigned char *prog, size_t len,
                unsigned char *out, size_t size);

#endif /* NOOSA_COND_H */
