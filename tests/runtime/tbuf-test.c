/* SPDX-License-Identifier: MIT */
/*
 * tbuf-test.c - unit tests of the thread buffers <protocol#tbuf>: their
 * geometry; one owner over many laps (padding at the end of the buffer);
 * owner threads waiting for room while one reader takes from all of them,
 * every record whole and in its owner's order; overwrite mode counting
 * exactly what did not fit; buffers taken by every thread and freed once
 * their owner is gone and everything it wrote is taken; the reader
 * against buffers the program scribbled on (it says what is wrong and
 * never reads outside the buffer); a waiting owner let go; the monitor
 * woken once a quarter.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "protocol.h"
#include "region.h"
#include "tbuf.h"
#include "trec.h"
#include "unit.h"

static void make_region(struct region *reg, uint32_t count, uint32_t size,
                        uint32_t flags)
{
    struct region_geom g;

    region_geom_default(&g);
    g.ring_size = 4096;
    g.q_size = 0;
    g.trail_slots = 16;
    g.mbox_count = 2;
    g.tb_count = count;
    g.tb_size = size;
    g.flags = flags;
    trec_region(reg, &g);
}

static void test_geometry(void)
{
    struct region_geom g, bad;
    const char *cause = NULL;

    region_geom_default(&g);
    CHECK_EQ_INT(g.tb_count, 0); /* not offered unless asked */
    g.tb_count = 8;
    g.tb_size = 1u << 16;
    CHECK(region_geom_layout(&g, &cause) == 0);
    CHECK(g.tb_off % 4096 == 0);
    CHECK(g.tb_off >= g.q_off + g.q_size);
    CHECK((uint64_t)g.tb_off + region_tbuf_bytes(&g) <= g.size);
    CHECK(region_tbuf_bytes(&g) == 4096 + 8 * (1u << 16));
    CHECK(region_geom_check(&g, g.size) == NULL);
    bad = g;
    bad.tb_size = 3000;
    CHECK(region_geom_check(&bad, bad.size) != NULL);
    bad = g;
    bad.tb_size = 2048;
    CHECK(region_geom_check(&bad, bad.size) != NULL);
    bad = g;
    bad.tb_count = REGION_TBUF_COUNT_MAX + 1;
    CHECK(region_geom_check(&bad, bad.size) != NULL);
    bad = g;
    bad.tb_off = g.q_off; /* over the question area */
    CHECK(region_geom_check(&bad, bad.size) != NULL);
    bad = g;
    bad.tb_off += 64; /* not on a page */
    CHECK(region_geom_check(&bad, bad.size) != NULL);
    bad = g;
    bad.tb_off = g.size - 4096; /* past the end */
    CHECK(region_geom_check(&bad, bad.size) != NULL);
    /* an older monitor's region: none, wherever the offset says */
    bad = g;
    bad.tb_count = 0;
    bad.tb_off = 12345;
    CHECK(region_geom_check(&bad, bad.size) == NULL);
}

/* Whether take_all() lets sequence numbers jump (records lost between). */
static int gaps;

/* Take everything buffer I holds now: each record checked against NEXT
 * (per owner); returns the records taken, -1 on a bad one. */
static long take_all(struct tbuf_area *a, uint32_t i, struct tbuf_cons *c,
                     unsigned int *next, unsigned int nwho, long *pads)
{
    const unsigned char *rec;
    const char *why;
    uint32_t size;
    unsigned int who, seq;
    uint64_t pos = c->ctail;
    long n = 0;

    if (tbuf_look(a, i, c) != NULL)
        return -1;
    for (;;) {
        rec = tbuf_peek(a, i, c, pos, &size, &why);
        if (rec == NULL) {
            if (why != NULL)
                return -1;
            if (size == 0)
                break;
            pos += size;
            if (pads != NULL)
                (*pads)++;
            continue;
        }
        if (!intact(rec, size, &who, &seq) || who >= nwho ||
            (gaps ? seq < next[who] : seq != next[who]))
            return -1;
        next[who] = seq + 1;
        pos += size;
        n++;
    }
    tbuf_skip(a, i, c, pos - c->ctail);
    tbuf_release(a, i, c);
    return n;
}

