/* SPDX-License-Identifier: MIT */
/*
 * filter-test.c - filters and counters <protocol#filter>
 * <protocol#counters>, both sides: the monitor's area, space policy,
 * check and counter sums (lib/channel/filter.c), and the runtime's
 * evaluator (lib/runtime/rtfilter.c) on filters assembled by hand
 * (fbuild.c): every opcode and comparison, strings and globs, the thread,
 * short-circuit jumps, hit counting, several clauses, counters across
 * threads, the check refusing each kind of malformed filter, and the
 * evaluator on random and flipped bytes between guard pages.  The tests
 * of the evaluator run twice: on the records, then on the events'
 * arguments before encoding (rtfilter_eval_args), which must say exactly
 * what the records say, counters included, or leave the record to decide
 * when it would not hold every argument whole.
 *
 *   filter-test [SEED [ROUNDS]]    the random part's seed and length
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "dapto.h"
#include "fbuild.h"
#include "filter.h"
#include "region.h"
#include "rtfilter.h"
#include "unit.h"

#define NCODES 64

static struct region reg;
static struct filter_space fs;
static struct filter_entry entries[NCODES];
static unsigned char fbuf[DAPTO_FILTER_MAX];
static char msg[256];

/* A record's values, encoded as the runtime encodes them, and the same
 * event's arguments as an encoder hands them to its filter (dapto.h);
 * RAW when the record was changed by hand (it no longer says what the
 * arguments say). */
struct rec {
    _Alignas(8) unsigned char buf[DAPTO_EVENT_MAX];
    struct dapto_out o;
    unsigned char kinds[DAPTO_FILTER_ARGS];
    unsigned int n;
    union dapto_arg args[DAPTO_FILTER_ARGS];
    struct dapto_param params[DAPTO_FILTER_ARGS];
    struct dapto_event ev;
    int raw;
};

/* Evaluate on the arguments (1) or on the records (0). */
static int via_args;
/* Evaluations on the arguments that left the decision to the record. */
static unsigned long to_record;

static void rec_begin(struct rec *r)
{
    dapto_event_begin(&r->o, r->buf, sizeof r->buf, NULL, 0);
    r->n = 0;
    r->raw = 0;
    memset(&r->ev, 0, sizeof r->ev);
    r->ev.params = r->params;
}

static void rec_arg(struct rec *r, unsigned char kind)
{
    r->params[r->n].kind = kind;
    r->kinds[r->n++] = kind;
    r->ev.nparams = (unsigned short)r->n;
}

static void rec_int(struct rec *r, int v)
{
    dapto_put_int(&r->o, v);
    r->args[r->n].i = v;
    rec_arg(r, DAPTO_K_INT);
}

static void rec_long(struct rec *r, long v)
{
    dapto_put_long(&r->o, v);
    r->args[r->n].i = v;
    rec_arg(r, DAPTO_K_LONG);
}

static void rec_double(struct rec *r, double v)
{
    dapto_put_double(&r->o, v);
    r->args[r->n].d = v;
    rec_arg(r, DAPTO_K_DOUBLE);
}

static void rec_str(struct rec *r, const char *s)
{
    dapto_put_str(&r->o, s);
    r->args[r->n].s = s;
    rec_arg(r, DAPTO_K_STR);
}

static void rec_ptr(struct rec *r, uint64_t p)
{
    dapto_put_fixed(&r->o, DAPTO_K_PTR, &p, 8);
    r->args[r->n].i = (long long)p;
    rec_arg(r, DAPTO_K_PTR);
}

static const unsigned char *rec_vals(const struct rec *r)
{
    return r->o.base + DAPTO_RECORD_HEADER;
}

static uint32_t rec_len(const struct rec *r)
{
    return (uint32_t)(r->o.p - rec_vals(r));
}

/* Interned names for ISTR values: 3 is "beta". */
static const char *istr(uint32_t id, uint32_t *len)
{
    if (id != 3)
        return NULL;
    *len = 4;
    return "beta";
}

static uint64_t *slot0(void)
{
    return (uint64_t *)(void *)((unsigned char *)reg.hdr + reg.geom.cnt_off);
}

/* The components on the thread's stack that WITHIN reads, and the parts
 * handed over by PART clauses <protocol#relate>. */
static uint64_t test_mask;
static unsigned int nparts, part_def, part_role;
static int64_t part_arg0;

static uint64_t within_fn(void)
{
    return test_mask;
}

static void part_fn(unsigned int def, unsigned int role, rtq_arg_fn arg, const void *ctx)
{
    struct rtq_str str;
    double d;
    int kind;

    nparts++;
    part_def = def;
    part_role = role;
    part_arg0 = -1;
    if (arg(ctx, 0, &kind, &part_arg0, &d, &str) != 0 || kind != DAPTO_K_INT)
        part_arg0 = -2;
}

static void env_init(struct rtfilter_env *env, uint64_t *mine)
{
    env->within = within_fn;
    env->part = part_fn;
    env->area = fs.area;
    env->size = fs.size;
    env->shared = slot0();
    env->mine = mine;
    env->tid = 4242;
    env->istr = istr;
    env->cache = NULL;
    env->q = NULL;
}

/* Put filter FBUF (LEN bytes) for CODE after checking it against R's
 * kinds (it must pass unless RAW). */
static void put(uint32_t code, size_t len, const struct rec *r, int raw)
{
    const char *cause = NULL;

    if (!raw && filter_check(fbuf, len, r->kinds, r->n, msg, sizeof msg) != 0) {
        fprintf(stderr, "refused: %s\n", msg);
        CHECK(!"a good filter passes the check");
    }
    CHECK(filter_put(&fs, code, fbuf, len, &cause) == 0);
}

/* What ENV's filter of event CODE says of event R in state ST, flags in
 * *FLAGS: on its record, or (via_args) on its arguments as the event
 * path asks, the record deciding when they say so. */
static unsigned int eval_env(const struct rtfilter_env *env, uint32_t code,
                             const struct rec *r, unsigned int st, uint16_t *flags)
{
    unsigned int v;

    *flags = 0;
    if (via_args && !r->raw) {
        v = rtfilter_eval_args(env, code, &r->ev, r->args, st, flags);
        if (!(v & DAPTO_STATE_FILTER))
            return v;
        /* only the record can say: nothing read, nothing counted */
        CHECK(v == st && *flags == 0);
        to_record++;
    }
    return rtfilter_eval(env, code, rec_vals(r), rec_len(r), st, flags);
}

/* The state event CODE goes on with for record R; flags in *FLAGS. */
static unsigned int eval(uint32_t code, const struct rec *r, uint16_t *flags)
{
    struct rtfilter_env env;

    env_init(&env, NULL);
    return eval_env(&env, code, r, DAPTO_STATE_FILTER | DAPTO_STATE_TRAIL, flags);
}

/* Whether program P holds on record R (one clause, RECORD). */
static int holds_raw(const struct fprog *p, const struct rec *r, int raw)
{
    struct fclause c = fc(DAPTO_STATE_RECORD, p);
    uint16_t flags;
    unsigned int st;

    put(1, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1), r, raw);
    st = eval(1, r, &flags);
    if (st == DAPTO_STATE_RECORD) {
        CHECK(flags == (DAPTO_RECF_FILTERED | 1 << DAPTO_RECF_CLAUSE_SHIFT));
        return 1;
    }
    CHECK(st == 0 && flags == 0);
    return 0;
}

static int holds(const struct fprog *p, const struct rec *r)
{
    return holds_raw(p, r, 0);
}

static int c_cmp(int cmp, int lt, int eq)
{
    switch (cmp) {
    case DAPTO_FCMP_EQ:
        return eq;
    case DAPTO_FCMP_NE:
        return !eq;
    case DAPTO_FCMP_LT:
        return lt;
    case DAPTO_FCMP_LE:
        return lt || eq;
    case DAPTO_FCMP_GT:
        return !lt && !eq;
    default:
        return !lt;
    }
}

static void setup(void)
{
    struct region_geom g;
    const char *cause = NULL;

    region_geom_default(&g);
    g.cnt_slots = 3; /* few: some threads count in slot 0 */
    CHECK(region_create(&reg, &g, &cause) == 0);
    CHECK(filter_space_init(&fs, &reg, NCODES, entries, &cause) == 0);
}

