/* SPDX-License-Identifier: MIT */
/*
 * question-test.c - questions <protocol#question>, both sides: the
 * monitor's area (lib/channel/qarea.c: layout, definitions, room for
 * tables, reading entries) and the runtime's counting
 * (lib/runtime/rtquestion.c): counts, sums, minimums, maximums and
 * histograms of integers and doubles, integer, string and thread keys,
 * overflow of a table, durations since a start and enter to leave with
 * mismatches and too deep nesting, a signal handler's events while its
 * thread counts, reset and redefinition, threads
 * without a slot, an entry read in the middle of an update, counting
 * straight from encoded values, the calling-context tree, and the
 * counting code on random and scribbled areas between guard pages.
 *
 *   question-test [SEED [ROUNDS]]
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dapto.h"
#include "qarea.h"
#include "region.h"
#include "rtquestion.h"
#include "unit.h"

/* An event's parameters, as the filter would give them. */
struct ev {
    int kind[4];
    int64_t i[4];
    double d[4];
    const char *s[4];
};

static int ev_arg(const void *ctx, unsigned int k, int *kind, int64_t *i, double *d,
                  struct rtq_str *s)
{
    const struct ev *e = ctx;

    if (k >= 4 || e->kind[k] == 0)
        return -1;
    *kind = e->kind[k];
    *i = e->i[k];
    *d = e->d[k];
    if (e->kind[k] == DAPTO_K_STR) {
        /* (a null pointer as the runtime reads it: "(null)") */
        s->s = (const unsigned char *)(e->s[k] != NULL ? e->s[k] : "(null)");
        s->n = (uint32_t)strlen((const char *)s->s);
    }
    return 0;
}

static uint64_t clock_now;
static unsigned long clock_reads; /* fake_now's calls */

static uint64_t fake_now(void)
{
    clock_reads++;
    return clock_now;
}

/* A region with only a question area, in memory of its own. */
static unsigned char *mem;
static struct region reg;
static struct qarea qa;

static void area_make(uint32_t size)
{
    const char *cause = NULL;

    free(mem);
    /* a new area, maybe where the last one was: the thread's checked
     * copies of definitions are not for it */
    rtq_forget();
    mem = calloc(1, sizeof(struct dapto_region) + size);
    memset(&reg, 0, sizeof reg);
    reg.hdr = (struct dapto_region *)(void *)mem;
    reg.geom.q_off = sizeof(struct dapto_region);
    reg.geom.q_size = size;
    CHECK(qarea_init(&qa, &reg, &cause) == 0);
}

static struct rtq_env env_for(unsigned char **slot)
{
    struct rtq_env e;

    e.area = mem + sizeof(struct dapto_region);
    e.size = reg.geom.q_size;
    e.slot = slot;
    e.now = fake_now;
    e.epoch = NULL;
    e.tsc = 0;
    return e;
}

static void define(unsigned int index, struct dapto_question *d, uint32_t nent)
{
    const char *cause = NULL;

    CHECK(qarea_shape(d, nent) == 0);
    d->mult = 1ull << 32; /* ns */
    CHECK(qarea_define(&qa, index, d, &cause) == 0);
}

/* Entries of question Q in slot S: the one whose key[0] is K (or any
 * when ANY), copied into E; 1 when found. */
static int entry(unsigned int q, uint32_t s, uint64_t k, int any, unsigned char *e)
{
    uint32_t i;
    int torn;

    for (i = 0; i < qa.def[q].nent; i++)
        if (qarea_entry(&qa, q, s, i, e, &torn) &&
            (any || ((struct dapto_qentry *)(void *)e)->key[0] == k))
            return 1;
    return 0;
}

