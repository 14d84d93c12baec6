/* SPDX-License-Identifier: MIT */
/*
 * qarea.c - the monitor's side of questions <protocol#question>: the
 * area's layout, definitions with their epochs, room for the tables in
 * each thread's slot, and reading tables entry by entry.
 */
#include "config.h"

#include <string.h>

#include "qarea.h"

static struct dapto_question_area *head(const struct qarea *qa)
{
    return (struct dapto_question_area *)(void *)qa->area;
}

static struct dapto_question *def_at(const struct qarea *qa, unsigned int i)
{
    return (struct dapto_question *)(void *)(qa->area + sizeof(struct dapto_question_area)) + i;
}

_Static_assert(sizeof(struct dapto_question) == 64, "a definition is 64 bytes");
_Static_assert(sizeof(struct dapto_qentry) == 64, "an entry's head is 64 bytes");
_Static_assert(sizeof(struct dapto_question_area) +
                   DAPTO_Q_MAX * sizeof(struct dapto_question) <= QAREA_HEAD,
               "the definitions fit their page");

int qarea_init(struct qarea *qa, const struct region *r, const char **cause)
{
    struct dapto_question_area *h;
    uint32_t slot;

    memset(qa, 0, sizeof *qa);
    if (r->geom.q_size == 0) {
        *cause = "the region has no question area";
        return -1;
    }
    if (r->geom.q_size < QAREA_HEAD + 4096) {
        *cause = "the question area is too small for a thread's tables";
        return -1;
    }
    qa->area = (unsigned char *)r->hdr + r->geom.q_off;
    qa->size = r->geom.q_size;
    slot = r->geom.q_size - QAREA_HEAD < QAREA_SLOT ? r->geom.q_size - QAREA_HEAD
                                                    : QAREA_SLOT;
    qa->slot_size = slot & ~63u;
    qa->nthreads = (r->geom.q_size - QAREA_HEAD) / qa->slot_size;
    h = head(qa);
    h->nquestions = DAPTO_Q_MAX;
    h->nthreads = qa->nthreads;
    h->slot_size = qa->slot_size;
    h->defs_off = sizeof(struct dapto_question_area);
    h->tabs_off = QAREA_HEAD;
    return 0;
}

int qarea_shape(struct dapto_question *def, uint32_t nent)
{
    uint32_t nstr = 0, i, ent;

    if (nent == 0 || nent > (1u << 20) || (nent & (nent - 1)) != 0)
        return -1;
    for (i = 0; i < def->nkeys && i < 2; i++)
        nstr += def->key[i] == DAPTO_QK_STR;
    ent = sizeof(struct dapto_qentry);
    def->text_off = ent;
    ent += nstr * DAPTO_Q_TEXT;
    def->hist_off = ent;
    if (def->flags & DAPTO_QF_HIST)
        ent += DAPTO_Q_HIST * 8;
    def->ent_size = (ent + 7) & ~7u;
    def->nent = nent;
    def->tab_size = (uint32_t)sizeof(struct dapto_qtable) + nent * def->ent_size;
    def->tab_size = (def->tab_size + 63) & ~63u;
    return 0;
}

/* The first offset in a slot where SIZE bytes overlap no table but
 * question SKIP's; UINT32_MAX when there is none. */
static uint32_t find_room(const struct qarea *qa, uint32_t size, unsigned int skip)
{
    uint32_t off = 0, i;
    int moved = 1;

    while (moved) {
        moved = 0;
        for (i = 0; i < DAPTO_Q_MAX; i++) {
            const struct dapto_question *d = &qa->def[i];

            if (i == skip || d->epoch == 0)
                continue;
            if (off < d->tab_off + d->tab_size && d->tab_off < off + (uint64_t)size) {
                off = d->tab_off + d->tab_size;
                moved = 1;
            }
        }
    }
    if ((uint64_t)off + size > qa->slot_size)
        return UINT32_MAX;
    return off;
}

