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

/* The table: name addresses, claimed once by compare-and-swap, and a flag
 * set once their INTERN record is committed.  Read by intern_lookup(). */
extern const char *intern_keys[INTERN_SLOTS];
extern unsigned char intern_ready[INTERN_SLOTS];

static inline uint32_t intern_hash(const char *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;

    return (uint32_t)(h >> 52) & (INTERN_SLOTS - 1);
}

/* intern_id(), with the common case inline: NAME already has its id in
 * its first slot. */
static inline uint32_t intern_lookup(const char *name)
{
    uint32_t h = intern_hash(name);

    if (__atomic_load_n(&intern_keys[h], __ATOMIC_RELAXED) == name &&
        __atomic_load_n(&intern_ready[h], __ATOMIC_ACQUIRE))
        return h + 1;
    return intern_id(name);
}

/* The name of intern id ID, or NULL when ID is not a published id: what
 * a filter reads for an ISTR value <protocol#filter>. */
static inline const char *intern_name(uint32_t id)
{
    if (id == 0 || id > INTERN_SLOTS ||
        !__atomic_load_n(&intern_ready[id - 1], __ATOMIC_ACQUIRE))
        return NULL;
    return __atomic_load_n(&intern_keys[id - 1], __ATOMIC_RELAXED);
}

#endif /* NOOSA_INTERN_H */
