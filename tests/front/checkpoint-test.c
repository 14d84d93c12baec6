/* SPDX-License-Identifier: MIT */
/*
 * checkpoint-test.c - unit tests of a replay's checkpoints
 * (src/core/checkpoint.c, <design#checkpoints>): participants saved and
 * restored, the nearest checkpoint before a number, a participant that
 * joined or was forgotten after a checkpoint restored empty and absent
 * until the move ends, one that saves nothing, the budget (every other
 * one let go, the first and last kept; 0: only the first), a checkpoint
 * taken again at the same number, and what is given back to release.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "unit.h"

/* A participant: a counter, saved as a copy of BYTES bytes. */
struct counter {
    long value;
    size_t bytes;
    int saves, restores, releases, nulls;
};

static void *c_save(void *arg, size_t *bytes)
{
    struct counter *c = arg;
    long *v = malloc(sizeof *v);

    *v = c->value;
    *bytes = c->bytes;
    c->saves++;
    return v;
}

static void c_restore(void *arg, const void *saved)
{
    struct counter *c = arg;

    c->restores++;
    if (saved == NULL) {
        c->nulls++;
        c->value = 0;
    } else {
        c->value = *(const long *)saved;
    }
}

static void c_release(void *arg, void *saved)
{
    struct counter *c = arg;

    c->releases++;
    free(saved);
}

static const struct ckpt_ops counter_ops = {c_save, c_restore, c_release};

/* One that keeps nothing of its own (its state is another's). */
static void *n_save(void *arg, size_t *bytes)
{
    (void)arg;
    *bytes = 0;
    return NULL;
}

static const struct ckpt_ops nothing_ops = {n_save, c_restore, c_release};

static void test_restore(void)
{
    struct ckpts *ck = ckpts_create(1 << 20);
    struct counter a = {0, 100, 0, 0, 0, 0};
    struct ckpt_part *pa;

    CHECK(!ckpts_active(ck));
    CHECK(ckpts_due(ck, 0) == 0);
    pa = ckpts_join(ck, &counter_ops, &a);
    CHECK(ckpts_active(ck));
    CHECK(ckpts_due(ck, 0)); /* none yet */
    ckpts_take(ck, 0);
    a.value = 10;
    ckpts_take(ck, 1000);
    a.value = 20;
    ckpts_take(ck, 2000);
    a.value = 30;
    CHECK_EQ_INT(ckpts_count(ck), 3);
    CHECK(ckpts_bytes(ck) >= 300);
    CHECK(ckpts_due(ck, 2000) == 0); /* one is there */
    CHECK_EQ_INT(ckpts_before(ck, 1999), 1000);
    CHECK_EQ_INT(ckpts_before(ck, 2000), 2000);
    CHECK_EQ_INT(ckpts_before(ck, 5), 0);
    CHECK_EQ_INT(ckpts_at(ck, 1), 1000);
    ckpts_restore(ck, 1000);
    CHECK_EQ_INT(a.value, 10);
    CHECK(!ckpts_absent(pa));
    ckpts_restore(ck, 0);
    CHECK_EQ_INT(a.value, 0);
    ckpts_restore(ck, 2000);
    CHECK_EQ_INT(a.value, 20);
    /* one at a number taken again replaces it */
    a.value = 25;
    ckpts_take(ck, 2000);
    CHECK_EQ_INT(ckpts_count(ck), 3);
    CHECK_EQ_INT(a.releases, 1);
    a.value = 0;
    ckpts_restore(ck, 2000);
    CHECK_EQ_INT(a.value, 25);
    /* a taken out of order goes in order */
    a.value = 15;
    ckpts_take(ck, 1500);
    CHECK_EQ_INT(ckpts_at(ck, 2), 1500);
    CHECK_EQ_INT(ckpts_before(ck, 1700), 1500);
    ckpts_clear(ck);
    CHECK_EQ_INT(ckpts_count(ck), 0);
    CHECK_EQ_INT(ckpts_bytes(ck), 0);
    CHECK_EQ_INT(ckpts_before(ck, 1700), UINT64_MAX);
    CHECK_EQ_INT(a.releases, a.saves);
    ckpts_free(ck);
}