/* Write definition D as question I with a new epoch. */
static void publish(struct qarea *qa, unsigned int i, struct dapto_question *d)
{
    struct dapto_question *to = def_at(qa, i);

    __atomic_store_n(&to->epoch, 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (++qa->epoch == 0)
        ++qa->epoch;
    d->epoch = qa->epoch;
    memcpy((unsigned char *)to + sizeof to->epoch, (unsigned char *)d + sizeof d->epoch,
           sizeof *d - sizeof d->epoch);
    __atomic_store_n(&to->epoch, d->epoch, __ATOMIC_RELEASE);
}

int qarea_define(struct qarea *qa, unsigned int index,
                 const struct dapto_question *def, const char **cause)
{
    struct dapto_question d = *def;
    uint32_t off;

    if (qa->area == NULL) {
        *cause = "the program has no question area";
        return -1;
    }
    if (index >= DAPTO_Q_MAX) {
        *cause = "no more questions";
        return -1;
    }
    off = find_room(qa, d.tab_size, index);
    if (off == UINT32_MAX) {
        *cause = "its table does not fit in what is left of a thread's 2 MiB";
        return -1;
    }
    d.tab_off = off;
    publish(qa, index, &d);
    qa->def[index] = d;
    return 0;
}

void qarea_reset(struct qarea *qa, unsigned int index)
{
    if (qa->area == NULL || index >= DAPTO_Q_MAX || qa->def[index].epoch == 0)
        return;
    publish(qa, index, &qa->def[index]);
}

void qarea_undefine(struct qarea *qa, unsigned int index)
{
    if (qa->area == NULL || index >= DAPTO_Q_MAX)
        return;
    __atomic_store_n(&def_at(qa, index)->epoch, 0, __ATOMIC_RELEASE);
    memset(&qa->def[index], 0, sizeof qa->def[index]);
}

uint32_t qarea_threads(const struct qarea *qa)
{
    uint32_t n;

    if (qa->area == NULL)
        return 0;
    n = __atomic_load_n(&head(qa)->next, __ATOMIC_ACQUIRE);
    return n < qa->nthreads ? n : qa->nthreads;
}

uint64_t qarea_no_slot(const struct qarea *qa)
{
    return qa->area == NULL ? 0 : __atomic_load_n(&head(qa)->no_slot, __ATOMIC_RELAXED);
}

/* Question INDEX's table in SLOT, or NULL. */
static const unsigned char *table_at(const struct qarea *qa, unsigned int index,
                                     uint32_t slot)
{
    const struct dapto_question *d;

    if (qa->area == NULL || index >= DAPTO_Q_MAX || slot >= qa->nthreads)
        return NULL;
    d = &qa->def[index];
    if (d->epoch == 0)
        return NULL;
    return qa->area + QAREA_HEAD + (size_t)slot * qa->slot_size + d->tab_off;
}

int qarea_table(const struct qarea *qa, unsigned int index, uint32_t slot,
                struct dapto_qtable *t)
{
    const unsigned char *p = table_at(qa, index, slot);
    const struct dapto_qtable *src = (const struct dapto_qtable *)(const void *)p;
    const struct dapto_question *d;

    if (p == NULL)
        return 0;
    d = &qa->def[index];
    if (__atomic_load_n(&src->check, __ATOMIC_ACQUIRE) !=
        DAPTO_Q_CHECK(d->epoch, d->tab_off))
        return 0;
    t->check = src->check;
    t->tid = __atomic_load_n(&src->tid, __ATOMIC_RELAXED);
    t->depth = __atomic_load_n(&src->depth, __ATOMIC_RELAXED);
    t->overflow = __atomic_load_n(&src->overflow, __ATOMIC_RELAXED);
    t->unmatched = __atomic_load_n(&src->unmatched, __ATOMIC_RELAXED);
    t->lost = __atomic_load_n(&src->lost, __ATOMIC_RELAXED);
    t->since = __atomic_load_n(&src->since, __ATOMIC_RELAXED);
    return 1;
}

/* Reads of an entry found inside an update before it is taken as torn. */
#define TORN_TRIES 1000

int qarea_entry(const struct qarea *qa, unsigned int index, uint32_t slot,
                uint32_t e, void *buf, int *torn)
{
    const unsigned char *p = table_at(qa, index, slot);
    const struct dapto_question *d;
    const struct dapto_qentry *src;
    uint32_t s1, s2;
    int i;

    *torn = 0;
    if (p == NULL)
        return 0;
    d = &qa->def[index];
    if (e >= d->nent)
        return 0;
    src = (const struct dapto_qentry *)(const void *)(p + sizeof(struct dapto_qtable) +
                                                      (size_t)e * d->ent_size);
    for (i = 0; i < TORN_TRIES; i++) {
        s1 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
        memcpy(buf, src, d->ent_size);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        s2 = __atomic_load_n(&src->seq, __ATOMIC_RELAXED);
        if (s1 == s2 && s1 % 2 == 0)
            break;
    }
    if (i == TORN_TRIES)
        *torn = 1;
    return ((const struct dapto_qentry *)buf)->hash != 0;
}

void qarea_window(struct qarea *qa, int closed)
{
    __atomic_store_n(&head(qa)->closed, closed ? 1u : 0u, __ATOMIC_RELAXED);
    qa->window_set = 1;
}

int qarea_window_closed(const struct qarea *qa)
{
    return __atomic_load_n(&head(qa)->closed, __ATOMIC_RELAXED) != 0;
}