static void test_counts(void)
{
    struct dapto_question d;
    unsigned char *slot = NULL;
    struct rtq_env env;
    struct ev e;
    unsigned char buf[4096];
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)buf;
    struct dapto_qtable t;
    uint64_t *hist;
    int64_t sum[3] = {0, 0, 0}, v;
    int k;

    area_make(4096 + (1u << 20));
    env = env_for(&slot);
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_INT;
    d.value_arg = 0;
    d.nkeys = 1;
    d.key[0] = DAPTO_QK_INT;
    d.key_arg[0] = 1;
    d.flags = DAPTO_QF_HIST;
    define(0, &d, 16);
    memset(&e, 0, sizeof e);
    e.kind[0] = DAPTO_K_LONG;
    e.kind[1] = DAPTO_K_INT;
    for (k = 0; k < 300; k++) {
        v = (int64_t)(k * 37 % 101) - 50;
        e.i[0] = v;
        e.i[1] = k % 3;
        sum[k % 3] += v;
        rtq_fire(&env, 0, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    }
    CHECK(slot != NULL && slot != RTQ_NO_SLOT);
    CHECK_EQ_INT(qarea_threads(&qa), 1);
    CHECK(qarea_table(&qa, 0, 0, &t) == 1);
    CHECK_EQ_INT(t.tid, 7);
    CHECK_EQ_INT(t.overflow, 0);
    for (k = 0; k < 3; k++) {
        CHECK(entry(0, 0, (uint64_t)k, 0, buf));
        CHECK_EQ_INT(qe->count, 100);
        CHECK_EQ_INT((int64_t)qe->sum, sum[k]);
        CHECK((int64_t)qe->min >= -50 && (int64_t)qe->max <= 50);
        hist = (uint64_t *)(void *)(buf + qa.def[0].hist_off);
        {
            uint64_t total = 0;
            unsigned int b;

            for (b = 0; b < DAPTO_Q_HIST; b++)
                total += hist[b];
            CHECK_EQ_INT(total, 100);
        }
    }
    /* buckets */
    CHECK_EQ_INT(rtq_bucket(0), 64);
    CHECK_EQ_INT(rtq_bucket(1), 65);
    CHECK_EQ_INT(rtq_bucket(3), 66);
    CHECK_EQ_INT(rtq_bucket(4), 67);
    CHECK_EQ_INT(rtq_bucket(-1), 63);
    CHECK_EQ_INT(rtq_bucket(-3), 62);
    CHECK_EQ_INT(rtq_bucket(INT64_MIN), 0);
    CHECK_EQ_INT(rtq_bucket(INT64_MAX), 127);

    /* a table too small: the events that do not fit are counted */
    memset(&d, 0, sizeof d);
    d.nkeys = 1;
    d.key[0] = DAPTO_QK_INT;
    d.key_arg[0] = 1;
    define(1, &d, 4);
    for (k = 0; k < 100; k++) {
        e.i[1] = k % 10;
        rtq_fire(&env, 1, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    }
    CHECK(qarea_table(&qa, 1, 0, &t) == 1);
    CHECK_EQ_INT(t.overflow, 60);

    /* doubles, string keys (longer than the text kept) and the thread */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_DOUBLE;
    d.value_arg = 2;
    d.nkeys = 2;
    d.key[0] = DAPTO_QK_STR;
    d.key_arg[0] = 3;
    d.key[1] = DAPTO_QK_TID;
    define(2, &d, 64);
    e.kind[2] = DAPTO_K_DOUBLE;
    e.kind[3] = DAPTO_K_STR;
    for (k = 0; k < 40; k++) {
        e.d[2] = k * 0.5;
        e.s[3] = k % 2 ? "short" : "a string longer than thirty-two bytes, cut";
        rtq_fire(&env, 2, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    }
    CHECK(entry(2, 0, 5, 0, buf)); /* "short": its length */
    CHECK_EQ_INT(qe->count, 20);
    CHECK_EQ_INT(qe->key[1], 7);
    CHECK(memcmp(buf + qa.def[2].text_off, "short", 5) == 0);
    {
        double s;

        memcpy(&s, &qe->sum, 8);
        CHECK(s == 200.0); /* 0.5 + 1.5 + ... + 19.5 */
    }
    CHECK(entry(2, 0, 42, 0, buf));
    CHECK(memcmp(buf + qa.def[2].text_off, "a string longer than thirty-two b", 32) == 0);
    /* an event without the key's parameter is not counted */
    e.kind[3] = 0;
    rtq_fire(&env, 2, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    CHECK(entry(2, 0, 5, 0, buf));
    CHECK_EQ_INT(qe->count, 20);
}

/* Encode integer parameters V[0..N) as a record's values: tag and 4 bytes
 * (DAPTO_K_INT) each; a string "ab" first when STR_FIRST. */
static uint32_t encode(unsigned char *b, const int32_t *v, int n, int str_first)
{
    uint32_t len = 0, two = 2;
    int k;

    if (str_first) {
        b[len] = DAPTO_K_STR;
        memcpy(b + len + 1, &two, 4);
        memcpy(b + len + 5, "ab", 3);
        len += 8;
    }
    for (k = 0; k < n; k++) {
        b[len] = DAPTO_K_INT;
        memcpy(b + len + 1, &v[k], 4);
        len += 5;
    }
    return len;
}

/* rtq_fire_vals() and rtq_fire_args() count the commonest shapes straight
 * from the encoded values or the event's arguments exactly as rtq_fire()
 * does through the callback, and leave to rtq_fire() what they cannot (no
 * plan yet, a new key, a string before the parameter in the values,
 * another shape). */
static void test_fast_vals(void)
{
    struct dapto_question d;
    unsigned char *slot = NULL, vals[64], a[4096], b[4096];
    struct rtq_env env;
    struct ev e;
    int32_t v[2];
    uint32_t len;
    int k, str, direct = 0, fallback = 0, shape, got, by_args = 0;
    union dapto_arg args[2];
    struct dapto_param params[2];

    memset(params, 0, sizeof params);
    params[0].kind = params[1].kind = DAPTO_K_INT;
    for (shape = 0; shape < 4; shape++) {
        area_make(4096 + (1u << 20));
        env = env_for(&slot);
        slot = NULL;
        /* 0: sum of n by k; 1: count by k; 2: sum of n, no key; 3: as 0
         * with 60 keys in 64 entries (collisions: the general path from
         * what was read) */
        memset(&d, 0, sizeof d);
        d.value = shape == 1 ? DAPTO_QV_NONE : DAPTO_QV_INT;
        d.nkeys = shape == 2 ? 0 : 1;
        d.key[0] = DAPTO_QK_INT;
        d.key_arg[0] = 1;
        d.flags = shape == 0 ? DAPTO_QF_HIST : 0;
        define(0, &d, 64);
        define(1, &d, 64);
        memset(&e, 0, sizeof e);
        e.kind[0] = e.kind[1] = DAPTO_K_INT;
        for (k = 0; k < 500; k++) {
            v[0] = k * 7 - 900;
            v[1] = shape == 3 ? k * 7 % 60 : k % 5;
            e.i[0] = v[0];
            e.i[1] = v[1];
            /* question 0 through the values when it can, 1 through the
             * callback only */
            str = k % 50 == 49;
            len = encode(vals, v, 2, 0);
            args[0].i = v[0];
            args[1].i = v[1];
            got = -1;
            if (!str && k % 3 == 1) {
                got = rtq_fire_args(&env, 0, DAPTO_CL_QUESTION, 3, args, params, 2);
                by_args += got == 0;
            } else if (!str) {
                got = rtq_fire_vals(&env, 0, DAPTO_CL_QUESTION, 3, vals, len);
            }
            if (got == 0) {
                direct++;
            } else {
                if (str) /* parameters behind a string: not read directly */
                    CHECK(rtq_fire_vals(&env, 0, DAPTO_CL_QUESTION, 3, vals,
                                        encode(vals, v, 2, 1)) == -1);
                fallback++;
                rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
            }
            rtq_fire(&env, 1, DAPTO_CL_QUESTION, 3, ev_arg, &e);
        }
        for (k = 0; k < (shape == 2 ? 1 : shape == 3 ? 60 : 5); k++) {
            CHECK(entry(0, 0, (uint64_t)k, shape == 2, a));
            CHECK(entry(1, 0, (uint64_t)k, shape == 2, b));
            if (shape != 3)
                CHECK_EQ_INT(((struct dapto_qentry *)(void *)a)->count,
                             shape == 2 ? 500 : 100);
            /* the same entry but for where the table is */
            CHECK(memcmp(a + 8, b + 8, qa.def[0].ent_size - 8) == 0);
        }
        /* a start of a duration is never counted directly */
        CHECK(rtq_fire_vals(&env, 0, DAPTO_CL_QSTART, 3, vals, len) == -1);
    }
    CHECK(direct > 1000);
    CHECK(by_args > 300);
    CHECK(fallback > 20);
}

/* A question counted straight from a filter's kept clause (rtq_hot_plan,
 * rtq_hot_count): planned only for its shape once the general path made
 * its entry, the same entry as rtq_fire() makes, and no longer used once
 * the question is reset. */
static void test_hot(void)
{
    struct dapto_question d;
    struct dapto_param params[3];
    union dapto_arg args[3];
    struct rtq_hot h;
    unsigned char *slot = NULL, a[4096], b[4096];
    struct rtq_env env;
    struct ev e;
    int k;

    area_make(4096 + (1u << 20));
    env = env_for(&slot);
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_INT;
    d.value_arg = 1;
    d.flags = DAPTO_QF_HIST;
    define(0, &d, 64);
    define(1, &d, 64);
    memset(params, 0, sizeof params);
    params[0].kind = DAPTO_K_STR;
    params[1].kind = DAPTO_K_LONG;
    params[2].kind = DAPTO_K_DOUBLE;
    memset(&e, 0, sizeof e);
    e.kind[0] = DAPTO_K_STR;
    e.s[0] = "x";
    e.kind[1] = DAPTO_K_LONG;
    e.kind[2] = DAPTO_K_DOUBLE;
    args[0].s = "x";
    /* nothing counted yet: no entry, no plan */
    CHECK(rtq_hot_plan(&env, 0, params, 3, &h) == -1 && h.epoch_at == NULL);
    for (k = 0; k < 300; k++) {
        e.i[1] = args[1].i = (long long)k * 1000003 - 150000000;
        if (k == 0 || !rtq_hot_count(&h, args, 3)) {
            rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
            CHECK(rtq_hot_plan(&env, 0, params, 3, &h) == 0);
            CHECK(k == 0 || k == 200);
        }
        rtq_fire(&env, 1, DAPTO_CL_QUESTION, 3, ev_arg, &e);
        if (k == 199) {
            /* both start again: the plan no longer holds */
            qarea_reset(&qa, 0);
            qarea_reset(&qa, 1);
        }
    }
    CHECK(entry(0, 0, 0, 1, a) && entry(1, 0, 0, 1, b));
    CHECK_EQ_INT(((struct dapto_qentry *)(void *)a)->count, 100);
    CHECK(memcmp(a + 8, b + 8, qa.def[0].ent_size - 8) == 0);
    /* other shapes: the value a double, two keys, a key of another kind
     * than its parameter's; no plan */
    d.value_arg = 2;
    define(0, &d, 64);
    rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
    CHECK(rtq_hot_plan(&env, 0, params, 3, &h) == -1);
    d.value_arg = 1;
    d.nkeys = 2;
    d.key[0] = d.key[1] = DAPTO_QK_TID;
    define(0, &d, 64);
    rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
    CHECK(rtq_hot_plan(&env, 0, params, 3, &h) == -1);
    d.nkeys = 1;
    d.key[0] = DAPTO_QK_INT;
    d.key_arg[0] = 0; /* a string */
    define(0, &d, 64);
    rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
    CHECK(rtq_hot_plan(&env, 0, params, 3, &h) == -1);
}

/* Questions 0 and 1 alike, of one key KEY (parameter KEY_ARG) and the
 * integer value of parameter VALUE_ARG with a histogram, in a new area;
 * the calling thread's env, its slot in *SLOT. */
static struct rtq_env hot_pair(uint32_t key, uint32_t key_arg, uint32_t value_arg,
                               unsigned char **slot)
{
    struct dapto_question d;

    area_make(4096 + (1u << 20));
    *slot = NULL; /* the thread's slot was the last area's */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_INT;
    d.value_arg = value_arg;
    d.flags = DAPTO_QF_HIST;
    d.nkeys = 1;
    d.key[0] = key;
    d.key_arg[0] = key_arg;
    define(0, &d, 64);
    define(1, &d, 64);
    return env_for(slot);
}

/* Every entry of question 0 the same as question 1's (slot 0). */
static void same_entries(void)
{
    unsigned char a[4096], b[4096];
    unsigned int i;
    int ta, tb, torn;

    for (i = 0; i < qa.def[0].nent; i++) {
        ta = qarea_entry(&qa, 0, 0, i, a, &torn);
        tb = qarea_entry(&qa, 1, 0, i, b, &torn);
        CHECK_EQ_INT(ta, tb);
        if (ta && tb)
            CHECK(memcmp(a + 8, b + 8, qa.def[0].ent_size - 8) == 0);
    }
}

/* A question of one key (an integer or string parameter, the thread)
 * with a histogram counted from a kept clause's plan: every entry the
 * same as the general path makes of the same events; new keys, and a
 * string longer than the record would hold whole, left to the general
 * path.  A string key is found again by its address (hits), never when
 * the bytes there changed (a buffer rewritten: alpha, gamma, al, alphas). */
static void test_hot_keys(void)
{
    static char mut[8];
    static const char *const words[] = {"alpha", "beta", "", "a string of more than "
                                        "thirty-two bytes, kept by its first", NULL, mut};
    static const char *const muts[] = {"alpha", "gamma", "al", "alphas"};
    static char big[2000];
    struct dapto_param params[3];
    union dapto_arg args[3];
    struct rtq_hot h;
    unsigned char *slot = NULL;
    struct rtq_env env;
    struct ev e;
    unsigned int shape;
    int k, hot;

    memset(big, 'b', sizeof big - 1);
    memset(params, 0, sizeof params);
    params[0].kind = DAPTO_K_STR;
    params[1].kind = DAPTO_K_LONG;
    params[2].kind = DAPTO_K_INT;
    for (shape = 0; shape < 3; shape++) {
        env = hot_pair(shape == 0 ? DAPTO_QK_INT : shape == 1 ? DAPTO_QK_STR : DAPTO_QK_TID,
                       shape == 0 ? 1 : 0, 2, &slot);
        memset(&e, 0, sizeof e);
        e.kind[0] = DAPTO_K_STR;
        e.kind[1] = DAPTO_K_LONG;
        e.kind[2] = DAPTO_K_INT;
        h.epoch_at = NULL;
        h.hits = 0;
        hot = 0;
        for (k = 0; k < 600; k++) {
            const char *w = k % 97 == 5 ? big : words[k % 6];

            strcpy(mut, muts[k / 7 % 4]);

            e.s[0] = args[0].s = w;
            e.i[1] = args[1].i = k % 7 - 3;
            e.i[2] = args[2].i = k * 11 - 2000;
            if (h.epoch_at != NULL && rtq_hot_count(&h, args, 3)) {
                hot++;
            } else {
                rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
                (void)rtq_hot_plan(&env, 0, params, 3, &h);
            }
            rtq_fire(&env, 1, DAPTO_CL_QUESTION, 3, ev_arg, &e);
        }
        CHECK(h.epoch_at != NULL);
        CHECK(hot > 400);
        /* (how many string keys are found by their address depends on
         * where the words are: test_hot_addr) */
        if (shape != 1)
            CHECK_EQ_INT(h.hits, 0);
        same_entries();
    }
}

/* A string key found again by its address: four buffers in turn (their
 * places among the plan's entries by address all different), the bytes
 * of one rewritten every 50 events (longer, shorter, another word of the
 * same length, one longer than an entry's text), and in place of the third, from
 * event 500 on, a word at the very end of its page (the next one not
 * readable): found by address exactly when the bytes there are those
 * last found by hashing (a text whole), every entry the same as the
 * general path makes. */
static void test_hot_addr(void)
{
    static const char *const muts[] = {"kestrel", "kestrels", "kes", "osprey",
                                       "a word of more than thirty-two bytes"};
    _Alignas(64) static char bufs[4][64];
    /* what the plan's entries by address should hold: the string last
     * found at each place by hashing, and its bytes then */
    const char *at[RTQ_HOT_ADDRS];
    char found[RTQ_HOT_ADDRS][64];
    struct dapto_param params[2];
    union dapto_arg args[2];
    struct rtq_hot h;
    unsigned char *slot = NULL;
    struct rtq_env env;
    struct ev e;
    unsigned int w, place;
    int k, general = 0, hit;
    uint64_t hits;
    char *edge;
    size_t page;

    memset(found, 0, sizeof found);
    memset(at, 0, sizeof at);
    page = (size_t)sysconf(_SC_PAGESIZE);
    edge = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(edge != MAP_FAILED && mprotect(edge + page, page, PROT_NONE) == 0);
    if (edge == MAP_FAILED)
        return;
    strcpy(edge + page - 5, "ibis");
    strcpy(bufs[0], "north");
    strcpy(bufs[1], "east");
    strcpy(bufs[2], "south");
    env = hot_pair(DAPTO_QK_STR, 0, 1, &slot);
    memset(params, 0, sizeof params);
    params[0].kind = DAPTO_K_STR;
    params[1].kind = DAPTO_K_INT;
    memset(&e, 0, sizeof e);
    e.kind[0] = DAPTO_K_STR;
    e.kind[1] = DAPTO_K_INT;
    h.epoch_at = NULL;
    h.hits = 0;
    for (k = 0; k < 1000; k++) {
        w = (unsigned int)k % 4;
        if (k % 50 == 0)
            strcpy(bufs[3], muts[k / 50 % 5]);
        e.s[0] = args[0].s = w == 2 && k >= 500 ? edge + page - 5 : bufs[w];
        e.i[1] = args[1].i = k * 7 - 300;
        place = rtq_hot_addr(args[0].s);
        hit = at[place] == args[0].s && strcmp(found[place], args[0].s) == 0;
        hits = h.hits;
        if (h.epoch_at == NULL || !rtq_hot_count(&h, args, 3)) {
            general++;
            CHECK(!hit);
            rtq_fire(&env, 0, DAPTO_CL_QUESTION, 3, ev_arg, &e);
            (void)rtq_hot_plan(&env, 0, params, 2, &h);
        } else {
            CHECK_EQ_INT(h.hits - hits, hit);
            if (!hit && strlen(args[0].s) <= DAPTO_Q_TEXT) {
                at[place] = args[0].s;
                strcpy(found[place], args[0].s);
            }
        }
        rtq_fire(&env, 1, DAPTO_CL_QUESTION, 3, ev_arg, &e);
    }
    /* each word's first event by the general path; the others by
     * address but the long word's, each rewrite's first and those after
     * another string took the place (the word at the page's end may share
     * one with a buffer: the model says which) */
    CHECK(h.epoch_at != NULL);
    CHECK_EQ_INT(general, 9);
    CHECK(h.hits > 500);
    same_entries();
    munmap(edge, 2 * page);
}

/* The calling-context tree <protocol#cct>: calls and self times per call
 * path kept from the thread's plan, the plan made again when the tree is
 * defined again (new epoch: the table cleared) and for another slot,
 * exits without an entry counted. */
static void test_cct(void)
{
    struct dapto_question d;
    unsigned char *slot = NULL, *slot2 = NULL, buf[256];
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)buf;
    struct dapto_qtable t;
    struct rtq_env env, env2;
    uint32_t i;
    int k, torn, round;
    uint64_t calls_a = 0, calls_b = 0, self_a = 0, self_b = 0, a_node = 0;

    area_make(4096 + (4u << 20));
    env = env_for(&slot);
    env2 = env_for(&slot2);
    for (round = 0; round < 2; round++) {
        memset(&d, 0, sizeof d);
        d.value = DAPTO_QV_CCT;
        define(DAPTO_Q_CCT, &d, 256);
        clock_now = 1000;
        /* a() { b(); b(); } ten times; each step 10 ns */
        for (k = 0; k < 10; k++) {
            rtq_function(&env, 1, 0xa0, 9);
            clock_now += 10;
            rtq_function(&env, 1, 0xb0, 9);
            clock_now += 10;
            rtq_function(&env, 0, 0xb0, 9);
            clock_now += 10;
            rtq_function(&env, 1, 0xb0, 9);
            clock_now += 10;
            rtq_function(&env, 0, 0xb0, 9);
            clock_now += 10;
            rtq_function(&env, 0, 0xa0, 9);
            clock_now += 10;
        }
        rtq_function(&env, 0, 0xc0, 9); /* no entry of c */
        rtq_function(&env2, 1, 0xa0, 10); /* another thread's slot */
        CHECK(qarea_table(&qa, DAPTO_Q_CCT, 0, &t) == 1);
        CHECK_EQ_INT(t.tid, 9);
        CHECK_EQ_INT(t.unmatched, 1);
        CHECK_EQ_INT(t.depth, 0);
        calls_a = calls_b = self_a = self_b = 0;
        for (i = 0; i < qa.def[DAPTO_Q_CCT].nent; i++) {
            if (!qarea_entry(&qa, DAPTO_Q_CCT, 0, i, buf, &torn) || qe->hash == 0)
                continue;
            CHECK(!torn);
            if (qe->key[1] == 0xa0) {
                CHECK_EQ_INT(qe->key[0], 0);
                calls_a += qe->count;
                self_a += qe->sum;
                a_node = i + 1;
            } else {
                CHECK_EQ_INT(qe->key[1], 0xb0);
                calls_b += qe->count;
                self_b += qe->sum;
            }
        }
        for (i = 0; i < qa.def[DAPTO_Q_CCT].nent; i++)
            if (qarea_entry(&qa, DAPTO_Q_CCT, 0, i, buf, &torn) && qe->key[1] == 0xb0)
                CHECK_EQ_INT(qe->key[0], a_node);
        /* every round from a fresh table: the same counts */
        CHECK_EQ_INT(calls_a, 10);
        CHECK_EQ_INT(calls_b, 20);
        CHECK_EQ_INT(self_a, 10 * 30);
        CHECK_EQ_INT(self_b, 20 * 10);
        CHECK(qarea_table(&qa, DAPTO_Q_CCT, 1, &t) == 1);
        CHECK_EQ_INT(t.tid, 10);
        CHECK_EQ_INT(t.depth != 0, 1);
    }
    /* a tree that keeps no time (mult 0, `profile time in sampled`):
     * the same calls and paths, no clock read, no time, `since` 0; the
     * current path in `depth` for the monitor to sample */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_CCT;
    CHECK(qarea_shape(&d, 256) == 0);
    CHECK(qarea_define(&qa, DAPTO_Q_CCT, &d, NULL) == 0);
    clock_reads = 0;
    for (k = 0; k < 10; k++) {
        rtq_function(&env, 1, 0xa0, 9);
        rtq_function(&env, 1, 0xb0, 9);
        rtq_function(&env, 0, 0xb0, 9);
        rtq_function(&env, 1, 0xb0, 9);
        CHECK(qarea_table(&qa, DAPTO_Q_CCT, 0, &t) == 1);
        CHECK(t.depth != 0 && t.depth != a_node);
        rtq_function(&env, 0, 0xb0, 9);
        CHECK(qarea_table(&qa, DAPTO_Q_CCT, 0, &t) == 1);
        CHECK_EQ_INT(t.depth, a_node);
        rtq_function(&env, 0, 0xa0, 9);
    }
    CHECK_EQ_INT(clock_reads, 0);
    CHECK(qarea_table(&qa, DAPTO_Q_CCT, 0, &t) == 1);
    CHECK_EQ_INT(t.since, 0);
    CHECK_EQ_INT(t.depth, 0);
    calls_a = calls_b = self_a = self_b = 0;
    for (i = 0; i < qa.def[DAPTO_Q_CCT].nent; i++) {
        if (!qarea_entry(&qa, DAPTO_Q_CCT, 0, i, buf, &torn) || qe->hash == 0)
            continue;
        *(qe->key[1] == 0xa0 ? &calls_a : &calls_b) += qe->count;
        self_a += qe->sum;
    }
    CHECK_EQ_INT(calls_a, 10);
    CHECK_EQ_INT(calls_b, 20);
    CHECK_EQ_INT(self_a, 0);
}

static void test_durations(void)
{
    struct dapto_question d;
    unsigned char *slot = NULL, buf[256];
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)buf;
    struct rtq_env env;
    struct dapto_qtable t;
    struct ev e;
    int k;

    area_make(4096 + (1u << 20));
    env = env_for(&slot);
    memset(&e, 0, sizeof e);
    /* since a start: two of three ends have one */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_SINCE;
    define(0, &d, 1);
    for (k = 0; k < 30; k++) {
        clock_now = 1000 + (uint64_t)k * 100;
        if (k % 3 != 0)
            rtq_fire(&env, 0, DAPTO_CL_QSTART, 1, ev_arg, &e);
        clock_now += 40;
        rtq_fire(&env, 0, DAPTO_CL_QUESTION, 1, ev_arg, &e);
    }
    CHECK(entry(0, 0, 0, 1, buf));
    CHECK_EQ_INT(qe->count, 20);
    CHECK_EQ_INT(qe->sum, 800);
    CHECK_EQ_INT(qe->min, 40);
    CHECK_EQ_INT(qe->max, 40);
    CHECK(qarea_table(&qa, 0, 0, &t) == 1);
    CHECK_EQ_INT(t.unmatched, 10);

    /* enter to leave, by name: nesting, a leave skipping an inner one,
     * a leave without enter, and deeper than the stack */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_NEST;
    d.nkeys = 1;
    d.key[0] = DAPTO_QK_STR;
    d.key_arg[0] = 0;
    define(1, &d, 16);
    e.kind[0] = DAPTO_K_STR;
#define ENTER(name, at) (e.s[0] = (name), clock_now = (at), \
                         rtq_fire(&env, 1, DAPTO_CL_QSTART, 1, ev_arg, &e))
#define LEAVE(name, at) (e.s[0] = (name), clock_now = (at), \
                         rtq_fire(&env, 1, DAPTO_CL_QUESTION, 1, ev_arg, &e))
    ENTER("outer", 10);
    ENTER("inner", 20);
    LEAVE("inner", 25);
    ENTER("inner", 30);
    LEAVE("outer", 100); /* pops inner, then outer */
    LEAVE("stray", 110);
    CHECK(entry(1, 0, 5, 0, buf)); /* inner */
    CHECK_EQ_INT(qe->count, 1);
    CHECK_EQ_INT(qe->sum, 5);
    CHECK(entry(1, 0, 5 + 0, 0, buf));
    {
        int found_outer = 0;
        uint32_t i;
        int torn;

        for (i = 0; i < qa.def[1].nent; i++)
            if (qarea_entry(&qa, 1, 0, i, buf, &torn) && qe->count == 1 && qe->sum == 90)
                found_outer = 1;
        CHECK(found_outer);
    }
    CHECK(qarea_table(&qa, 1, 0, &t) == 1);
    CHECK_EQ_INT(t.unmatched, 1);
    CHECK_EQ_INT(t.depth, 0);
    for (k = 0; k < DAPTO_Q_STACK + 5; k++)
        ENTER("r", 1000 + k);
    for (k = 0; k < DAPTO_Q_STACK + 5; k++)
        LEAVE("r", 2000 + k);
    CHECK(qarea_table(&qa, 1, 0, &t) == 1);
    CHECK_EQ_INT(t.unmatched, 1 + 5);
    CHECK_EQ_INT(t.depth, 0);