/* Integers, longs, doubles and pointers, every comparison. */
static void test_numbers(void)
{
    static const int64_t iv[] = {-5, 0, 7};
    static const long lv[] = {LONG_MIN, -1, 0, LONG_MAX};
    static const double dv[] = {-0.5, 0.0, 1e300};
    struct fprog p;
    struct rec r;
    int cmp, ok = 1;
    unsigned int a, b;

    for (cmp = DAPTO_FCMP_EQ; cmp <= DAPTO_FCMP_GE; cmp++) {
        for (a = 0; a < 3; a++)
            for (b = 0; b < 3; b++) {
                rec_begin(&r);
                rec_int(&r, (int)iv[a]);
                fp_init(&p);
                fp_cmp_arg(&p, 0, cmp, iv[b]);
                ok &= holds(&p, &r) == c_cmp(cmp, iv[a] < iv[b], iv[a] == iv[b]);
                /* the int as a double */
                fp_init(&p);
                fp_arg(&p, DAPTO_FOP_ARGD, 0);
                fp_constd(&p, (double)iv[b] + 0.5);
                fp_op(&p, DAPTO_FOP_CMPD + cmp);
                fp_op(&p, DAPTO_FOP_END);
                ok &= holds(&p, &r) == c_cmp(cmp, iv[a] < iv[b] + 0.5, 0);
            }
        for (a = 0; a < 4; a++)
            for (b = 0; b < 4; b++) {
                rec_begin(&r);
                rec_int(&r, 1);
                rec_long(&r, lv[a]);
                fp_init(&p);
                fp_cmp_arg(&p, 1, cmp, lv[b]);
                ok &= holds(&p, &r) == c_cmp(cmp, lv[a] < lv[b], lv[a] == lv[b]);
            }
        for (a = 0; a < 3; a++)
            for (b = 0; b < 3; b++) {
                rec_begin(&r);
                rec_double(&r, dv[a]);
                fp_init(&p);
                fp_arg(&p, DAPTO_FOP_ARGD, 0);
                fp_constd(&p, dv[b]);
                fp_op(&p, DAPTO_FOP_CMPD + cmp);
                fp_op(&p, DAPTO_FOP_END);
                ok &= holds(&p, &r) == c_cmp(cmp, dv[a] < dv[b], dv[a] == dv[b]);
            }
        /* NaN: only != holds */
        rec_begin(&r);
        rec_double(&r, NAN);
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARGD, 0);
        fp_constd(&p, 1.0);
        fp_op(&p, DAPTO_FOP_CMPD + cmp);
        fp_op(&p, DAPTO_FOP_END);
        ok &= holds(&p, &r) == (cmp == DAPTO_FCMP_NE);
        /* pointers compare unsigned, integers signed */
        rec_begin(&r);
        rec_ptr(&r, 0xffffffff00000000ull);
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARG, 0);
        fp_const(&p, 1);
        fp_op(&p, DAPTO_FOP_CMPU + cmp);
        fp_op(&p, DAPTO_FOP_END);
        ok &= holds(&p, &r) == c_cmp(cmp, 0, 0);
        p.b[p.n - 2] = (unsigned char)(DAPTO_FOP_CMPI + cmp);
        ok &= holds(&p, &r) == c_cmp(cmp, 1, 0);
    }
    CHECK(ok);

    /* a long as a double, the thread, NOT */
    rec_begin(&r);
    rec_long(&r, -3);
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGD, 0);
    fp_constd(&p, -2.5);
    fp_op(&p, DAPTO_FOP_CMPD + DAPTO_FCMP_LT);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    fp_const(&p, 4242);
    fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_EQ);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
    p.b[p.n - 2] = DAPTO_FOP_NOT;
    p.b[p.n - 1] = DAPTO_FOP_END; /* TID CONST NOT END: two values */
    CHECK(!holds_raw(&p, &r, 1));
    fp_init(&p);
    fp_cmp_arg(&p, 0, DAPTO_FCMP_EQ, -3);
    p.b[p.n - 1] = DAPTO_FOP_NOT;
    fp_op(&p, DAPTO_FOP_END);
    CHECK(!holds(&p, &r));
    /* a constant alone */
    fp_init(&p);
    fp_const(&p, 2);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
    fp_init(&p);
    fp_const(&p, 0);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(!holds(&p, &r));
}

/* Glob patterns as Tcl's string match. */
static void test_glob(void)
{
    static const struct {
        const char *s, *p;
        int match;
    } cases[] = {
        {"hello", "hello", 1}, {"hello", "hell", 0},   {"hello", "hello!", 0},
        {"", "", 1},           {"", "*", 1},           {"", "?", 0},
        {"hello", "*", 1},     {"hello", "h*", 1},     {"hello", "*o", 1},
        {"hello", "*l*", 1},   {"hello", "*x*", 0},    {"hello", "h*l*o", 1},
        {"hello", "h**o", 1},  {"hello", "*ll", 0},    {"aaab", "*a*b", 1},
        {"abcabd", "*abd", 1}, {"hello", "h?llo", 1},  {"hello", "?????", 1},
        {"hello", "??????", 0}, {"hello", "[gh]ello", 1}, {"hello", "[a-h]ello", 1},
        {"hello", "[z-a]ello", 1}, {"hello", "[i-z]ello", 0}, {"hello", "[abc]ello", 0},
        {"-x", "[a-]x", 1},    {"hello", "[h", 0},     {"*x", "\\*x", 1},
        {"ax", "\\*x", 0},     {"a?", "a\\?", 1},      {"ab", "a\\?", 0},
        {"[", "\\[", 1},       {"a\\", "a\\", 0},      {"x1y22z", "x[0-9]y*z", 1},
        {"main.c", "*.[ch]", 1}, {"main.o", "*.[ch]", 0},
    };
    struct fprog p;
    struct rec r;
    unsigned int i;
    int ok = 1;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int m = rtfilter_glob((const unsigned char *)cases[i].s, strlen(cases[i].s),
                              (const unsigned char *)cases[i].p, strlen(cases[i].p));

        if (m != cases[i].match) {
            fprintf(stderr, "glob \"%s\" \"%s\": %d\n", cases[i].s, cases[i].p, m);
            ok = 0;
        }
        /* and through the machine */
        rec_begin(&r);
        rec_str(&r, cases[i].s);
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARGS, 0);
        fp_consts(&p, cases[i].p);
        fp_op(&p, DAPTO_FOP_GLOB);
        fp_op(&p, DAPTO_FOP_END);
        ok &= holds(&p, &r) == cases[i].match;
    }
    CHECK(ok);
}

/* String equality, a string among other values, ISTR names. */
static void test_strings(void)
{
    struct fprog p;
    struct rec r;
    unsigned char *v;

    rec_begin(&r);
    rec_int(&r, 1);
    rec_str(&r, "hello");
    rec_double(&r, 2.0);
    rec_str(&r, NULL); /* "(null)" */
    rec_int(&r, 9);
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 1);
    fp_consts(&p, "hello");
    fp_op(&p, DAPTO_FOP_SEQ);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
    p.b[p.n - 2] = DAPTO_FOP_SNE;
    CHECK(!holds(&p, &r));
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 1);
    fp_consts(&p, "hell");
    fp_op(&p, DAPTO_FOP_SEQ);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(!holds(&p, &r));
    p.b[p.n - 2] = DAPTO_FOP_SNE;
    CHECK(holds(&p, &r));
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 3);
    fp_consts(&p, "(null)");
    fp_op(&p, DAPTO_FOP_SEQ);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
    fp_init(&p); /* the value after two strings and a double */
    fp_cmp_arg(&p, 4, DAPTO_FCMP_EQ, 9);
    CHECK(holds(&p, &r));

    /* an interned name: resolved through the environment, else false */
    rec_begin(&r);
    {
        uint32_t id = 3;

        dapto_put_fixed(&r.o, DAPTO_K_ISTR, &id, 4);
        r.kinds[r.n++] = DAPTO_K_STR;
        r.raw = 1; /* no argument of an event is an intern id */
    }
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 0);
    fp_consts(&p, "beta");
    fp_op(&p, DAPTO_FOP_SEQ);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
    v = r.o.base + DAPTO_RECORD_HEADER + 1;
    *v = 4; /* an id nobody knows */
    CHECK(!holds(&p, &r));

    /* a string whose length runs past the record does not hold */
    rec_begin(&r);
    rec_str(&r, "abc");
    r.raw = 1;
    v = r.o.base + DAPTO_RECORD_HEADER + 1;
    v[0] = 200;
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 0);
    fp_consts(&p, "abc");
    fp_op(&p, DAPTO_FOP_SNE);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(!holds(&p, &r));
    v[0] = 3;
    v[4 + 3] = 'x'; /* no NUL after it */
    CHECK(!holds(&p, &r));
    v[4 + 3] = 0;
    p.b[p.n - 2] = DAPTO_FOP_SEQ;
    CHECK(holds(&p, &r));
}