/* One owner, many laps of a small buffer, records of every size: each
 * whole and in order, with padding where a record did not fit before the
 * end. */
static void test_single(void)
{
    struct region reg;
    struct tbuf_area a, ca;
    struct tbuf_prod p;
    struct tbuf_cons c;
    struct trec r;
    unsigned int next[1] = {0}, seq;
    long got = 0, n, pads = 0;

    make_region(&reg, 2, 4096, 0);
    tbuf_area_init(&a, &reg);
    tbuf_area_init(&ca, &reg);
    CHECK_EQ_INT(a.count, 2);
    CHECK_EQ_INT(a.max, 1024);
    CHECK(tbuf_claim(&a, &p, 77) == 0);
    CHECK_EQ_INT(tbuf_at(&a, 77 % 2)->owner, 77);
    tbuf_cons_init(&ca, 77 % 2, &c);
    for (seq = 0; seq < 20000; seq++) {
        make(&r, 0, seq, (seq * 37u) % 400);
        if (tbuf_put(&a, &p, &r.h) != 0)
            break;
        if (seq % 7 == 6) {
            n = take_all(&ca, 77 % 2, &c, next, 1, &pads);
            CHECK(n >= 0);
            if (n < 0)
                break;
            got += n;
        }
    }
    n = take_all(&ca, 77 % 2, &c, next, 1, &pads);
    CHECK(n >= 0);
    got += n;
    CHECK_EQ_INT(got, 20000);
    {
        /* what went back to the owner is zero */
        const unsigned char *d = tbuf_data(&a, 77 % 2);
        int zero = 1;

        for (uint32_t k = 0; k < 4096; k++)
            zero &= d[k] == 0;
        CHECK(zero);
    }
    CHECK(pads > 100);
    CHECK_EQ_INT(tbuf_at(&a, 77 % 2)->lost, 0);
    /* a record bigger than a quarter of the buffer is lost, counted */
    make(&r, 0, seq, 1030);
    CHECK(tbuf_put(&a, &p, &r.h) == -1);
    CHECK_EQ_INT(tbuf_lost_new(&ca, 77 % 2, &c), 1);
    CHECK_EQ_INT(tbuf_lost_new(&ca, 77 % 2, &c), 0);
    region_close(&reg);
}

struct owner_arg {
    struct tbuf_area *a;
    unsigned int who, count;
    int status;
};

static void *owner(void *arg)
{
    struct owner_arg *o = arg;
    struct tbuf_prod p;
    struct trec r;

    o->status = tbuf_claim(o->a, &p, 2000 + o->who);
    for (unsigned int seq = 0; o->status == 0 && seq < o->count; seq++) {
        make(&r, o->who, seq, (seq * 53u + o->who * 11u) % 300);
        if (tbuf_put(o->a, &p, &r.h) != 0)
            o->status = -2;
    }
    return NULL;
}

/* Eight owners, one reader, lossless buffers of 4 KiB: every record of
 * every owner, whole and in its order; the owners did wait for room. */
static void test_threads(void)
{
    enum { N = 8, COUNT = 30000 };
    struct region reg;
    struct tbuf_area a, ca;
    struct tbuf_cons c[N];
    struct owner_arg args[N];
    pthread_t th[N];
    unsigned int next[N] = {0};
    long total = 0, n;
    int ok = 1;

    make_region(&reg, N, 4096, 0);
    tbuf_area_init(&a, &reg);
    tbuf_area_init(&ca, &reg);
    for (uint32_t i = 0; i < N; i++)
        tbuf_cons_init(&ca, i, &c[i]);
    for (unsigned int i = 0; i < N; i++) {
        args[i] = (struct owner_arg){&a, i, COUNT, 0};
        pthread_create(&th[i], NULL, owner, &args[i]);
    }
    while (ok && total < (long)N * COUNT) {
        long round = 0;

        for (uint32_t i = 0; i < N; i++) {
            n = take_all(&ca, i, &c[i], next, N, NULL);
            if (n < 0)
                ok = 0;
            else
                round += n;
        }
        total += round;
        if (round == 0)
            usleep(200); /* a slow reader: owners wait for room */
    }
    for (unsigned int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        CHECK_EQ_INT(args[i].status, 0);
        CHECK_EQ_INT(tbuf_at(&a, i)->waiting, 0);
        CHECK_EQ_INT(tbuf_at(&a, i)->lost, 0);
        CHECK(tbuf_at(&a, i)->owner >= 2000);
    }
    CHECK(ok);
    CHECK_EQ_INT(total, (long)N * COUNT);
    region_close(&reg);
}