#undef ENTER
#undef LEAVE
}

static void test_lifecycle(void)
{
    struct dapto_question d;
    unsigned char *a = NULL, *b = NULL, buf[256];
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)buf;
    struct rtq_env ea, eb;
    struct dapto_qtable t;
    struct ev e;
    const char *cause = NULL;
    uint32_t i, s;
    int k, torn;

    /* room for one thread's slot only */
    area_make(4096 + 65536);
    CHECK_EQ_INT(qa.nthreads, 1);
    ea = env_for(&a);
    eb = env_for(&b);
    memset(&e, 0, sizeof e);
    memset(&d, 0, sizeof d);
    define(0, &d, 1);
    for (k = 0; k < 5; k++) {
        rtq_fire(&ea, 0, DAPTO_CL_QUESTION, 1, ev_arg, &e);
        rtq_fire(&eb, 0, DAPTO_CL_QUESTION, 2, ev_arg, &e);
    }
    CHECK(b == RTQ_NO_SLOT);
    CHECK_EQ_INT(qarea_no_slot(&qa), 5);
    CHECK(entry(0, 0, 0, 1, buf));
    CHECK_EQ_INT(qe->count, 5);
    /* reset: nothing to read until the thread counts again, from 0 */
    qarea_reset(&qa, 0);
    CHECK(qarea_table(&qa, 0, 0, &t) == 0);
    rtq_fire(&ea, 0, DAPTO_CL_QUESTION, 1, ev_arg, &e);
    CHECK(entry(0, 0, 0, 1, buf));
    CHECK_EQ_INT(qe->count, 1);
    /* an entry found in the middle of an update, every time */
    s = 0;
    {
        unsigned char *tab = mem + sizeof(struct dapto_region) + QAREA_HEAD +
                             qa.def[0].tab_off + sizeof(struct dapto_qtable);
        struct dapto_qentry *live = (struct dapto_qentry *)(void *)tab;

        live->seq |= 1;
        CHECK(qarea_entry(&qa, 0, s, 0, buf, &torn) == 1);
        CHECK(torn == 1);
        live->seq++;
        CHECK(qarea_entry(&qa, 0, s, 0, buf, &torn) == 1);
        CHECK(torn == 0);
    }
    /* room: a table larger than what is left is refused */
    memset(&d, 0, sizeof d);
    CHECK(qarea_shape(&d, 1u << 20) == 0);
    CHECK(qarea_define(&qa, 1, &d, &cause) == -1);
    /* deleted: its room is given again, its old table never read */
    qarea_undefine(&qa, 0);
    memset(&d, 0, sizeof d);
    define(2, &d, 1);
    CHECK_EQ_INT(qa.def[2].tab_off, 0);
    for (i = 0; i < 1; i++)
        CHECK(qarea_table(&qa, 2, i, &t) == 0);
    rtq_fire(&ea, 0, DAPTO_CL_QUESTION, 1, ev_arg, &e); /* question 0 is gone */
    CHECK(qarea_table(&qa, 2, 0, &t) == 0);
    rtq_fire(&ea, 2, DAPTO_CL_QUESTION, 1, ev_arg, &e);
    CHECK(entry(2, 0, 0, 1, buf));
    CHECK_EQ_INT(qe->count, 1);
}