/* Records at their size: a string that fills the record, one cut to fit,
 * a value after it left out, and NULL as "(null)".  On the arguments, an
 * event whose record would not hold them whole is left to the record. */
static void test_cut(void)
{
    static char big[DAPTO_EVENT_MAX + 1], cut[DAPTO_EVENT_MAX + 1];
    const size_t room = DAPTO_EVENT_MAX - DAPTO_EVENT_HEADER;
    struct fprog p, q;
    struct rec r;
    unsigned long before;
    size_t n;

    /* tag, length, bytes, NUL: a string of ROOM - 6 bytes fills it */
    for (n = room - 6 - 1; n <= room - 6 + 1; n++) {
        memset(big, 'x', n);
        big[n] = '\0';
        rec_begin(&r);
        rec_str(&r, big);
        CHECK(r.o.truncated == (n > room - 6));
        before = to_record;
        /* as recorded: cut to ROOM - 6 bytes */
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARGS, 0);
        memset(cut, 'x', room - 6);
        cut[room - 6] = '\0';
        fp_consts(&p, cut);
        fp_op(&p, DAPTO_FOP_SEQ);
        fp_op(&p, DAPTO_FOP_END);
        CHECK(holds(&p, &r) == (n >= room - 6));
        fp_init(&q);
        fp_arg(&q, DAPTO_FOP_ARGS, 0);
        fp_consts(&q, big);
        fp_op(&q, DAPTO_FOP_SEQ);
        fp_op(&q, DAPTO_FOP_END);
        CHECK(holds(&q, &r) == (n <= room - 6));
        CHECK(to_record - before == (via_args && n > room - 6 ? 2u : 0u));
    }
    /* an int after a string: there only when both fit whole */
    for (n = room - 6 - 5 - 1; n <= room - 6 - 5 + 1; n++) {
        memset(big, 'y', n);
        big[n] = '\0';
        rec_begin(&r);
        rec_str(&r, big);
        rec_int(&r, 7);
        before = to_record;
        fp_init(&p);
        fp_cmp_arg(&p, 1, DAPTO_FCMP_EQ, 7);
        CHECK(holds_raw(&p, &r, 1) == (n <= room - 6 - 5));
        CHECK(to_record - before == (via_args && n > room - 6 - 5 ? 1u : 0u));
    }
    /* NULL travels as "(null)" */
    rec_begin(&r);
    rec_long(&r, -3);
    rec_str(&r, NULL);
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 1);
    fp_consts(&p, "(null)");
    fp_op(&p, DAPTO_FOP_SEQ);
    fp_op(&p, DAPTO_FOP_END);
    CHECK(holds(&p, &r));
}

/* && and || through JF and JT; the right side only when needed. */
static void test_jumps(void)
{
    struct fprog p;
    struct rec r;
    uint32_t j;
    int i;

    /* $0 < 0 || <a string read from an int: goes wrong if run> */
    for (i = -1; i <= 1; i += 2) {
        rec_begin(&r);
        rec_int(&r, i);
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARG, 0);
        fp_const(&p, 0);
        fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_LT);
        j = fp_jump(&p, DAPTO_FOP_JT);
        fp_arg(&p, DAPTO_FOP_ARGS, 0);
        fp_consts(&p, "x");
        fp_op(&p, DAPTO_FOP_SEQ);
        fp_land(&p, j);
        fp_op(&p, DAPTO_FOP_END);
        /* i < 0: short-circuit, holds; else the right side goes wrong */
        CHECK(holds_raw(&p, &r, 1) == (i < 0));
        /* !($0 > 0 && <wrong>) */
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARG, 0);
        fp_const(&p, 0);
        fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_GT);
        j = fp_jump(&p, DAPTO_FOP_JF);
        fp_arg(&p, DAPTO_FOP_ARGS, 0);
        fp_consts(&p, "x");
        fp_op(&p, DAPTO_FOP_SEQ);
        fp_land(&p, j);
        fp_op(&p, DAPTO_FOP_NOT);
        fp_op(&p, DAPTO_FOP_END);
        CHECK(holds_raw(&p, &r, 1) == (i < 0));
    }
    /* well-typed: $0 > 5 && $0 < 10 || $0 == 42 */
    for (i = 0; i < 50; i++) {
        uint32_t j1, j2;

        rec_begin(&r);
        rec_int(&r, i);
        fp_init(&p);
        fp_arg(&p, DAPTO_FOP_ARG, 0);
        fp_const(&p, 5);
        fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_GT);
        j1 = fp_jump(&p, DAPTO_FOP_JF);
        fp_arg(&p, DAPTO_FOP_ARG, 0);
        fp_const(&p, 10);
        fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_LT);
        fp_land(&p, j1);
        j2 = fp_jump(&p, DAPTO_FOP_JT);
        fp_arg(&p, DAPTO_FOP_ARG, 0);
        fp_const(&p, 42);
        fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_EQ);
        fp_land(&p, j2);
        fp_op(&p, DAPTO_FOP_END);
        if (holds(&p, &r) != ((i > 5 && i < 10) || i == 42))
            CHECK_EQ_INT(i, -1);
    }
}

/* Hit counting: every, after, count; the hits counter in slot 0. */
static void test_hits(void)
{
    struct fprog p;
    struct fclause c;
    struct rec r;
    uint16_t flags;
    int h, fired[32], n = 0;

    rec_begin(&r);
    rec_int(&r, 1);
    fp_init(&p);
    fp_cmp_arg(&p, 0, DAPTO_FCMP_GT, 0);
    c = fc(DAPTO_STATE_STOP, &p);
    c.flags = DAPTO_CL_HITS;
    c.hits = 10;
    c.every = 3;
    c.after = 2;
    c.count = 2;
    put(2, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1), &r, 0);
    for (h = 1; h <= 20; h++)
        if (eval(2, &r, &flags) == DAPTO_STATE_STOP)
            fired[n++] = h;
    CHECK(n == 2 && fired[0] == 5 && fired[1] == 8);
    CHECK_EQ_INT(filter_counter(&reg, 10), 20);
    CHECK_EQ_INT(slot0()[10], 20);

    /* every 2, no limit, from the first */
    c.hits = 11;
    c.every = 2;
    c.after = 0;
    c.count = 0;
    put(2, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1), &r, 0);
    for (n = 0, h = 1; h <= 20; h++)
        n += eval(2, &r, &flags) == DAPTO_STATE_STOP;
    CHECK_EQ_INT(n, 10);
    /* after 15 alone */
    c.hits = 12;
    c.every = 1;
    c.after = 15;
    put(2, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1), &r, 0);
    for (n = 0, h = 1; h <= 20; h++)
        n += eval(2, &r, &flags) == DAPTO_STATE_STOP;
    CHECK_EQ_INT(n, 5);
    /* a program that does not hold is no hit */
    rec_begin(&r);
    rec_int(&r, -1);
    CHECK(eval(2, &r, &flags) == 0);
    CHECK_EQ_INT(filter_counter(&reg, 12), 20);
}