/* Overwrite mode, no reader: what fits is kept whole (in order, a small
 * record may still fit where a larger one did not), the rest is lost and
 * counted: kept + lost = sent. */
static void test_overwrite(void)
{
    struct region reg;
    struct tbuf_area a;
    struct tbuf_prod p;
    struct tbuf_cons c;
    struct trec r;
    unsigned int next[1] = {0};
    long kept = 0, failed = 0, first = 0, n;

    make_region(&reg, 1, 8192, DAPTO_RF_OVERWRITE);
    tbuf_area_init(&a, &reg);
    CHECK(tbuf_claim(&a, &p, 5) == 0);
    tbuf_cons_init(&a, 0, &c);
    gaps = 1;
    for (unsigned int seq = 0; seq < 5000; seq++) {
        make(&r, 0, seq, seq % 90);
        if (tbuf_put(&a, &p, &r.h) != 0)
            failed++;
        else
            kept++;
        if (seq == 2999) {
            /* the reader comes once; later records fit again */
            first = take_all(&a, 0, &c, next, 1, NULL);
            CHECK_EQ_INT(first, kept);
            CHECK(next[0] < 3000);
        }
    }
    CHECK(failed > 4000);
    CHECK_EQ_INT(kept + failed, 5000);
    CHECK_EQ_INT(tbuf_at(&a, 0)->lost, failed);
    CHECK_EQ_INT(tbuf_lost_new(&a, 0, &c), failed);
    n = take_all(&a, 0, &c, next, 1, NULL);
    CHECK(n > 0);
    CHECK_EQ_INT(first + n, kept);
    gaps = 0;
    region_close(&reg);
}

/* Every buffer taken; one more thread finds none; a buffer whose owner is
 * gone is freed only once everything it wrote is taken, and its next
 * owner goes on from where the last one stopped. */
static void test_claim_free(void)
{
    struct region reg;
    struct tbuf_area a;
    struct tbuf_prod p[3], q;
    struct tbuf_cons c;
    struct trec r;
    unsigned int next[2] = {0};

    make_region(&reg, 3, 4096, 0);
    tbuf_area_init(&a, &reg);
    CHECK(tbuf_claim(&a, &p[0], 10) == 0);
    CHECK(tbuf_claim(&a, &p[1], 11) == 0);
    CHECK(tbuf_claim(&a, &p[2], 12) == 0);
    CHECK(tbuf_claim(&a, &q, 13) == -1);
    /* owner 10 (buffer 1) writes and is gone */
    tbuf_cons_init(&a, 1, &c);
    make(&r, 0, 0, 8);
    CHECK(tbuf_put(&a, &p[0], &r.h) == 0);
    CHECK(tbuf_free(&a, 1, &c) == 0); /* not taken yet */
    CHECK_EQ_INT(take_all(&a, 1, &c, next, 2, NULL), 1);
    CHECK(tbuf_free(&a, 1, &c) == 1);
    CHECK_EQ_INT(tbuf_at(&a, 1)->owner, 0);
    CHECK(tbuf_claim(&a, &q, 13) == 0);
    CHECK(q.b == tbuf_at(&a, 1));
    CHECK(q.head == p[0].head);
    make(&r, 1, 0, 8);
    CHECK(tbuf_put(&a, &q, &r.h) == 0);
    CHECK_EQ_INT(take_all(&a, 1, &c, next, 2, NULL), 1);
    CHECK_EQ_INT(next[1], 1);
    region_close(&reg);
}

