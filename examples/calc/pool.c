/* SPDX-License-Identifier: MIT */
/*
 * pool.c - pools of fixed-size objects.  A pool is a list of chunks, each
 * an array of slots twice as long as the previous one, so there are few
 * chunks and pool_owns() is cheap.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "xmalloc.h"

#define POOL_FIRST_SLOTS 64

struct pool_chunk {
    struct pool_chunk *next;
    size_t slots; /* capacity */
    size_t used;  /* slots handed out */
    max_align_t data[];
};

void pool_init(struct pool *p, size_t size)
{
    size_t a = _Alignof(max_align_t);

    p->size = (size + a - 1) / a * a;
    p->count = 0;
    p->chunks = NULL;
}

/* A zeroed object that lives until pool_free(). */
void *pool_alloc(struct pool *p)
{
    struct pool_chunk *c = p->chunks;
    unsigned char *obj;

    if (c == NULL || c->used == c->slots) {
        size_t slots = c == NULL ? POOL_FIRST_SLOTS : c->slots * 2;

        c = xmalloc(sizeof *c + slots * p->size);
        c->next = p->chunks;
        c->slots = slots;
        c->used = 0;
        p->chunks = c;
    }
    obj = (unsigned char *)c->data + c->used * p->size;
    c->used++;
    p->count++;
    memset(obj, 0, p->size);
    return obj;
}

/* Whether OBJ is the address of an object handed out by P.  Compares
 * addresses as integers, so any value may be asked about. */
int pool_owns(const struct pool *p, const void *obj)
{
    uintptr_t a = (uintptr_t)obj;
    const struct pool_chunk *c;

    for (c = p->chunks; c != NULL; c = c->next) {
        uintptr_t base = (uintptr_t)c->data;

        if (a >= base && a < base + c->used * p->size)
            return (a - base) % p->size == 0;
    }
    return 0;
}

/* Call FN on every object of P, oldest first within each chunk. */
void pool_each(struct pool *p, void (*fn)(void *obj))
{
    struct pool_chunk *c;
    size_t i;

    for (c = p->chunks; c != NULL; c = c->next) {
        for (i = 0; i < c->used; i++)
            fn((unsigned char *)c->data + i * p->size);
    }
}

/* Release every object of P at once. */
void pool_free(struct pool *p)
{
    struct pool_chunk *c, *next;

    for (c = p->chunks; c != NULL; c = next) {
        next = c->next;
        free(c);
    }
    p->chunks = NULL;
    p->count = 0;
}