/* Several clauses: the state and the clauses in the flags. */
static void test_clauses(void)
{
    struct fprog p[3];
    struct fclause c[3];
    struct rec r;
    uint16_t flags;
    unsigned int st;

    fp_init(&p[0]);
    fp_cmp_arg(&p[0], 0, DAPTO_FCMP_GT, 0);
    fp_init(&p[1]);
    fp_cmp_arg(&p[1], 0, DAPTO_FCMP_GT, 10);
    fp_init(&p[2]);
    fp_cmp_arg(&p[2], 0, DAPTO_FCMP_EQ, 7);
    c[0] = fc(DAPTO_STATE_RECORD, &p[0]);
    c[1] = fc(DAPTO_STATE_STOP, &p[1]);
    c[2] = fc(DAPTO_STATE_RECORD, &p[2]);
    rec_begin(&r);
    rec_int(&r, 7);
    put(3, fbuild(fbuf, DAPTO_STATE_TRAIL, DAPTO_CNT_NONE, DAPTO_CNT_NONE, c, 3), &r, 0);
    st = eval(3, &r, &flags);
    CHECK(st == (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD));
    CHECK(flags == (DAPTO_RECF_FILTERED | 5 << DAPTO_RECF_CLAUSE_SHIFT));
    rec_begin(&r);
    rec_int(&r, 11);
    st = eval(3, &r, &flags);
    CHECK(st == (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP));
    CHECK(flags == (DAPTO_RECF_FILTERED | 3 << DAPTO_RECF_CLAUSE_SHIFT));
    rec_begin(&r);
    rec_int(&r, -1);
    st = eval(3, &r, &flags);
    CHECK(st == DAPTO_STATE_TRAIL && flags == DAPTO_RECF_FILTERED);
    /* without unconditional bits, nothing holds: nowhere, flags alone */
    put(3, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, c, 3), &r, 0);
    CHECK(eval(3, &r, &flags) == 0 && flags == 0);
    /* the last of twelve clauses sets bit 15 */
    {
        struct fclause m[DAPTO_FILTER_CLAUSES];
        struct fprog no;
        int i;

        fp_init(&no);
        fp_const(&no, 0);
        fp_op(&no, DAPTO_FOP_END);
        for (i = 0; i < DAPTO_FILTER_CLAUSES; i++)
            m[i] = fc(DAPTO_STATE_RECORD, &no);
        m[DAPTO_FILTER_CLAUSES - 1].prog = &p[0];
        rec_begin(&r);
        rec_int(&r, 3);
        put(3, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, m, DAPTO_FILTER_CLAUSES),
            &r, 0);
        CHECK(eval(3, &r, &flags) == DAPTO_STATE_RECORD &&
              flags == (DAPTO_RECF_FILTERED | 0x8000));
    }
    /* no filter: the state's own bits; the same beyond the directory */
    filter_remove(&fs, 3);
    CHECK(eval(3, &r, &flags) == DAPTO_STATE_TRAIL && flags == 0);
    CHECK(eval(NCODES, &r, &flags) == DAPTO_STATE_TRAIL && flags == 0);
    CHECK(eval(UINT32_MAX, &r, &flags) == DAPTO_STATE_TRAIL && flags == 0);
}

/* Counters per filter and per clause, from several threads. */
#define NTHREADS 5
#define PER_THREAD 100000

static void *count_thread(void *arg)
{
    struct rtfilter_env env;
    struct rec r;
    uint16_t flags;
    int i;

    struct rtfilter_cache cache;

    (void)arg;
    env_init(&env, rtfilter_take_slot(reg.hdr, slot0(), reg.geom.cnt_slots));
    /* every other thread with a cache: the counts are the same */
    memset(&cache, 0, sizeof cache);
    if (((uintptr_t)env.mine / 8 / DAPTO_CNT_PER_SLOT) % 2)
        env.cache = &cache;
    for (i = 0; i < PER_THREAD; i++) {
        rec_begin(&r);
        rec_int(&r, i % 10);
        eval_env(&env, 4, &r, DAPTO_STATE_FILTER, &flags);
    }
    return NULL;
}

static void test_counters(void)
{
    struct fprog p[2];
    struct fclause c[2];
    struct rec r;
    pthread_t th[NTHREADS];
    int i;

    fp_init(&p[0]);
    fp_cmp_arg(&p[0], 0, DAPTO_FCMP_LT, 3); /* 3 in 10 */
    fp_init(&p[1]);
    fp_cmp_arg(&p[1], 0, DAPTO_FCMP_GE, 8); /* 2 in 10 */
    c[0] = fc(DAPTO_STATE_RECORD, &p[0]);
    c[0].checked = 100;
    c[0].passed = 101;
    c[1] = fc(DAPTO_STATE_RECORD, &p[1]);
    c[1].checked = 102;
    c[1].passed = 103;
    c[1].hits = 104; /* counted, without hit counting */
    rec_begin(&r);
    rec_int(&r, 0);
    put(4, fbuild(fbuf, 0, 98, 99, c, 2), &r, 0);
    for (i = 0; i < NTHREADS; i++)
        CHECK(pthread_create(&th[i], NULL, count_thread, NULL) == 0);
    for (i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    CHECK_EQ_INT(filter_counter(&reg, 98), NTHREADS * PER_THREAD);
    CHECK_EQ_INT(filter_counter(&reg, 99), NTHREADS * PER_THREAD / 2);
    CHECK_EQ_INT(filter_counter(&reg, 100), NTHREADS * PER_THREAD);
    CHECK_EQ_INT(filter_counter(&reg, 101), NTHREADS * PER_THREAD * 3 / 10);
    CHECK_EQ_INT(filter_counter(&reg, 102), NTHREADS * PER_THREAD);
    CHECK_EQ_INT(filter_counter(&reg, 103), NTHREADS * PER_THREAD / 5);
    CHECK_EQ_INT(filter_counter(&reg, 104), NTHREADS * PER_THREAD / 5);
    /* two threads had slots of their own, the others shared slot 0 */
    CHECK_EQ_INT(reg.hdr->cnt_next, NTHREADS);
    CHECK(slot0()[98] == (NTHREADS - 2) * PER_THREAD);
    CHECK_EQ_INT(filter_counter(&reg, DAPTO_CNT_NONE), 0);
}

/* The space policy: filling a half, then the other, filters in effect
 * copied over; an area too full says so. */
/* A thread's cache of checked filters <protocol#filter-gen>: used while
 * the directory entry and the generation stay, never after a filter was
 * rewritten in place, never with a monitor that keeps no generation. */
static void cache_rewrite(int keep_gen, int cmp)
{
    struct dapto_filter_area *fa = (struct dapto_filter_area *)(void *)fs.area;
    struct rtfilter_cache cache;
    struct rtfilter_env env;
    struct fprog p;
    struct fclause c;
    struct rec pos, neg;
    uint16_t flags = 0;
    uint32_t off, g;
    size_t len;

    rec_begin(&pos);
    rec_int(&pos, 5);
    rec_begin(&neg);
    rec_int(&neg, -1);
    fp_init(&p);
    fp_cmp_arg(&p, 0, DAPTO_FCMP_LT, 0);
    c = fc(DAPTO_STATE_RECORD, &p);
    put(2, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1), &pos, 0);
    env_init(&env, NULL);
    memset(&cache, 0, sizeof cache);
    env.cache = &cache;
    if (!keep_gen)
        __atomic_store_n(&fa->gen, 0, __ATOMIC_RELAXED);
    CHECK(eval_env(&env, 2, &pos, DAPTO_STATE_FILTER, &flags) == 0);
    CHECK(cache.e[2 % RTFILTER_CACHED].key == (keep_gen ? 3u : 0u));
    CHECK(eval_env(&env, 2, &neg, DAPTO_STATE_FILTER, &flags) ==
          DAPTO_STATE_RECORD);
    CHECK(eval_env(&env, 2, &pos, DAPTO_STATE_FILTER, &flags) == 0);
    /* the same offset, another program: as filter_put writes, or not */
    fp_init(&p);
    fp_cmp_arg(&p, 0, cmp, 0);
    c = fc(DAPTO_STATE_RECORD, &p);
    len = fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1);
    off = __atomic_load_n(&fa->dir[2], __ATOMIC_RELAXED);
    g = __atomic_load_n(&fa->gen, __ATOMIC_RELAXED);
    if (keep_gen)
        __atomic_store_n(&fa->gen, g | 1, __ATOMIC_RELEASE);
    memcpy(fs.area + off, fbuf, len);
    if (keep_gen)
        __atomic_store_n(&fa->gen, (g | 1) + 1, __ATOMIC_RELEASE);
    CHECK(eval_env(&env, 2, &pos, DAPTO_STATE_FILTER, &flags) ==
          DAPTO_STATE_RECORD);
    CHECK(eval_env(&env, 2, &neg, DAPTO_STATE_FILTER, &flags) == 0);
    /* an odd generation: the monitor is writing, nothing is cached */
    if (keep_gen) {
        memset(&cache, 0, sizeof cache);
        __atomic_store_n(&fa->gen, (g | 1) + 2, __ATOMIC_RELEASE);
        CHECK(eval_env(&env, 2, &pos, DAPTO_STATE_FILTER,
                            &flags) == DAPTO_STATE_RECORD);
        CHECK(cache.e[2 % RTFILTER_CACHED].key == 0);
        __atomic_store_n(&fa->gen, (g | 1) + 3, __ATOMIC_RELEASE);
    }
    filter_remove(&fs, 2);
    CHECK(eval_env(&env, 2, &pos,
                        DAPTO_STATE_FILTER | DAPTO_STATE_TRAIL, &flags) == DAPTO_STATE_TRAIL);
}

