/* SPDX-License-Identifier: MIT */
/*
 * rt-target.h - what rt.dapto's operations see of rt-target.
 */
#ifndef NOOSA_RT_TARGET_H
#define NOOSA_RT_TARGET_H

#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int x;
} Blob;

extern int rt_target_counter;
extern const char rt_target_kilo[];

#endif /* NOOSA_RT_TARGET_H */
