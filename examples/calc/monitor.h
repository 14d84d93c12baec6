/* SPDX-License-Identifier: MIT */
/*
 * monitor.h - what the operation bodies in calc's .dapto files share.
 * Only the monitored build includes it (through the generated headers).
 *
 * Pointers that a monitor sends back (a Node, an Environment, a Value)
 * are checked against the pools they must come from; an operation given
 * anything else fails the request with a message, as the runtime does for
 * an argument it cannot read, instead of reading through the pointer.
 */
#ifndef CALC_MONITOR_H
#define CALC_MONITOR_H

#ifdef MONITOR

#include <stdio.h>

#include <dapto.h>

/* In an operation body: unless COND holds, fail the request with MSG and
 * return. */
#define CALC_REQUIRE(cond, msg)                                             \
    do {                                                                    \
        if (!(cond)) {                                                      \
            calc_refuse(_dapto_in, (msg));                                  \
            DAPTO_RETURN;                                                   \
        }                                                                   \
    } while (0)

static inline void calc_refuse(struct dapto_in *in, const char *msg)
{
    if (in->failed)
        return;
    in->failed = 1;
    snprintf(in->message, sizeof in->message, "%s", msg);
}

#endif /* MONITOR */

#endif /* CALC_MONITOR_H */