/* A kept comparison decides as the machine does, at the edges of the
 * integers too: signed and unsigned, every comparison, as parameter 0 or
 * 1, on INT, LONG and PTR values. */
static void cache_same(void)
{
    static const int64_t v[] = {INT64_MIN, INT64_MIN + 1, -5, -1, 0, 1, 5,
                                INT32_MAX, INT64_MAX - 1, INT64_MAX};
    const size_t nv = sizeof v / sizeof v[0];
    struct rtfilter_cache cache;
    struct rtfilter_env env, plain;
    struct fprog p;
    struct fclause c;
    struct rec r;
    uint16_t f0, f1, f2;
    unsigned int want, op, k, kind;
    size_t i, j;

    env_init(&plain, NULL);
    env_init(&env, NULL);
    env.cache = &cache;
    for (op = 0; op < 12; op++)
        for (k = 0; k < 2; k++)
            for (i = 0; i < nv; i++) {
                fp_init(&p);
                fp_arg(&p, DAPTO_FOP_ARG, k);
                fp_const(&p, v[i]);
                fp_op(&p, (op < 6 ? DAPTO_FOP_CMPI : DAPTO_FOP_CMPU) + (int)(op % 6));
                fp_op(&p, DAPTO_FOP_END);
                c = fc(DAPTO_STATE_RECORD, &p);
                memset(&cache, 0, sizeof cache);
                for (j = 0; j < nv; j++)
                    for (kind = 0; kind < 3; kind++) {
                        rec_begin(&r);
                        if (k == 1)
                            rec_int(&r, 0);
                        if (kind == 0)
                            rec_int(&r, (int)v[j]);
                        else if (kind == 1)
                            rec_long(&r, (long)v[j]);
                        else
                            rec_ptr(&r, (uint64_t)v[j]);
                        if (j == 0 && kind == 0)
                            put(3, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1),
                                &r, 1);
                        f0 = f1 = f2 = 0;
                        want = rtfilter_eval(&plain, 3, rec_vals(&r), rec_len(&r),
                                             DAPTO_STATE_FILTER, &f0);
                        CHECK(eval_env(&env, 3, &r,
                                            DAPTO_STATE_FILTER, &f1) == want);
                        CHECK(cache.e[3 % RTFILTER_CACHED].key == 4);
                        CHECK(eval_env(&env, 3, &r,
                                            DAPTO_STATE_FILTER, &f2) == want);
                        CHECK(f0 == f1 && f1 == f2);
                    }
            }
}

/* A kept filter whose one clause is a question's (no state bit of its
 * own) with unconditional bits says and counts what the filter read from
 * the area says: the unconditional bits, FILTERED, the filter's passed. */
static void cache_question(void)
{
    struct rtfilter_cache cache;
    struct rtfilter_env env;
    struct fprog p;
    struct fclause c;
    struct rec r;
    uint16_t flags;
    unsigned int st, i;

    c = fc_question(&p, 112, 113);
    rec_begin(&r);
    rec_int(&r, 5);
    put(5, fbuild(fbuf, DAPTO_STATE_TRAIL, 110, 111, &c, 1), &r, 0);
    env_init(&env, rtfilter_take_slot(reg.hdr, slot0(), reg.geom.cnt_slots));
    memset(&cache, 0, sizeof cache);
    for (i = 0; i < 6; i++) {
        env.cache = i < 2 ? NULL : &cache; /* read, then read and kept, then kept */
        st = eval_env(&env, 5, &r, DAPTO_STATE_FILTER | DAPTO_STATE_TRAIL, &flags);
        CHECK(st == DAPTO_STATE_TRAIL && flags == DAPTO_RECF_FILTERED);
    }
    CHECK(cache.e[5 % RTFILTER_CACHED].key == 6);
    CHECK_EQ_INT(filter_counter(&reg, 110), 6);
    CHECK_EQ_INT(filter_counter(&reg, 111), 6);
    CHECK_EQ_INT(filter_counter(&reg, 112), 6);
    /* no question area: nothing counted into a question */
    CHECK_EQ_INT(filter_counter(&reg, 113), 0);
    filter_remove(&fs, 5);
}

/* -within and -outside <protocol#relate>: WITHIN alone, negated, before
 * a comparison (the shapes a thread keeps) and inside other programs
 * (the machine), read and kept, as the thread's components change: the
 * same answers every way. */
static void test_within(void)
{
    static const uint64_t masks[] = {0, 1ull << 5, 1ull << 6, (1ull << 5) | 1, ~0ull,
                                     1ull << 63};
    struct rtfilter_cache cache;
    struct rtfilter_env env, plain;
    struct fprog p;
    struct fclause c;
    struct rec r;
    uint16_t f0, f1, f2;
    unsigned int shape, comp, m, v, want, got;
    uint32_t at;

    env_init(&plain, NULL);
    env_init(&env, NULL);
    env.cache = &cache;
    for (shape = 0; shape < 6; shape++) {
        comp = shape == 5 ? 63 : 5;
        fp_init(&p);
        if (shape == 4) {
            /* ARG 0 > 2 || WITHIN c: not a shape a thread keeps */
            fp_cmp_arg(&p, 0, DAPTO_FCMP_GT, 2);
            p.n--; /* its END */
            at = fp_jump(&p, DAPTO_FOP_JT);
            fp_op(&p, DAPTO_FOP_WITHIN);
            p.b[p.n++] = (unsigned char)comp;
            fp_land(&p, at);
            fp_op(&p, DAPTO_FOP_END);
        } else {
            fp_op(&p, DAPTO_FOP_WITHIN);
            p.b[p.n++] = (unsigned char)comp;
            if (shape == 1 || shape == 3)
                fp_op(&p, DAPTO_FOP_NOT);
            if (shape >= 2 && shape != 5) {
                at = fp_jump(&p, DAPTO_FOP_JF);
                fp_cmp_arg(&p, 0, DAPTO_FCMP_GT, 2);
                p.n--;
                fp_land(&p, at);
            }
            fp_op(&p, DAPTO_FOP_END);
        }
        c = fc(DAPTO_STATE_RECORD, &p);
        memset(&cache, 0, sizeof cache);
        for (m = 0; m < sizeof masks / sizeof masks[0]; m++)
            for (v = 0; v < 5; v++) {
                int in = (int)((masks[m] >> comp) & 1);

                test_mask = masks[m];
                rec_begin(&r);
                rec_int(&r, (int)v);
                if (m == 0 && v == 0)
                    put(6, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1), &r, 0);
                switch (shape) {
                case 0:
                case 5:
                    want = in;
                    break;
                case 1:
                    want = !in;
                    break;
                case 2:
                    want = in && v > 2;
                    break;
                case 3:
                    want = !in && v > 2;
                    break;
                default:
                    want = v > 2 || in;
                    break;
                }
                f0 = f1 = f2 = 0;
                got = eval_env(&plain, 6, &r, DAPTO_STATE_FILTER, &f0);
                CHECK(got == (want ? DAPTO_STATE_RECORD : 0u));
                CHECK(eval_env(&env, 6, &r, DAPTO_STATE_FILTER, &f1) == got);
                CHECK(eval_env(&env, 6, &r, DAPTO_STATE_FILTER, &f2) == got);
                CHECK(f0 == f1 && f1 == f2);
                /* kept: the shapes of -within and -outside */
                CHECK((cache.e[6 % RTFILTER_CACHED].key == 7) == (shape != 4));
            }
    }
    test_mask = 0;
    filter_remove(&fs, 6);
}

/* A part's clause hands its event to the derived event and its part
 * (never kept: it is not a comparison); a window's opens or closes the
 * questions' window. */
