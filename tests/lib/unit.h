/* SPDX-License-Identifier: MIT */
/*
 * unit.h - the smallest test harness: CHECK() reports the file, line and
 * expression of a failed check and counts it; unit_done() returns the exit
 * status for the automake test driver (0 pass, 1 fail).
 */
#ifndef NOOSA_UNIT_H
#define NOOSA_UNIT_H

#include <stdio.h>

static int unit_failures;
static int unit_checks;

#define CHECK(expr)                                                         \
    do {                                                                    \
        unit_checks++;                                                      \
        if (!(expr)) {                                                      \
            unit_failures++;                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,          \
                    __LINE__, #expr);                                       \
        }                                                                   \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                  \
    do {                                                                    \
        long long unit_a_ = (long long)(a), unit_b_ = (long long)(b);       \
        unit_checks++;                                                      \
        if (unit_a_ != unit_b_) {                                           \
            unit_failures++;                                                \
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n",\
                    __FILE__, __LINE__, #a, #b, unit_a_, unit_b_);          \
        }                                                                   \
    } while (0)

static inline int unit_done(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
    return unit_failures == 0 ? 0 : 1;
}

#endif /* NOOSA_UNIT_H */
