/* SPDX-License-Identifier: MIT */
/*
 * checkpoint.c - checkpoints of a replay (checkpoint.h,
 * <design#checkpoints>): a list of checkpoints by event number, each
 * holding the saved state of the participants present when it was taken;
 * over the budget, every other one is let go (the first, at the play's
 * start, and the last stay), so that they thin out evenly as a long
 * recording is played.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "clock.h"
#include "xmalloc.h"

struct ckpt_part {
    const struct ckpt_ops *ops;
    void *arg;
    int absent;
};

/* What one checkpoint holds of one participant. */
struct ckpt_state {
    struct ckpt_part *p;
    void *saved;
    size_t bytes;
};

struct ckpt {
    uint64_t seq;
    struct ckpt_state *st;
    size_t n;
    size_t bytes;
};

struct ckpts {
    struct ckpt_part **parts;
    size_t nparts;
    struct ckpt *list; /* by seq */
    size_t n, cap;
    size_t bytes, budget;
    uint64_t last_ns;   /* when the last one was taken (its end) */
    uint64_t last_cost; /* what taking it cost, ns */
    uint64_t last_seq;  /* where */
    uint64_t every;     /* events between them (0: by time) */
};

struct ckpts *ckpts_create(size_t budget)
{
    struct ckpts *ck = xcalloc(1, sizeof *ck);

    ck->budget = budget;
    return ck;
}

static void ckpt_drop(struct ckpts *ck, struct ckpt *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->st[i].saved != NULL)
            c->st[i].p->ops->release(c->st[i].p->arg, c->st[i].saved);
    free(c->st);
    ck->bytes -= c->bytes;
    memset(c, 0, sizeof *c);
}

void ckpts_clear(struct ckpts *ck)
{
    for (size_t i = 0; i < ck->n; i++)
        ckpt_drop(ck, &ck->list[i]);
    ck->n = 0;
    ck->last_ns = 0;
}

void ckpts_free(struct ckpts *ck)
{
    if (ck == NULL)
        return;
    ckpts_clear(ck);
    free(ck->list);
    for (size_t i = 0; i < ck->nparts; i++)
        free(ck->parts[i]);
    free(ck->parts);
    free(ck);
}

struct ckpt_part *ckpts_join(struct ckpts *ck, const struct ckpt_ops *ops,
                             void *arg)
{
    struct ckpt_part *p = xcalloc(1, sizeof *p);

    p->ops = ops;
    p->arg = arg;
    ck->parts = xreallocarray(ck->parts, ck->nparts + 1, sizeof *ck->parts);
    ck->parts[ck->nparts++] = p;
    return p;
}

void ckpts_forget(struct ckpts *ck, struct ckpt_part *p)
{
    for (size_t i = 0; i < ck->n; i++) {
        struct ckpt *c = &ck->list[i];

        for (size_t j = 0; j < c->n; j++) {
            if (c->st[j].p != p)
                continue;
            if (c->st[j].saved != NULL)
                p->ops->release(p->arg, c->st[j].saved);
            c->bytes -= c->st[j].bytes;
            ck->bytes -= c->st[j].bytes;
            c->st[j] = c->st[--c->n];
            break;
        }
    }
}

void ckpts_leave(struct ckpts *ck, struct ckpt_part *p)
{
    if (p == NULL)
        return;
    ckpts_forget(ck, p);
    for (size_t i = 0; i < ck->nparts; i++) {
        if (ck->parts[i] == p) {
            ck->parts[i] = ck->parts[--ck->nparts];
            break;
        }
    }
    free(p);
}

int ckpts_absent(const struct ckpt_part *p)
{
    return p->absent;
}

int ckpts_active(const struct ckpts *ck)
{
    return ck->nparts > 0;
}

/* Over the budget: let go of every other checkpoint but the first and
 * the last, until it holds (or two are left); with a budget of 0, of all
 * but the first. */
static void ckpts_thin(struct ckpts *ck)
{
    if (ck->budget == 0) {
        for (size_t i = 1; i < ck->n; i++)
            ckpt_drop(ck, &ck->list[i]);
        if (ck->n > 1)
            ck->n = 1;
        return;
    }
    while (ck->bytes > ck->budget && ck->n > 2) {
        size_t j = 1;

        for (size_t i = 1; i < ck->n; i++) {
            if (i % 2 == 1 && i + 1 < ck->n)
                ckpt_drop(ck, &ck->list[i]);
            else
                ck->list[j++] = ck->list[i];
        }
        ck->n = j;
    }
}

