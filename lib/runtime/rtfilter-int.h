/* SPDX-License-Identifier: MIT */
/*
 * rtfilter-int.h - what rtfilter.c (the evaluation of filters: their
 * shapes, hits, counters, the threads' caches, the event path's entries)
 * and rtfilter-run.c (the machine that runs a clause's program) share.
 * Not for use outside lib/runtime/rtfilter*.c.
 */
#ifndef NOOSA_RTFILTER_INT_H
#define NOOSA_RTFILTER_INT_H

#include <stdint.h>

#include "dapto.h"
#include "protocol.h"
#include "rtfilter.h"
#include "rtquestion.h"

/* What a program runs on: the record's values, or (ARGS not NULL) the
 * event's arguments, which the caller has found the record would hold
 * whole (rtfilter_args_fit), so that both give the same answers. */
struct run {
    const unsigned char *vals, *vend;
    const union dapto_arg *args;
    const struct dapto_param *params; /* the kinds of ARGS */
    unsigned int nargs;
    const struct rtfilter_env *env;
};

/* Comparison C (DAPTO_FCMP_*) of two values, the first less than the
 * second (LT) or equal to it (EQ). */
static inline int cmp_result(int c, int lt, int eq)
{
    switch (c) {
    case DAPTO_FCMP_EQ:
        return eq;
    case DAPTO_FCMP_NE:
        return !eq;
    case DAPTO_FCMP_LT:
        return lt;
    case DAPTO_FCMP_LE:
        return lt || eq;
    case DAPTO_FCMP_GT:
        return !lt && !eq;
    default:
        return !lt;
    }
}

/* rtfilter-run.c */

/* Whether the record of an event with parameters PARAMS (N) and
 * arguments ARGS would hold every value whole. */
int rtfilter_args_fit(const struct dapto_param *params,
                      const union dapto_arg *args, unsigned int n);
/* Value K of the record: its tag's position, or NULL. */
const unsigned char *rtfilter_value_at(const struct run *r, unsigned int k);
/* rtq_arg_fn over a struct run. */
int rtfilter_question_arg(const void *ctx, unsigned int k, int *kind,
                          int64_t *i, double *d, struct rtq_str *s);
/* Run program [PC, END): 1 when it holds, 0 when not or when it goes
 * wrong. */
int rtfilter_run(const struct run *r, const unsigned char *pc,
                 const unsigned char *end);

#endif /* NOOSA_RTFILTER_INT_H */