/* The reader against a buffer the program scribbled on. */
static void test_scribbled(void)
{
    struct region reg;
    struct tbuf_area a;
    struct tbuf_prod p;
    struct tbuf_cons c;
    struct dapto_tbuf *b;
    struct trec r;
    const unsigned char *rec;
    const char *why;
    uint32_t size, w[2];
    unsigned char *d;
    uint64_t h;
    unsigned int seed = 12345;

    make_region(&reg, 1, 4096, 0);
    tbuf_area_init(&a, &reg);
    b = tbuf_at(&a, 0);
    d = tbuf_data(&a, 0);
    CHECK(tbuf_claim(&a, &p, 9) == 0);
    tbuf_cons_init(&a, 0, &c);
    make(&r, 0, 0, 20);
    tbuf_put(&a, &p, &r.h);
    make(&r, 0, 1, 20);
    tbuf_put(&a, &p, &r.h);
    h = b->head;

    /* a head more than a buffer ahead of what was taken */
    b->head = 4096 + 8;
    why = tbuf_look(&a, 0, &c);
    CHECK(why != NULL && strstr(why, "head") != NULL);
    b->head = h;
    CHECK(tbuf_look(&a, 0, &c) == NULL);
    CHECK(tbuf_peek(&a, 0, &c, 0, &size, &why) != NULL && why == NULL);
    /* nothing past the head looked at */
    CHECK(tbuf_peek(&a, 0, &c, h, &size, &why) == NULL && why == NULL &&
          size == 0);
    /* a record that ends past the reader's own limit is not there yet
     * (not corrupt); within it, it is */
    c.upto = 64;
    CHECK(tbuf_peek(&a, 0, &c, 0, &size, &why) != NULL && size == 56);
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) == NULL && why == NULL &&
          size == 0);
    c.upto = c.head;
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) != NULL && size == 56);
    /* a record that does not carry its position */
    memcpy(w, d + 56, 8);
    w[1] ^= 1;
    memcpy(d + 56, w, 8);
    rec = tbuf_peek(&a, 0, &c, 56, &size, &why);
    CHECK(rec == NULL && why != NULL && strstr(why, "position") != NULL);
    w[1] ^= 1;
    /* impossible sizes: too small, not a multiple of 8, past the head,
     * larger than a quarter */
    w[0] = 16;
    memcpy(d + 56, w, 8);
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) == NULL && why != NULL);
    w[0] = 60;
    memcpy(d + 56, w, 8);
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) == NULL && why != NULL);
    w[0] = 64;
    memcpy(d + 56, w, 8);
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) == NULL && why != NULL);
    w[0] = 2048;
    memcpy(d + 56, w, 8);
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) == NULL && why != NULL);
    /* padding that does not reach the end */
    w[0] = DAPTO_TB_PAD | 56;
    memcpy(d + 56, w, 8);
    rec = tbuf_peek(&a, 0, &c, 56, &size, &why);
    CHECK(rec == NULL && why != NULL && strstr(why, "padding") != NULL);
    w[0] = 56;
    memcpy(d + 56, w, 8);
    CHECK(tbuf_peek(&a, 0, &c, 56, &size, &why) != NULL);
    /* a head that goes back */
    b->head = 8;
    CHECK(tbuf_look(&a, 0, &c) != NULL);

    /* garbage anywhere: whatever the reader answers lies inside the
     * buffer and below the head */
    for (int round = 0; round < 20000; round++) {
        uint64_t pos;

        for (int k = 0; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            d[(seed >> 8) % 4096] = (unsigned char)(seed >> 24);
        }
        seed = seed * 1103515245u + 12345u;
        c.ctail = c.ptail = (uint64_t)(seed % 20000) * 8;
        c.head = c.ctail;
        seed = seed * 1103515245u + 12345u;
        b->head = c.ctail + (seed % 5000) * 8;
        pos = c.ctail;
        if (tbuf_look(&a, 0, &c) != NULL)
            continue;
        for (int k = 0; k < 64; k++) {
            rec = tbuf_peek(&a, 0, &c, pos, &size, &why);
            if (rec != NULL) {
                CHECK(rec >= d && rec + size <= d + 4096);
                CHECK(pos + size <= b->head);
                pos += size;
            } else if (why == NULL && size != 0) {
                CHECK(((pos + size) & 4095) == 0);
                pos += size;
            } else {
                break;
            }
        }
        /* plant a record that does carry its position, sometimes */
        w[0] = 32 + 8 * (seed % 4);
        w[1] = (uint32_t)(c.ctail >> 3);
        memcpy(d + (c.ctail & 4095), w, 8);
    }
    region_close(&reg);
}