/* A signal handler's events while its thread counts (rt_qt.busy), more
 * of them than the thread keeps one by one: those of the keys of a kept
 * one are added to it, counted whole when the thread lets go; the others
 * are counted as lost <protocol#question>. */
static void test_handlers(void)
{
    struct dapto_question d;
    unsigned char *slot = NULL, buf[4096];
    struct dapto_qentry *qe = (struct dapto_qentry *)(void *)buf;
    struct dapto_qtable t;
    struct rtq_env env;
    struct ev e;
    uint64_t *hist, total;
    double x;
    unsigned int b;
    int k;

    area_make(4096 + (1u << 20));
    env = env_for(&slot);
    /* 0: integers by an integer key, with a histogram; 1: doubles by a
     * string key; 2: durations */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_INT;
    d.nkeys = 1;
    d.key[0] = DAPTO_QK_INT;
    d.key_arg[0] = 1;
    d.flags = DAPTO_QF_HIST;
    define(0, &d, 16);
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_DOUBLE;
    d.value_arg = 2;
    d.nkeys = 1;
    d.key[0] = DAPTO_QK_STR;
    d.key_arg[0] = 3;
    define(1, &d, 16);
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_SINCE;
    define(2, &d, 4);
    memset(&e, 0, sizeof e);
    e.kind[0] = DAPTO_K_LONG;
    e.kind[1] = DAPTO_K_INT;
    e.kind[2] = DAPTO_K_DOUBLE;
    e.kind[3] = DAPTO_K_STR;
    /* the thread's own event first: its tables made */
    e.i[0] = 1000;
    e.i[1] = 5;
    rtq_fire(&env, 0, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    /* the thread counts; its handlers' events come */
    rt_qt.busy = 1;
    for (k = 0; k < 2; k++) {
        e.d[2] = k + 0.5;
        e.s[3] = "a label";
        rtq_fire(&env, 1, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    }
    for (k = 0; k < 26; k++) {
        e.i[0] = k - 3;
        rtq_fire(&env, 0, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    }
    for (k = 2; k < 5; k++) {
        e.d[2] = k + 0.5;
        e.s[3] = k == 4 ? "a label, another" : "a label";
        rtq_fire(&env, 1, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    }
    e.i[1] = 9; /* a key none kept holds */
    for (k = 0; k < 4; k++)
        rtq_fire(&env, 0, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    rtq_fire(&env, 2, DAPTO_CL_QSTART, 7, ev_arg, &e); /* not added */
    CHECK(rt_qt.ndef > 8);
    /* nothing counted yet */
    CHECK(entry(0, 0, 5, 0, buf));
    CHECK_EQ_INT(qe->count, 1);
    CHECK(!entry(1, 0, 0, 1, buf));
    /* let go: everything counted */
    rt_qt.busy = 0;
    rtq_let_go_slow();
    CHECK_EQ_INT(rt_qt.ndef, 0);
    CHECK(entry(0, 0, 5, 0, buf));
    CHECK_EQ_INT(qe->count, 27);
    CHECK_EQ_INT((int64_t)qe->sum, 1000 + 26 * 25 / 2 - 3 * 26);
    CHECK_EQ_INT((int64_t)qe->min, -3);
    CHECK_EQ_INT((int64_t)qe->max, 1000);
    hist = (uint64_t *)(void *)(buf + qa.def[0].hist_off);
    for (b = 0, total = 0; b < DAPTO_Q_HIST; b++)
        total += hist[b];
    CHECK_EQ_INT(total, 27);
    CHECK_EQ_INT(hist[rtq_bucket(-3)], 2); /* -3, -2 */
    CHECK_EQ_INT(hist[rtq_bucket(1000)], 1);
    CHECK(!entry(0, 0, 9, 0, buf));
    CHECK(qarea_table(&qa, 0, 0, &t) == 1);
    CHECK_EQ_INT(t.lost, 4);
    CHECK_EQ_INT(t.overflow, 0);
    CHECK(entry(1, 0, 7, 0, buf)); /* "a label": its length */
    CHECK_EQ_INT(qe->count, 4);
    memcpy(&x, &qe->sum, 8);
    CHECK(x == 0.5 + 1.5 + 2.5 + 3.5);
    memcpy(&x, &qe->min, 8);
    CHECK(x == 0.5);
    memcpy(&x, &qe->max, 8);
    CHECK(x == 3.5);
    /* (the same first bytes, another key: kept nowhere) */
    CHECK(!entry(1, 0, 16, 0, buf));
    CHECK(qarea_table(&qa, 1, 0, &t) == 1);
    CHECK_EQ_INT(t.lost, 1);
    CHECK(qarea_table(&qa, 2, 0, &t) == 1);
    CHECK_EQ_INT(t.lost, 1);
    /* and the next ones kept one by one again */
    rt_qt.busy = 1;
    e.i[1] = 9;
    e.i[0] = 4;
    rtq_fire(&env, 0, DAPTO_CL_QUESTION, 7, ev_arg, &e);
    rt_qt.busy = 0;
    rtq_let_go_slow();
    CHECK(entry(0, 0, 9, 0, buf));
    CHECK_EQ_INT(qe->count, 1);
    CHECK_EQ_INT((int64_t)qe->min, 4);
    CHECK(qarea_table(&qa, 0, 0, &t) == 1);
    CHECK_EQ_INT(t.lost, 4);
}

/* Random and scribbled areas between guard pages: counting never reads
 * or writes outside the area, whatever it holds. */
static void test_scribbles(unsigned int seed, int rounds)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t size = 4096 + 65536, span = ((size + (size_t)page - 1) / (size_t)page) * (size_t)page;
    unsigned char *m = mmap(NULL, span + 2 * (size_t)page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *area, *slot;
    struct rtq_env env;
    struct ev e;
    int r, k;

    CHECK(m != MAP_FAILED);
    if (m == MAP_FAILED)
        return;
    mprotect(m, (size_t)page, PROT_NONE);
    mprotect(m + (size_t)page + span, (size_t)page, PROT_NONE);
    area = m + (size_t)page + span - size;
    srand(seed);
    memset(&e, 0, sizeof e);
    e.kind[0] = DAPTO_K_INT;
    e.kind[1] = DAPTO_K_STR;
    e.s[1] = "key";
    e.kind[2] = DAPTO_K_DOUBLE;
    for (r = 0; r < rounds; r++) {
        struct dapto_question_area *h = (struct dapto_question_area *)(void *)area;
        struct dapto_question *d;

        memset(area, 0, size);
        h->nquestions = DAPTO_Q_MAX;
        h->nthreads = 1;
        h->slot_size = 65536;
        h->defs_off = sizeof *h;
        h->tabs_off = 4096;
        d = (struct dapto_question *)(void *)(area + h->defs_off);
        d->epoch = 1;
        d->value = (uint8_t)(rand() % 6);
        d->nkeys = (uint8_t)(rand() % 3);
        d->key[0] = (uint8_t)(rand() % 4);
        d->key[1] = (uint8_t)(rand() % 4);
        d->flags = (uint8_t)(rand() % 2);
        qarea_shape(d, 1u << (rand() % 8));
        d->mult = 1ull << 32;
        /* flip bytes of the header and definition, or of the table */
        for (k = 0; k < 1 + rand() % 8; k++) {
            size_t at = rand() % 2 ? (size_t)(rand() % 128)
                                   : sizeof *h + (size_t)(rand() % 64);
            area[at] = (unsigned char)rand();
        }
        env.area = area;
        env.size = (uint32_t)size;
        rtq_forget();
        slot = NULL;
        env.slot = &slot;
        env.now = fake_now;
        env.epoch = NULL;
        env.tsc = 0;
        for (k = 0; k < 20; k++) {
            e.i[0] = rand();
            rtq_fire(&env, (unsigned int)(rand() % 3), rand() % 2 ? DAPTO_CL_QUESTION
                                                                  : DAPTO_CL_QSTART,
                     3, ev_arg, &e);
            if (k == 10)
                area[4096 + (size_t)(rand() % 65536)] = (unsigned char)rand();
        }
    }
    munmap(m, span + 2 * (size_t)page);
    CHECK(1);
}

int main(int argc, char **argv)
{
    unsigned int seed = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10)
                                 : (unsigned int)getpid();
    int rounds = argc > 2 ? atoi(argv[2]) : 20000;

    printf("seed %u\n", seed);
    test_counts();
    test_durations();
    test_lifecycle();
    test_handlers();
    test_fast_vals();
    test_hot();
    test_hot_keys();
    test_hot_addr();
    test_cct();
    test_scribbles(seed, rounds);
    free(mem);
    return unit_done("question-test");
}
