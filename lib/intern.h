/* SPDX-License-Identifier: MIT */
/*
 * intern.h - interning of component names by address <protocol#intern>:
 * the first time a name pointer is seen, a DAPTO_REC_INTERN record gives
 * its id and text; from then on the id travels instead (ISTR).
 */
#ifndef NOOSA_INTERN_H
#define NOOSA_INTERN_H

#include <stdint.h>

/* Slots of the fixed table, and how far a lookup probes. */
#define INTERN_SLOTS 4096u
#define INTERN_PROBES 32u

/* The id of NAME (1..INTERN_SLOTS), writing its INTERN record first when
 * it is new; 0 when NAME must travel as a string (table full, ring in
 * overwrite mode, not attached, or its record could not be written).
 * Lock-free and async-signal-safe; an id is returned only once its INTERN
 * record is committed, so every ISTR follows its definition in the ring. */
uint32_t intern_id(const char *name);

#endif /* NOOSA_INTERN_H */
