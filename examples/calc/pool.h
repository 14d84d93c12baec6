/* SPDX-License-Identifier: MIT */
/*
 * pool.h - pools of fixed-size objects (nodes, environments, bindings,
 * values).  Objects are only released all together, when the program ends,
 * so every pointer that an event reported stays valid while the program
 * runs and a monitor can browse it at any later stop.  pool_owns() tells
 * whether an address a monitor sends back is really one of the pool's
 * objects, so operations can refuse anything else instead of reading
 * through it.
 */
#ifndef CALC_POOL_H
#define CALC_POOL_H

#include <stddef.h>

struct pool_chunk;

struct pool {
    size_t size;               /* bytes per object, rounded for alignment */
    size_t count;              /* objects handed out */
    struct pool_chunk *chunks; /* newest first; each twice the previous */
};

void pool_init(struct pool *p, size_t size);
void *pool_alloc(struct pool *p);
int pool_owns(const struct pool *p, const void *obj);
void pool_each(struct pool *p, void (*fn)(void *obj));
void pool_free(struct pool *p);

#endif /* CALC_POOL_H */