int ckpts_due(const struct ckpts *ck, uint64_t seq)
{
    uint64_t now, wait;
    size_t i;

    if (!ckpts_active(ck))
        return 0;
    if (ck->n == 0)
        return 1;
    if (ck->budget == 0)
        return 0;
    for (i = 0; i < ck->n; i++)
        if (ck->list[i].seq == seq)
            return 0;
    if (ck->every > 0)
        return seq >= ck->last_seq + ck->every || seq + ck->every <= ck->last_seq;
    now = clock_monotonic_ns();
    wait = ck->last_cost * 20 > CKPTS_SPACING_NS ? ck->last_cost * 20
                                                 : CKPTS_SPACING_NS;
    return now - ck->last_ns >= wait;
}

void ckpts_take(struct ckpts *ck, uint64_t seq)
{
    uint64_t t0 = clock_monotonic_ns();
    struct ckpt c;
    size_t i;

    if (!ckpts_active(ck))
        return;
    memset(&c, 0, sizeof c);
    c.seq = seq;
    c.st = xcalloc(ck->nparts, sizeof *c.st);
    for (i = 0; i < ck->nparts; i++) {
        struct ckpt_part *p = ck->parts[i];
        struct ckpt_state *s = &c.st[c.n];

        if (p->absent)
            continue;
        s->p = p;
        s->bytes = 0;
        s->saved = p->ops->save != NULL ? p->ops->save(p->arg, &s->bytes)
                                        : NULL;
        s->bytes += sizeof *s;
        c.bytes += s->bytes;
        c.n++;
    }
    /* in order of numbers (one at the same number is replaced) */
    for (i = 0; i < ck->n && ck->list[i].seq < seq; i++)
        ;
    if (i < ck->n && ck->list[i].seq == seq) {
        ckpt_drop(ck, &ck->list[i]);
    } else {
        ck->list = xgrow(ck->list, ck->n, &ck->cap, sizeof *ck->list);
        memmove(&ck->list[i + 1], &ck->list[i],
                (ck->n - i) * sizeof *ck->list);
        ck->n++;
    }
    ck->list[i] = c;
    ck->bytes += c.bytes;
    ckpts_thin(ck);
    ck->last_ns = clock_monotonic_ns();
    ck->last_cost = ck->last_ns - t0;
    ck->last_seq = seq;
}

void ckpts_set_every(struct ckpts *ck, uint64_t events)
{
    ck->every = events;
}

uint64_t ckpts_every(const struct ckpts *ck)
{
    return ck->every;
}

uint64_t ckpts_before(const struct ckpts *ck, uint64_t seq)
{
    uint64_t best = UINT64_MAX;

    for (size_t i = 0; i < ck->n && ck->list[i].seq <= seq; i++)
        best = ck->list[i].seq;
    return best;
}

void ckpts_restore(struct ckpts *ck, uint64_t seq)
{
    const struct ckpt *c = NULL;

    for (size_t i = 0; i < ck->n; i++)
        if (ck->list[i].seq == seq)
            c = &ck->list[i];
    for (size_t i = 0; i < ck->nparts; i++) {
        struct ckpt_part *p = ck->parts[i];
        const struct ckpt_state *s = NULL;

        for (size_t j = 0; c != NULL && j < c->n; j++)
            if (c->st[j].p == p)
                s = &c->st[j];
        p->absent = s == NULL;
        p->ops->restore(p->arg, s != NULL ? s->saved : NULL);
    }
}

void ckpts_settle(struct ckpts *ck)
{
    for (size_t i = 0; i < ck->nparts; i++)
        ck->parts[i]->absent = 0;
}

size_t ckpts_count(const struct ckpts *ck)
{
    return ck->n;
}

size_t ckpts_bytes(const struct ckpts *ck)
{
    return ck->bytes;
}

size_t ckpts_budget(const struct ckpts *ck)
{
    return ck->budget;
}

void ckpts_set_budget(struct ckpts *ck, size_t budget)
{
    ck->budget = budget;
    ckpts_thin(ck);
}

uint64_t ckpts_at(const struct ckpts *ck, size_t i)
{
    return i < ck->n ? ck->list[i].seq : UINT64_MAX;
}