static void test_parts(void)
{
    _Alignas(64) unsigned char qbuf[sizeof(struct dapto_question_area)];
    struct rtq_env q;
    struct rtfilter_env env;
    struct rtfilter_cache cache;
    struct fprog p, pw;
    struct fclause c[2];
    struct rec r;
    uint16_t flags;
    unsigned int i;

    memset(qbuf, 0, sizeof qbuf);
    memset(&q, 0, sizeof q);
    q.area = qbuf;
    q.size = sizeof qbuf;
    env_init(&env, NULL);
    env.cache = &cache;
    env.q = &q;
    memset(&cache, 0, sizeof cache);
    c[0] = fc_question(&p, DAPTO_CNT_NONE, DAPTO_CNT_NONE);
    c[0].flags = DAPTO_CL_PART;
    c[0].every = 3;
    c[0].count = DAPTO_REL_PART_B;
    c[1] = fc_question(&pw, DAPTO_CNT_NONE, DAPTO_CNT_NONE);
    c[1].flags = DAPTO_CL_WINDOW;
    c[1].count = 0;
    rec_begin(&r);
    rec_int(&r, 77);
    put(7, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, c, 2), &r, 0);
    nparts = 0;
    for (i = 0; i < 3; i++) {
        CHECK(eval_env(&env, 7, &r, DAPTO_STATE_FILTER, &flags) == 0);
        CHECK(cache.e[7 % RTFILTER_CACHED].key != 8);
    }
    CHECK(nparts == 3 && part_def == 2 && part_role == DAPTO_REL_PART_B &&
          part_arg0 == 77);
    CHECK(!rtq_open(&q));
    /* a part's clause alone is kept, and hands every event over as read */
    put(7, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, c, 1), &r, 0);
    memset(&cache, 0, sizeof cache);
    nparts = 0;
    for (i = 0; i < 3; i++) {
        part_arg0 = 0;
        CHECK(eval_env(&env, 7, &r, DAPTO_STATE_FILTER, &flags) == 0);
        CHECK(cache.e[7 % RTFILTER_CACHED].key == 8);
        CHECK(part_arg0 == 77);
    }
    CHECK(nparts == 3 && part_def == 2 && part_role == DAPTO_REL_PART_B);
    c[1].count = 1;
    put(7, fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c[1], 1), &r, 0);
    CHECK(eval_env(&env, 7, &r, DAPTO_STATE_FILTER, &flags) == 0);
    CHECK(rtq_open(&q));
    filter_remove(&fs, 7);
}

static void test_cache(void)
{
    cache_rewrite(1, DAPTO_FCMP_GE);
    cache_rewrite(0, DAPTO_FCMP_GT);
    cache_same();
    cache_question();
}

static void test_space(void)
{
    struct fprog p;
    struct fclause c;
    struct rec r;
    uint16_t flags;
    const char *cause = NULL;
    uint32_t last;
    size_t len;
    int i, ok = 1, switches = 0;

    rec_begin(&r);
    rec_int(&r, 5);
    fp_init(&p);
    fp_cmp_arg(&p, 0, DAPTO_FCMP_EQ, 5);
    c = fc(DAPTO_STATE_RECORD, &p);
    len = fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1);
    put(5, len, &r, 0);
    last = fs.cur;
    /* replace another event's filter until the area has been filled
     * twice over: event 5's filter moves with the halves and stays */
    for (i = 0; i < 4 * (int)(fs.half / 40); i++) {
        put(6, len, &r, 1);
        switches += fs.cur != last;
        last = fs.cur;
        ok &= eval(5, &r, &flags) == DAPTO_STATE_RECORD;
        ok &= fs.entries[5].off >= fs.base + fs.cur * fs.half &&
              fs.entries[5].off < fs.base + (fs.cur + 1) * fs.half;
        ok &= fs.entries[6].off >= fs.base + fs.cur * fs.half &&
              fs.entries[6].off < fs.base + (fs.cur + 1) * fs.half;
    }
    CHECK(ok);
    CHECK(switches >= 3);
    CHECK(eval(6, &r, &flags) == DAPTO_STATE_RECORD);
    /* out of range, a size that lies */
    CHECK(filter_put(&fs, NCODES, fbuf, len, &cause) == -1 &&
          strstr(cause, "directory") != NULL);
    CHECK(filter_put(&fs, 7, fbuf, len - 1, &cause) == -1);
    /* more filters in effect than half the area holds */
    {
        static unsigned char big[DAPTO_FILTER_MAX];
        struct dapto_filter fh;
        int put_ok = 0, refused = 0;

        memset(big, 0, sizeof big);
        memset(&fh, 0, sizeof fh);
        fh.size = DAPTO_FILTER_MAX;
        memcpy(big, &fh, sizeof fh);
        for (i = 8; i < NCODES && !refused; i++) {
            if (filter_put(&fs, (uint32_t)i, big, sizeof big, &cause) == 0)
                put_ok++;
            else
                refused = 1;
        }
        /* everything in effect fits in the half it is in, so a switch
         * always can copy it; what may not fit is the new filter */
        CHECK(refused && strstr(cause, "full") != NULL);
        CHECK_EQ_INT(put_ok, (fs.half - 96) / DAPTO_FILTER_MAX);
        for (i = 8; i < NCODES; i++)
            filter_remove(&fs, (uint32_t)i);
    }
    CHECK(eval(5, &r, &flags) == DAPTO_STATE_RECORD);
    /* a region without a filter area */
    {
        struct region small;
        struct region_geom g;
        struct filter_space fs2;

        region_geom_default(&g);
        g.filt_size = 0;
        g.cnt_slots = 0;
        CHECK(region_create(&small, &g, &cause) == 0);
        CHECK(filter_space_init(&fs2, &small, 4, entries, &cause) == -1);
        CHECK(filter_counter(&small, 1) == 0);
        region_close(&small);
        /* the directory too large for the area */
        g.filt_size = 8192;
        CHECK(region_create(&small, &g, &cause) == 0);
        CHECK(filter_space_init(&fs2, &small, 1024, entries, &cause) == -1);
        region_close(&small);
    }
}

/* The check refuses each kind of malformed filter. */
static int refused(size_t len, const unsigned char *kinds, unsigned int n,
                   const char *what)
{
    if (filter_check(fbuf, len, kinds, n, msg, sizeof msg) == 0) {
        fprintf(stderr, "accepted, expected \"%s\"\n", what);
        return 0;
    }
    if (strstr(msg, what) == NULL) {
        fprintf(stderr, "refused with \"%s\", expected \"%s\"\n", msg, what);
        return 0;
    }
    return 1;
}

static void test_check(void)
{
    static const unsigned char kinds[] = {DAPTO_K_INT, DAPTO_K_DOUBLE, DAPTO_K_STR,
                                          DAPTO_K_PTR, DAPTO_K_USER, DAPTO_K_LONG};
    struct fprog p, good;
    struct fclause c;
    struct dapto_filter fh;
    struct dapto_clause cl;
    size_t len;
    uint32_t j;
    int i;

#define CL0 (sizeof fh) /* the first clause's place */
#define REBUILD(prog) (c = fc(DAPTO_STATE_RECORD, (prog)), \
                       len = fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, &c, 1))
