/* SPDX-License-Identifier: MIT */
/*
 * relarea.c - the monitor's side of relations <protocol#relate>: the
 * area's layout, components and addresses (only ever added in a run),
 * definitions, the generation and the epoch.
 */
#include "config.h"

#include <string.h>

#include "relarea.h"

static struct dapto_rel_area *head(const struct relarea *ra)
{
    return (struct dapto_rel_area *)(void *)ra->area;
}

static const uint32_t comps_off = 256; /* after the header, 64-aligned */

static uint32_t fns_off(void)
{
    return comps_off + DAPTO_REL_COMPS * (uint32_t)sizeof(struct dapto_rel_comp);
}

static uint32_t defs_off(void)
{
    return fns_off() + DAPTO_REL_FNS * (uint32_t)sizeof(struct dapto_rel_fn);
}

_Static_assert(sizeof(struct dapto_rel_area) <= 256, "the header is before the tables");

int relarea_init(struct relarea *ra, const struct region *r, const char **cause)
{
    struct dapto_rel_area *h;

    memset(ra, 0, sizeof *ra);
    if (r->geom.rel_size == 0) {
        *cause = "the region has no relations area";
        return -1;
    }
    if (r->geom.rel_size < RELAREA_HEAD + RELAREA_SLOT) {
        *cause = "the relations area is too small for a thread's stack";
        return -1;
    }
    ra->area = (unsigned char *)r->hdr + r->geom.rel_off;
    ra->size = r->geom.rel_size;
    ra->slot_size = RELAREA_SLOT;
    ra->nthreads = (ra->size - RELAREA_HEAD) / RELAREA_SLOT;
    h = head(ra);
    h->nthreads = ra->nthreads;
    h->slot_size = ra->slot_size;
    h->tabs_off = RELAREA_HEAD;
    h->comps_off = comps_off;
    h->fns_off = fns_off();
    h->defs_off = defs_off();
    ra->gen = 2;
    ra->epoch = 1;
    h->gen = ra->gen;
    h->epoch = ra->epoch;
    return 0;
}

/* <protocol#relate>: gen odd while the tables change, even after. */
static void begin(struct relarea *ra)
{
    __atomic_store_n(&head(ra)->gen, ra->gen + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void end(struct relarea *ra)
{
    ra->gen += 2;
    if (ra->gen == 0)
        ra->gen = 2;
    __atomic_store_n(&head(ra)->gen, ra->gen, __ATOMIC_RELEASE);
}

int relarea_find(const struct relarea *ra, const char *name)
{
    unsigned int i;

    for (i = 0; i < ra->ncomps; i++)
        if (strcmp(ra->names[i], name) == 0)
            return (int)i;
    return -1;
}

int relarea_comp(struct relarea *ra, const char *name, const char **cause)
{
    struct dapto_rel_comp *c;
    size_t n = strlen(name);
    int i = relarea_find(ra, name);

    if (i >= 0)
        return i;
    if (n == 0 || n >= DAPTO_REL_NAME) {
        *cause = "a component's name is empty or longer than 119 bytes";
        return -1;
    }
    if (ra->ncomps == DAPTO_REL_COMPS) {
        *cause = "every one of the 64 components of the run is taken";
        return -1;
    }
    i = (int)ra->ncomps++;
    memcpy(ra->names[i], name, n + 1);
    c = (struct dapto_rel_comp *)(void *)(ra->area + comps_off) + i;
    begin(ra);
    memcpy(c->name, name, n + 1);
    /* the length last: a thread that sees it sees the name */
    __atomic_store_n(&c->len, (uint32_t)n, __ATOMIC_RELEASE);
    end(ra);
    return i;
}

int relarea_fn(struct relarea *ra, uint64_t addr, unsigned int comp, const char **cause)
{
    struct dapto_rel_fn *fns = (struct dapto_rel_fn *)(void *)(ra->area + fns_off());
    uint32_t h = (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 54), k, at;

    if (addr == 0 || comp >= DAPTO_REL_COMPS) {
        *cause = "no such function";
        return -1;
    }
    for (k = 0; k < DAPTO_REL_PROBES; k++) {
        at = (h + k) & (DAPTO_REL_FNS - 1);
        if (ra->fns[at].addr == addr)
            return ra->fns[at].comp == comp ? 0 : -1;
        if (ra->fns[at].addr == 0)
            break;
    }
    if (k == DAPTO_REL_PROBES) {
        *cause = "no room for more functions among the components'";
        return -1;
    }
    ra->fns[at].addr = addr;
    ra->fns[at].comp = comp;
    ra->nfns++;
    begin(ra);
    __atomic_store_n(&fns[at].comp, comp, __ATOMIC_RELAXED);
    /* the address last: a thread that finds it finds its component */
    __atomic_store_n(&fns[at].addr, addr, __ATOMIC_RELEASE);
    end(ra);
    return 0;
}

void relarea_define(struct relarea *ra, unsigned int index, const struct dapto_rel_def *def)
{
    struct dapto_rel_def *to;
    const uint64_t *w;
    uint64_t *tw;
    unsigned int k;

    if (index >= DAPTO_REL_DERIVED)
        return;
    if (def != NULL)
        ra->defs[index] = *def;
    else
        memset(&ra->defs[index], 0, sizeof ra->defs[index]);
    to = (struct dapto_rel_def *)(void *)(ra->area + defs_off()) + index;
    w = (const uint64_t *)(const void *)&ra->defs[index];
    tw = (uint64_t *)(void *)to;
    begin(ra);
    for (k = 0; k < sizeof *to / 8; k++)
        __atomic_store_n(&tw[k], w[k], __ATOMIC_RELAXED);
    end(ra);
}

void relarea_new_epoch(struct relarea *ra)
{
    if (++ra->epoch == 0)
        ra->epoch = 1;
    __atomic_store_n(&head(ra)->epoch, ra->epoch, __ATOMIC_RELEASE);
}

uint32_t relarea_state_off(unsigned int index)
{
    return (uint32_t)__builtin_offsetof(struct dapto_rel_area, state) + index;
}

uint32_t relarea_threads(const struct relarea *ra)
{
    uint32_t n;

    if (ra->area == NULL)
        return 0;
    n = __atomic_load_n(&head(ra)->next, __ATOMIC_RELAXED);
    return n < ra->nthreads ? n : ra->nthreads;
}

uint64_t relarea_no_slot(const struct relarea *ra)
{
    return ra->area != NULL ? __atomic_load_n(&head(ra)->no_slot, __ATOMIC_RELAXED) : 0;
}

int relarea_thread(const struct relarea *ra, uint32_t slot, uint32_t *tid, uint64_t *deep,
                   uint64_t *lost)
{
    const struct dapto_rel_thread *t;

    if (ra->area == NULL || slot >= relarea_threads(ra))
        return -1;
    t = (const struct dapto_rel_thread *)(const void *)(ra->area + RELAREA_HEAD +
                                                        (size_t)slot * ra->slot_size);
    *tid = __atomic_load_n(&t->tid, __ATOMIC_RELAXED);
    *deep = __atomic_load_n(&t->deep, __ATOMIC_RELAXED);
    *lost = __atomic_load_n(&t->lost, __ATOMIC_RELAXED);
    return 0;
}