static void test_absent(void)
{
    struct ckpts *ck = ckpts_create(1 << 20);
    struct counter a = {1, 8, 0, 0, 0, 0}, b = {2, 8, 0, 0, 0, 0};
    struct counter n = {3, 0, 0, 0, 0, 0};
    struct ckpt_part *pa, *pb, *pn;

    pa = ckpts_join(ck, &counter_ops, &a);
    pn = ckpts_join(ck, &nothing_ops, &n);
    ckpts_take(ck, 0);
    /* B joins later: a checkpoint before holds nothing of it */
    pb = ckpts_join(ck, &counter_ops, &b);
    ckpts_take(ck, 100);
    a.value = b.value = 50;
    ckpts_restore(ck, 0);
    CHECK_EQ_INT(a.value, 1);
    CHECK(!ckpts_absent(pa));
    CHECK_EQ_INT(b.value, 0); /* empty */
    CHECK(ckpts_absent(pb));
    CHECK_EQ_INT(b.nulls, 1);
    /* the one that saves nothing is restored with NULL, yet present */
    CHECK(!ckpts_absent(pn));
    CHECK_EQ_INT(n.nulls, 1);
    /* a checkpoint taken while B is absent does not hold it either */
    ckpts_take(ck, 50);
    ckpts_settle(ck);
    CHECK(!ckpts_absent(pb));
    b.value = 7;
    ckpts_restore(ck, 50);
    CHECK(ckpts_absent(pb));
    CHECK_EQ_INT(b.value, 0);
    ckpts_settle(ck);
    ckpts_restore(ck, 100);
    CHECK(!ckpts_absent(pb));
    CHECK_EQ_INT(b.value, 2);
    /* forgotten: no checkpoint holds it any more */
    ckpts_forget(ck, pa);
    a.value = 9;
    ckpts_restore(ck, 100);
    CHECK(ckpts_absent(pa));
    CHECK_EQ_INT(a.value, 0);
    CHECK_EQ_INT(a.releases, a.saves);
    ckpts_settle(ck);
    /* one that leaves: what they hold of it is given back */
    ckpts_leave(ck, pb);
    CHECK_EQ_INT(b.releases, b.saves);
    ckpts_restore(ck, 100);
    CHECK_EQ_INT(b.value, 2); /* (told of nothing more) */
    /* no checkpoint at all: every one empty and absent */
    ckpts_restore(ck, UINT64_MAX);
    CHECK(ckpts_absent(pa));
    CHECK(ckpts_absent(pn));
    ckpts_free(ck);
    CHECK_EQ_INT(a.releases, a.saves);
}

static void test_budget(void)
{
    struct ckpts *ck = ckpts_create(1000);
    struct counter a = {0, 100, 0, 0, 0, 0};
    uint64_t prev;

    ckpts_join(ck, &counter_ops, &a);
    for (int i = 0; i < 40; i++) {
        a.value = i;
        ckpts_take(ck, (uint64_t)i * 10);
        CHECK(ckpts_bytes(ck) <= 1000 || ckpts_count(ck) <= 2);
    }
    /* the first and the last are kept, the others thinned evenly */
    CHECK_EQ_INT(ckpts_at(ck, 0), 0);
    CHECK_EQ_INT(ckpts_at(ck, ckpts_count(ck) - 1), 390);
    CHECK(ckpts_count(ck) >= 4);
    prev = 0;
    for (size_t i = 1; i < ckpts_count(ck); i++) {
        CHECK(ckpts_at(ck, i) > prev);
        prev = ckpts_at(ck, i);
    }
    ckpts_restore(ck, ckpts_before(ck, 395));
    CHECK_EQ_INT(a.value, 39);
    /* a budget of 0: the first only, and none more due */
    ckpts_set_budget(ck, 0);
    CHECK_EQ_INT(ckpts_count(ck), 1);
    CHECK_EQ_INT(ckpts_at(ck, 0), 0);
    CHECK(ckpts_due(ck, 5000) == 0);
    CHECK_EQ_INT(ckpts_before(ck, 395), 0);
    ckpts_free(ck);
    CHECK_EQ_INT(a.releases, a.saves);
}

int main(void)
{
    test_restore();
    test_absent();
    test_budget();
    return unit_done("checkpoint-test");
}