#define SET_CLAUSE(field, v) (memcpy(&cl, fbuf + CL0, sizeof cl), cl.field = (v), \
                              memcpy(fbuf + CL0, &cl, sizeof cl))

    fp_init(&good);
    fp_cmp_arg(&good, 0, DAPTO_FCMP_LT, 0);
    REBUILD(&good);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0 && msg[0] == 0);
    /* the filter's header */
    CHECK(refused(4, kinds, 6, "not 8 to"));
    CHECK(refused(DAPTO_FILTER_MAX + 8, kinds, 6, "not 8 to"));
    CHECK(refused(len - 1, kinds, 6, "but has"));
    fbuf[2] = 0x10;
    CHECK(refused(len, kinds, 6, "state bits"));
    REBUILD(&good);
    memcpy(&fh, fbuf, sizeof fh);
    fh.nclauses = 13;
    memcpy(fbuf, &fh, sizeof fh);
    CHECK(refused(len, kinds, 6, "at most"));
    fh.nclauses = 2;
    memcpy(fbuf, &fh, sizeof fh);
    CHECK(refused(len, kinds, 6, "clause table"));
    fh.nclauses = 1;
    fh.checked = DAPTO_CNT_PER_SLOT;
    memcpy(fbuf, &fh, sizeof fh);
    CHECK(refused(len, kinds, 6, "counter id"));
    /* a clause */
    REBUILD(&good);
    SET_CLAUSE(bits, 0x08);
    CHECK(refused(len, kinds, 6, "clause 0: unknown state bits"));
    REBUILD(&good);
    SET_CLAUSE(flags, 0x40);
    CHECK(refused(len, kinds, 6, "unknown flags"));
    REBUILD(&good);
    SET_CLAUSE(flags, DAPTO_CL_QUESTION);
    CHECK(refused(len, kinds, 6, "a question's clause with state bits"));
    /* <protocol#relate>: a part's and a window's clauses */
    REBUILD(&good);
    SET_CLAUSE(flags, DAPTO_CL_PART);
    SET_CLAUSE(count, DAPTO_REL_PART_B);
    CHECK(refused(len, kinds, 6, "a part's clause with state bits"));
    SET_CLAUSE(bits, 0);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
    SET_CLAUSE(count, 3);
    CHECK(refused(len, kinds, 6, "a part's clause"));
    SET_CLAUSE(count, DAPTO_REL_PART_A);
    SET_CLAUSE(every, DAPTO_REL_DERIVED + 1);
    CHECK(refused(len, kinds, 6, "derived event 33"));
    SET_CLAUSE(every, 1);
    SET_CLAUSE(flags, DAPTO_CL_PART | DAPTO_CL_QUESTION);
    CHECK(refused(len, kinds, 6, "a part's clause"));
    SET_CLAUSE(flags, DAPTO_CL_WINDOW);
    SET_CLAUSE(count, 2);
    CHECK(refused(len, kinds, 6, "a window's clause"));
    SET_CLAUSE(count, 1);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_WITHIN);
    p.b[p.n++] = DAPTO_REL_COMPS;
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "component 64"));
    p.b[1] = DAPTO_REL_COMPS - 1;
    REBUILD(&p);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
    p.n = 1;
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "operand runs past"));
    REBUILD(&good);
    SET_CLAUSE(hits, 600);
    CHECK(refused(len, kinds, 6, "counter id"));
    REBUILD(&good);
    SET_CLAUSE(every, 0);
    CHECK(refused(len, kinds, 6, "every is 0"));
    REBUILD(&good);
    SET_CLAUSE(flags, DAPTO_CL_HITS);
    CHECK(refused(len, kinds, 6, "without a hits counter"));
    SET_CLAUSE(hits, 3);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
    REBUILD(&good);
    SET_CLAUSE(prog_off, 4);
    CHECK(refused(len, kinds, 6, "is not between"));
    REBUILD(&good);
    SET_CLAUSE(prog_len, (uint16_t)(good.n + 1));
    CHECK(refused(len, kinds, 6, "is not between"));
    REBUILD(&good);
    SET_CLAUSE(prog_len, 0);
    CHECK(refused(len, kinds, 6, "is not between"));

    /* programs */
    fp_init(&p);
    fp_cmp_arg(&p, 0, DAPTO_FCMP_LT, 0);
    p.b[p.n - 2] = 0x16; /* CMPI + 6 */
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "byte 11: unknown opcode 0x16"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_ARG);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "operand runs past"));
    fp_init(&p);
    fp_const(&p, 1);
    p.n -= 2;
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "operand runs past"));
    fp_init(&p);
    fp_consts(&p, "abc");
    p.n -= 1;
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "string constant runs past"));
    fp_init(&p);
    fp_cmp_arg(&p, 6, DAPTO_FCMP_LT, 0);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "parameter 6 does not exist"));
    fp_init(&p);
    fp_cmp_arg(&p, 1, DAPTO_FCMP_LT, 0); /* a double as an integer */
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "cannot be read as an integer"));
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGD, 2); /* a string as a double */
    fp_constd(&p, 0);
    fp_op(&p, DAPTO_FOP_CMPD);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "cannot be read as a double"));
    fp_init(&p);
    fp_arg(&p, DAPTO_FOP_ARGS, 0); /* an int as a string */
    fp_consts(&p, "x");
    fp_op(&p, DAPTO_FOP_SEQ);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "cannot be read as a string"));
    fp_init(&p); /* a pointer, a user type (as a pointer), a long */
    fp_cmp_arg(&p, 3, DAPTO_FCMP_EQ, 0);
    p.n--;
    fp_arg(&p, DAPTO_FOP_ARG, 4);
    fp_const(&p, 0);
    fp_op(&p, DAPTO_FOP_CMPU + DAPTO_FCMP_EQ);
    fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_EQ);
    fp_arg(&p, DAPTO_FOP_ARGD, 5);
    fp_constd(&p, 0);
    fp_op(&p, DAPTO_FOP_CMPD + DAPTO_FCMP_EQ);
    fp_op(&p, DAPTO_FOP_CMPI + DAPTO_FCMP_EQ);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
    fp_init(&p);
    for (i = 0; i < DAPTO_FILTER_STACK + 1; i++)
        fp_op(&p, DAPTO_FOP_TID);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "byte 16: the stack would hold more than 16"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    fp_constd(&p, 1);
    fp_op(&p, DAPTO_FOP_CMPI);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "comparison of integers has a integer and a double"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_CMPI);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "needs two values"));
    fp_init(&p);
    fp_consts(&p, "x");
    fp_op(&p, DAPTO_FOP_NOT);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "NOT needs an integer"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    j = fp_jump(&p, DAPTO_FOP_JF);
    fp_op(&p, DAPTO_FOP_END);
    p.b[j] = 1; /* to the end itself */
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "past the program's end"));
    fp_init(&p);
    fp_consts(&p, "x");
    j = fp_jump(&p, DAPTO_FOP_JF);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "a jump needs an integer"));
    fp_init(&p); /* into the middle of CONST */
    fp_op(&p, DAPTO_FOP_TID);
    j = fp_jump(&p, DAPTO_FOP_JT);
    fp_op(&p, DAPTO_FOP_TID);
    fp_const(&p, 1);
    fp_op(&p, DAPTO_FOP_CMPI);
    fp_op(&p, DAPTO_FOP_END);
    p.b[j] = 3;
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "lands inside an instruction"));
    fp_init(&p); /* TID JT L TID L: two values one way, one the other */
    fp_op(&p, DAPTO_FOP_TID);
    j = fp_jump(&p, DAPTO_FOP_JT);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_TID);
    fp_land(&p, j);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "different stacks"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "ends without END"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "byte 2: END needs exactly one integer"));
    fp_init(&p);
    fp_constd(&p, 1);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "END needs exactly one integer"));
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_END);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(refused(len, kinds, 6, "byte 2: no path reaches"));
    /* a jump over an END to a second one is fine */
    fp_init(&p);
    fp_op(&p, DAPTO_FOP_TID);
    j = fp_jump(&p, DAPTO_FOP_JT);
    fp_op(&p, DAPTO_FOP_TID);
    fp_op(&p, DAPTO_FOP_END);
    fp_land(&p, j);
    fp_op(&p, DAPTO_FOP_END);
    REBUILD(&p);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
    /* the second clause is named */
    {
        struct fclause two[2];
        struct fprog bad;

        fp_init(&bad);
        fp_op(&bad, DAPTO_FOP_TID);
        two[0] = fc(DAPTO_STATE_RECORD, &good);
        two[1] = fc(DAPTO_STATE_STOP, &bad);
        len = fbuild(fbuf, 0, DAPTO_CNT_NONE, DAPTO_CNT_NONE, two, 2);
        CHECK(refused(len, kinds, 6, "clause 1, byte 0:"));
    }
    /* no clauses: only unconditional bits */
    len = fbuild(fbuf, DAPTO_STATE_RECORD, 1, 2, NULL, 0);
    CHECK(filter_check(fbuf, len, kinds, 6, msg, sizeof msg) == 0);
#undef CL0
#undef REBUILD
#undef SET_CLAUSE
}

