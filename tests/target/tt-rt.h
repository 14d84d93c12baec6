/* SPDX-License-Identifier: MIT */
/*
 * tt-rt.h - types and state used by the operations of tt.dapto.
 */
#ifndef TT_RT_H
#define TT_RT_H

#include <string.h>

struct thing {
    int id;
};
typedef struct thing *Thing;
typedef struct opaque *Opaque;

#define DAPTO_RESULTThing(t) DAPTO_RESULT_INT((t)->id)

extern volatile int tt_step;

#endif /* TT_RT_H */