struct wait_arg {
    struct tbuf_area *a;
    struct tbuf_prod *p;
    int rc;
};

static void *waiter(void *arg)
{
    struct wait_arg *w = arg;
    struct trec r;

    make(&r, 0, 99, 100);
    w->rc = tbuf_put(w->a, w->p, &r.h);
    return NULL;
}

/* A full lossless buffer makes its owner wait; when the monitor lets the
 * program go, the owner gives its record up, counted lost. */
static void test_let_go(void)
{
    struct region reg;
    struct tbuf_area a;
    struct tbuf_prod p;
    struct wait_arg w;
    struct trec r;
    pthread_t th;
    unsigned int seq = 0;

    make_region(&reg, 1, 4096, 0);
    tbuf_area_init(&a, &reg);
    CHECK(tbuf_claim(&a, &p, 3) == 0);
    do
        make(&r, 0, seq++, 100);
    while (p.head + 136 <= 4096 && tbuf_put(&a, &p, &r.h) == 0);
    w = (struct wait_arg){&a, &p, 1};
    pthread_create(&th, NULL, waiter, &w);
    usleep(100000);
    CHECK_EQ_INT(tbuf_at(&a, 0)->waiting, 1);
    region_let_go(&reg);
    pthread_join(th, NULL);
    CHECK_EQ_INT(w.rc, -1);
    CHECK_EQ_INT(tbuf_at(&a, 0)->lost, 1);
    CHECK_EQ_INT(tbuf_at(&a, 0)->waiting, 0);
    region_close(&reg);
}

/* A sleeping monitor is woken when an owner's head passes into another
 * quarter of its buffer, not at every record. */
static void test_wake(void)
{
    struct region reg;
    struct tbuf_area a;
    struct tbuf_prod p;
    struct trec r;
    uint64_t v;
    int woken = 0;

    make_region(&reg, 1, 4096, 0);
    tbuf_area_init(&a, &reg);
    CHECK(tbuf_claim(&a, &p, 4) == 0);
    while (read(reg.eventfd, &v, sizeof v) == sizeof v)
        ;
    reg.hdr->consumer_sleeping = 1;
    for (unsigned int seq = 0; seq < 20; seq++) { /* 20 x 40 < 1024 */
        make(&r, 0, seq, 5);
        tbuf_put(&a, &p, &r.h);
        if (read(reg.eventfd, &v, sizeof v) == sizeof v)
            woken++;
    }
    CHECK_EQ_INT(woken, 0);
    CHECK_EQ_INT(reg.hdr->consumer_sleeping, 1);
    for (unsigned int seq = 20; seq < 40; seq++) {
        make(&r, 0, seq, 5);
        tbuf_put(&a, &p, &r.h);
        if (read(reg.eventfd, &v, sizeof v) == sizeof v)
            woken++;
    }
    CHECK_EQ_INT(woken, 1);
    CHECK_EQ_INT(reg.hdr->consumer_sleeping, 0);
    region_close(&reg);
}

int main(void)
{
    test_geometry();
    test_single();
    test_threads();
    test_overwrite();
    test_claim_free();
    test_scribbled();
    test_let_go();
    test_wake();
    return unit_done("tbuf-test");
}