/* ---- robustness: any bytes in the area or the values ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* SIZE bytes between two inaccessible pages; returns the first byte. */
static unsigned char *guarded(size_t size, void **map, size_t *maplen)
{
    size_t pg = 4096, body = (size + pg - 1) & ~(pg - 1);
    unsigned char *m = mmap(NULL, body + 2 * pg, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (m == MAP_FAILED)
        return NULL;
    mprotect(m, pg, PROT_NONE);
    mprotect(m + pg + body, pg, PROT_NONE);
    *map = m;
    *maplen = body + 2 * pg;
    /* the end of SIZE against the upper guard page */
    return m + pg + (body - size);
}

/* Append "|| $tid == 7" to P, whose value is on the stack, and END. */
static void j_or(struct fprog *p)
{
    uint32_t j = fp_jump(p, DAPTO_FOP_JT);

    fp_op(p, DAPTO_FOP_TID);
    fp_const(p, 7);
    fp_op(p, DAPTO_FOP_CMPI + DAPTO_FCMP_EQ);
    fp_land(p, j);
    fp_op(p, DAPTO_FOP_END);
}

static void test_random(uint64_t seed, long rounds)
{
    const uint32_t asize = 16384;
    struct rtfilter_env env;
    struct rtfilter_cache cache;
    struct rec r[4];
    struct fprog p[4];
    struct fclause c[4];
    unsigned char *area, *vals[4], *clean;
    void *maps[5];
    size_t mlens[5], len;
    uint32_t vlen[4], code, dir_off = 64;
    uint16_t flags;
    long k;
    int i, w;
    unsigned long went = 0;

    printf("filter-test: random part, seed %llu, %ld rounds\n",
           (unsigned long long)seed, rounds);
    rng_state = seed != 0 ? seed : 1;
    area = guarded(asize, &maps[4], &mlens[4]);
    clean = malloc(asize);
    CHECK(area != NULL && clean != NULL);
    if (area == NULL || clean == NULL)
        return;
    /* a sound area: 8 codes, four filters of every kind of instruction */
    memset(clean, 0, asize);
    ((struct dapto_filter_area *)(void *)clean)->ncodes = 8;
    fp_init(&p[0]);
    fp_cmp_arg(&p[0], 0, DAPTO_FCMP_LT, 0);
    fp_init(&p[1]);
    fp_arg(&p[1], DAPTO_FOP_ARGS, 1);
    fp_consts(&p[1], "a*[b-d]?\\*");
    fp_op(&p[1], DAPTO_FOP_GLOB);
    j_or(&p[1]);
    fp_init(&p[2]);
    fp_arg(&p[2], DAPTO_FOP_ARGD, 2);
    fp_constd(&p[2], 0.5);
    fp_op(&p[2], DAPTO_FOP_CMPD + DAPTO_FCMP_GT);
    fp_op(&p[2], DAPTO_FOP_NOT);
    fp_op(&p[2], DAPTO_FOP_END);
    fp_init(&p[3]);
    fp_arg(&p[3], DAPTO_FOP_ARGS, 1);
    fp_consts(&p[3], "abc");
    fp_op(&p[3], DAPTO_FOP_SEQ);
    fp_op(&p[3], DAPTO_FOP_TID);
    fp_op(&p[3], DAPTO_FOP_CMPU + DAPTO_FCMP_NE);
    fp_op(&p[3], DAPTO_FOP_END);
    for (i = 0; i < 4; i++) {
        c[i] = fc((uint8_t)(1 << (i % 3)), &p[i]);
        c[i].checked = (uint16_t)i;
        c[i].hits = (uint16_t)(10 + i);
        c[i].flags = i == 1 ? DAPTO_CL_HITS : 0;
        c[i].every = 2;
    }
    for (code = 0; code < 8; code++) {
        len = fbuild(fbuf, (uint8_t)(code & 1), 20, 21, c + code % 4, 4 - (int)(code % 4));
        memcpy(clean + dir_off, fbuf, len);
        ((struct dapto_filter_area *)(void *)clean)->dir[code] = dir_off;
        dir_off += (uint32_t)((len + 7) & ~(size_t)7);
    }
    /* values: int, string, double, ... each at the end of its own page */
    for (i = 0; i < 4; i++) {
        rec_begin(&r[i]);
        rec_int(&r[i], i - 2);
        rec_str(&r[i], i == 0 ? "abcx*" : i == 1 ? "abc" : "zz");
        rec_double(&r[i], i * 0.3);
        if (i == 3)
            rec_str(&r[i], "tail");
        vlen[i] = rec_len(&r[i]);
        vals[i] = guarded(vlen[i], &maps[i], &mlens[i]);
        memcpy(vals[i], rec_vals(&r[i]), vlen[i]);
    }
    env.area = area;
    env.size = asize;
    env.shared = slot0();
    env.mine = slot0() + DAPTO_CNT_PER_SLOT;
    env.tid = 7;
    env.istr = istr;
    env.cache = NULL;
    env.q = NULL;
    memset(&cache, 0, sizeof cache);
    memcpy(area, clean, asize);
    for (code = 0; code < 8; code++)
        for (i = 0; i < 4; i++)
            went += rtfilter_eval(&env, code, vals[i], vlen[i], DAPTO_STATE_FILTER,
                                  &flags) != 0;
    CHECK(went > 0);
    /* on the arguments, the same states, flags and counts as on the
     * records, with the cache and without, hits counted in between */
    for (k = 0; k < 64; k++) {
        static uint64_t c0[2][2 * DAPTO_CNT_PER_SLOT], c1[2 * DAPTO_CNT_PER_SLOT];
        unsigned int st[2];
        uint16_t fl[2];
        int m;

        code = (uint32_t)(rnd() % 10);
        i = (int)(rnd() % 4);
        env.cache = k % 2 ? &cache : NULL;
        memcpy(c1, slot0(), sizeof c1);
        for (m = 0; m < 2; m++) {
            memcpy(slot0(), c1, sizeof c1);
            fl[m] = 0;
            if (m == 0) {
                st[m] = rtfilter_eval(&env, code, vals[i], vlen[i],
                                      DAPTO_STATE_FILTER | DAPTO_STATE_RECORD, &fl[m]);
            } else {
                st[m] = rtfilter_eval_args(&env, code, &r[i].ev, r[i].args,
                                           DAPTO_STATE_FILTER | DAPTO_STATE_RECORD, &fl[m]);
                CHECK(!(st[m] & DAPTO_STATE_FILTER));
            }
            memcpy(c0[m], slot0(), sizeof c0[m]);
        }
        CHECK(st[0] == st[1] && fl[0] == fl[1]);
        CHECK(memcmp(c0[0], c0[1], sizeof c0[0]) == 0);
    }
    for (k = 0; k < rounds; k++) {
        if (k % 64 == 0) {
            /* start again from the sound area, or from noise */
            memcpy(area, clean, asize);
            if (rnd() % 8 == 0)
                for (w = 0; w < (int)(asize / 8); w++) {
                    uint64_t x = rnd();

                    memcpy(area + w * 8, &x, 8);
                }
            if (rnd() % 4 == 0) /* directory entries anywhere */
                for (code = 0; code < 8; code++)
                    ((struct dapto_filter_area *)(void *)area)->dir[code] =
                        (uint32_t)(rnd() % (asize + 64)) & ~7u;
            for (i = 0; i < 4; i++)
                memcpy(vals[i], rec_vals(&r[i]), vlen[i]);
        }
        /* flip bits: in the filters mostly, in the header and values too */
        for (w = (int)(rnd() % 4); w >= 0; w--) {
            uint64_t x = rnd();

            if (x % 16 == 0)
                vals[x / 16 % 4][x / 64 % vlen[x / 16 % 4]] ^= (unsigned char)(1u << (x >> 40) % 8);
            else if (x % 16 == 1)
                area[x / 16 % 64] ^= (unsigned char)(1u << (x >> 40) % 8);
            else
                area[64 + x / 16 % (dir_off - 64)] ^= (unsigned char)(1u << (x >> 40) % 8);
        }
        code = (uint32_t)(rnd() % 10);
        i = (int)(rnd() % 4);
        flags = 0;
        /* the generation as a monitor keeps it, or anything */
        if (rnd() % 2 == 0)
            ((struct dapto_filter_area *)(void *)area)->gen = (uint32_t)(rnd() % 3) * 2;
        env.cache = rnd() % 2 ? &cache : NULL;
        if (rnd() % 2)
            went += rtfilter_eval(&env, code, vals[i], vlen[i],
                                  DAPTO_STATE_FILTER | DAPTO_STATE_RECORD, &flags) != 0;
        else
            went += rtfilter_eval_args(&env, code, &r[i].ev, r[i].args,
                                       DAPTO_STATE_FILTER | DAPTO_STATE_RECORD, &flags) != 0;
    }
    printf("filter-test: %lu evaluations went somewhere\n", went);
    for (i = 0; i < 5; i++)
        munmap(maps[i], mlens[i]);
    free(clean);
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : (uint64_t)time(NULL);
    long rounds = argc > 2 ? atol(argv[2]) : 3000000;

    setup();
    for (via_args = 0; via_args < 2; via_args++) {
        /* each time from counters at 0 */
        memset(slot0(), 0,
               (size_t)reg.geom.cnt_slots * DAPTO_CNT_PER_SLOT * sizeof(uint64_t));
        reg.hdr->cnt_next = 0;
        test_numbers();
        test_glob();
        test_strings();
        test_cut();
        test_jumps();
        test_hits();
        test_clauses();
        test_counters();
        test_cache();
        test_within();
        test_parts();
    }
    /* on the arguments, only records cut or changed by hand were left to
     * the records: test_cut's 3 */
    CHECK_EQ_INT(to_record, 3);
    test_space();
    test_check();
    test_random(seed, rounds);
    region_close(&reg);
    return unit_done("filter-test");
}
