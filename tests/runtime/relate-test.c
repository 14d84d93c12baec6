/* SPDX-License-Identifier: MIT */
/*
 * relate-test.c - relations in the program <protocol#relate>, both sides:
 * the monitor's area (lib/channel/relarea.c: components, functions'
 * addresses, definitions, generations and epochs) and the runtime's
 * stacks and derived events (lib/runtime/rtrelate.c) on a real region,
 * with a clock and an emitter of the test's own: which components a
 * thread is inside through nesting, recursion, mismatched leaves, frames
 * left by a longjmp and popped by a later leave, unwinding at a recovery
 * point, stacks deeper than a slot keeps, functions and named components
 * apart; each relation (contains, calls, before, with parts that are
 * events or components, in the same execution of a component or not)
 * with its values and times; definitions and components changing under
 * a stack; a new epoch; an update interrupted (busy); more pending
 * executions than a slot keeps; and an area whose header or definitions
 * were scribbled on.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "region.h"
#include "relarea.h"
#include "rtrelate.h"
#include "unit.h"

static struct region reg;
static struct relarea ra;
static struct rtrel_env env;
static uint64_t clk;
static uint64_t counters[DAPTO_CNT_PER_SLOT];

static uint64_t now(void)
{
    return clk;
}

static void count(unsigned int id)
{
    counters[id]++;
}

/* What the emitter saw. */
#define SEEN_MAX 64
struct seen {
    unsigned int def;
    uint64_t time;
    int trunc;
    unsigned int n;
    int kind[16];
    int64_t i[16];
    char s[16][64];
};
static struct seen seen[SEEN_MAX];
static unsigned int nseen;

static void emit(const struct rtrel_env *e, struct dapto_record *rec, unsigned int def)
{
    const unsigned char *v = (const unsigned char *)rec + DAPTO_RECORD_HEADER;
    const unsigned char *end = v + rec->len;
    struct seen *s;
    int32_t i32;
    uint32_t len;

    (void)e;
    if (nseen == SEEN_MAX)
        return;
    s = &seen[nseen++];
    memset(s, 0, sizeof *s);
    s->def = def;
    s->time = rec->time;
    s->trunc = (rec->flags & DAPTO_RECF_TRUNC) != 0;
    while (v < end && s->n < 16) {
        int k = *v & ~DAPTO_K_TRUNC;

        s->kind[s->n] = k;
        switch (k) {
        case DAPTO_K_INT:
            memcpy(&i32, v + 1, 4);
            s->i[s->n] = i32;
            v += 5;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_PTR:
            memcpy(&s->i[s->n], v + 1, 8);
            v += 9;
            break;
        case DAPTO_K_STR:
            memcpy(&len, v + 1, 4);
            snprintf(s->s[s->n], sizeof s->s[s->n], "%.*s", (int)len, (const char *)v + 5);
            CHECK(v[5 + len] == '\0');
            v += 6 + len;
            break;
        default:
            CHECK(!"a value of a kind a derived event does not carry");
            return;
        }
        s->n++;
    }
    CHECK(v == end);
}

/* Frames the runtime unwound. */
static struct dapto_rel_frame unwound[16];
static unsigned int nunwound;

static void on_unwound(const struct dapto_rel_frame *f)
{
    if (nunwound < 16)
        unwound[nunwound++] = *f;
}

/* An event's parameters for a part's clause. */
struct ev {
    unsigned int n;
    int kind[4];
    int64_t i[4];
    const char *s[4];
};

static int ev_arg(const void *ctx, unsigned int k, int *kind, int64_t *i, double *d,
                  struct rtq_str *s)
{
    const struct ev *e = ctx;

    (void)d;
    if (k >= e->n)
        return -1;
    *kind = e->kind[k];
    if (e->kind[k] == DAPTO_K_STR) {
        s->s = (const unsigned char *)e->s[k];
        s->n = (uint32_t)strlen(e->s[k]);
    } else {
        *i = e->i[k];
    }
    return 0;
}

static struct ev miss(int key, const char *where)
{
    struct ev e = {2, {DAPTO_K_INT, DAPTO_K_STR}, {key, 0}, {NULL, where}};

    return e;
}

static struct ev tick(long v)
{
    struct ev e = {1, {DAPTO_K_LONG}, {v}, {NULL}};

    return e;
}

static void setup(void)
{
    struct region_geom g;
    const char *cause = NULL;

    region_geom_default(&g);
    g.rel_size = RELAREA_HEAD + 4 * RELAREA_SLOT;
    CHECK(region_create(&reg, &g, &cause) == 0);
    CHECK(relarea_init(&ra, &reg, &cause) == 0);
    CHECK(ra.nthreads == 4);
    env.now = now;
    env.emit = emit;
    env.count = count;
    env.unwound = on_unwound;
    CHECK(rtrel_env_init(&env, ra.area, ra.size) == 0);
}

/* Component NAME (its index, checked to be I). */
static unsigned int comp(const char *name, int i)
{
    const char *cause = NULL;
    int c = relarea_comp(&ra, name, &cause);

    CHECK_EQ_INT(c, i);
    return (unsigned int)c;
}

static uint64_t key(const char *name)
{
    return (uint64_t)(uintptr_t)name;
}

static void define(unsigned int i, int kind, unsigned int a, unsigned int b, unsigned int c)
{
    struct dapto_rel_def d;

    memset(&d, 0, sizeof d);
    d.kind = (uint8_t)kind;
    d.a = (uint8_t)a;
    d.b = (uint8_t)b;
    d.c = (uint8_t)c;
    d.checked = (uint16_t)(10 + 2 * i);
    d.recorded = (uint16_t)(11 + 2 * i);
    d.mult = 2ull << 32; /* a tick is 2 ns */
    relarea_define(&ra, i, &d);
}

static void undefine_all(void)
{
    for (unsigned int i = 0; i < DAPTO_REL_DERIVED; i++)
        relarea_define(&ra, i, NULL);
    nseen = 0;
}

/* The stack: what a thread is inside, through everything a program does. */
static void test_stack(struct dapto_rel_thread *t)
{
    /* names are matched by their text: a copy of "parse" at another
     * address is the same component */
    static const char parse[] = "parse", cache[] = "cache", other[] = "other";
    char parse2[8], cache2[8];
    unsigned int cp = comp("parse", 0), cc = comp("cache", 1), i;

    strcpy(parse2, "parse");
    strcpy(cache2, "cache");
    CHECK(rtrel_mask(&env, t) == 0);
    rtrel_enter(&env, t, key(parse), 0);
    CHECK(rtrel_mask(&env, t) == 1ull << cp);
    rtrel_enter(&env, t, key(other), 0);
    rtrel_enter(&env, t, key(cache2), 0);
    CHECK(rtrel_mask(&env, t) == (1ull << cp | 1ull << cc));
    rtrel_leave(&env, t, key(cache), 0);
    CHECK(rtrel_mask(&env, t) == 1ull << cp);
    /* recursion: parse inside parse, one leave leaves one */
    rtrel_enter(&env, t, key(parse2), 0);
    rtrel_leave(&env, t, key(parse), 0);
    CHECK(rtrel_mask(&env, t) == 1ull << cp);
    CHECK_EQ_INT(t->depth, 2);
    /* frames left by a longjmp: a leave of an outer one pops them */
    rtrel_enter(&env, t, key(cache), 0);
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_enter(&env, t, key(other), 0);
    rtrel_leave(&env, t, key(other), 0);
    CHECK_EQ_INT(t->depth, 4);
    rtrel_leave(&env, t, key(parse2), 0); /* the inner parse */
    CHECK_EQ_INT(t->depth, 3);
    CHECK(rtrel_mask(&env, t) == (1ull << cp | 1ull << cc));
    rtrel_leave(&env, t, key(parse2), 0); /* the outer: cache and other go */
    CHECK_EQ_INT(t->depth, 0);
    CHECK(rtrel_mask(&env, t) == 0);
    /* a leave of what is not there changes nothing */
    rtrel_enter(&env, t, key(cache), 0);
    rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(t->depth, 1);
    CHECK(rtrel_mask(&env, t) == 1ull << cc);
    rtrel_leave(&env, t, key(cache), 0);
    /* functions: by address, listed for a component; a function's exit
     * never pops a named frame of the same text nor the other way round */
    {
        const char *cause = NULL;

        CHECK(relarea_fn(&ra, 0x401000, cp, &cause) == 0);
        CHECK(relarea_fn(&ra, 0x402000, cp, &cause) == 0); /* a static twin */
        CHECK(relarea_fn(&ra, 0x401000, cc, &cause) != 0); /* one component */
        CHECK(relarea_fn(&ra, 0, cp, &cause) != 0);
    }
    rtrel_enter(&env, t, 0x401000, 1);
    CHECK(rtrel_mask(&env, t) == 1ull << cp);
    rtrel_enter(&env, t, 0x402000, 1);
    rtrel_enter(&env, t, 0x403000, 1); /* no component */
    rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(t->depth, 3);
    rtrel_leave(&env, t, 0x402000, 1);
    CHECK_EQ_INT(t->depth, 1);
    CHECK(rtrel_mask(&env, t) == 1ull << cp);
    rtrel_leave(&env, t, 0x401000, 1);
    CHECK(rtrel_mask(&env, t) == 0);
    /* deeper than a slot keeps: counted, popped, and what was kept below
     * is right again */
    rtrel_enter(&env, t, key(cache), 0);
    for (i = 0; i < DAPTO_REL_DEPTH + 10; i++)
        rtrel_enter(&env, t, key(parse), 0);
    CHECK_EQ_INT(t->deep, 11);
    CHECK(rtrel_mask(&env, t) == (1ull << cp | 1ull << cc));
    for (i = 0; i < DAPTO_REL_DEPTH + 10; i++)
        rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(t->deep, 0);
    CHECK_EQ_INT(t->depth, 1);
    CHECK(rtrel_mask(&env, t) == 1ull << cc);
    /* unwinding at a recovery point: the frames above, innermost first */
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_enter(&env, t, 0x401000, 1);
    nunwound = 0;
    rtrel_unwind(&env, t, 1);
    CHECK_EQ_INT(nunwound, 2);
    CHECK(unwound[0].fn == 1 && unwound[0].key == 0x401000);
    CHECK(unwound[1].fn == 0 && unwound[1].key == key(parse));
    CHECK(rtrel_mask(&env, t) == 1ull << cc);
    rtrel_unwind(&env, t, 0);
    CHECK_EQ_INT(t->depth, 0);
    CHECK(rtrel_mask(&env, t) == 0);
    /* a component listed after its frames were pushed: found at the next
     * look (the mask is of the definitions' generation) */
    rtrel_enter(&env, t, key(other), 0);
    CHECK(rtrel_mask(&env, t) == 0);
    CHECK(comp("other", 2) == 2);
    CHECK(rtrel_mask(&env, t) == 1ull << 2);
    rtrel_leave(&env, t, key(other), 0);
    /* a new epoch: the stack starts empty */
    rtrel_enter(&env, t, key(parse), 0);
    relarea_new_epoch(&ra);
    CHECK(rtrel_mask(&env, t) == 0);
    CHECK_EQ_INT(t->depth, 0);
    /* an update interrupted (a signal handler's enter meanwhile) is left
     * out and counted */
    t->busy = 1;
    rtrel_enter(&env, t, key(parse), 0);
    CHECK_EQ_INT(t->depth, 0);
    CHECK(t->lost == 1);
    t->busy = 0;
}

/* contains and calls: judged at the end of each execution of A. */
static void test_contains(struct dapto_rel_thread *t)
{
    static const char parse[] = "parse", cache[] = "cache", other[] = "other";
    struct ev m1 = miss(1, "disk"), m2 = miss(2, "net"), k = tick(-5);
    unsigned int cp = 0, cc = 1;

    undefine_all();
    define(0, DAPTO_REL_CONTAINS, cp, DAPTO_REL_NONE, DAPTO_REL_NONE); /* parse > miss */
    define(1, DAPTO_REL_CALLS, cp, DAPTO_REL_NONE, DAPTO_REL_NONE);    /* parse >> tick */
    define(2, DAPTO_REL_CONTAINS, cp, cc, DAPTO_REL_NONE);             /* parse > cache */
    define(3, DAPTO_REL_CALLS, cp, cc, DAPTO_REL_NONE);                /* parse >> cache */
    clk = 100;
    rtrel_enter(&env, t, key(parse), 0); /* outer */
    clk = 110;
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &m1);
    rtrel_enter(&env, t, key(other), 0);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, &k); /* not directly */
    rtrel_leave(&env, t, key(other), 0);
    clk = 120;
    rtrel_enter(&env, t, key(parse), 0); /* inner */
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &m2);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, &k);
    rtrel_enter(&env, t, key(cache), 0);
    rtrel_leave(&env, t, key(cache), 0);
    clk = 150;
    rtrel_leave(&env, t, key(parse), 0);
    /* the inner parse: contains (its first miss is m2, 1 of them), calls
     * (the tick directly in it), contains cache, calls cache */
    CHECK_EQ_INT(nseen, 4);
    CHECK(seen[0].def == 0 && seen[0].time == 150 && seen[0].n == 4);
    CHECK_EQ_INT(seen[0].i[0], 60); /* (150 - 120) ticks of 2 ns */
    CHECK_EQ_INT(seen[0].i[1], 1);
    CHECK(seen[0].i[2] == 2 && strcmp(seen[0].s[3], "net") == 0);
    CHECK(seen[1].def == 1 && seen[1].n == 3 && seen[1].i[1] == 1 && seen[1].i[2] == -5);
    CHECK(seen[2].def == 2 && seen[2].n == 2 && seen[2].i[1] == 1);
    CHECK(seen[3].def == 3 && seen[3].n == 2 && seen[3].i[1] == 1);
    clk = 200;
    rtrel_leave(&env, t, key(parse), 0);
    /* the outer: 2 misses, the first m1; no tick directly in it; the
     * cache inside the inner parse is inside it, not directly */
    CHECK_EQ_INT(nseen, 6);
    CHECK(seen[4].def == 0 && seen[4].i[0] == 200 && seen[4].i[1] == 2);
    CHECK(seen[4].i[2] == 1 && strcmp(seen[4].s[3], "disk") == 0);
    CHECK(seen[5].def == 2 && seen[5].i[1] == 1);
    /* what the program counted: each execution checked, each emitted
     * recorded */
    CHECK_EQ_INT(counters[10], 2);
    CHECK_EQ_INT(counters[11], 2);
    CHECK_EQ_INT(counters[13], 1);
    CHECK_EQ_INT(counters[16], 2);
    CHECK_EQ_INT(counters[17], 1);
    /* an execution without its B is checked and not emitted */
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(nseen, 6);
    CHECK_EQ_INT(counters[10], 3);
    /* a B outside every A changes nothing later */
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &m1);
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(nseen, 6);
    /* an execution ended by unwinding is judged like any */
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &m2);
    rtrel_unwind(&env, t, 0);
    CHECK_EQ_INT(nseen, 7);
    CHECK(seen[6].def == 0 && seen[6].i[1] == 1);
    /* a definition that changes drops what the thread kept for it */
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &m2);
    define(0, DAPTO_REL_CONTAINS, cc, DAPTO_REL_NONE, DAPTO_REL_NONE);
    rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(nseen, 7);
}

/* before: a B preceded by an A, in the same execution of C or not. */
static void test_before(struct dapto_rel_thread *t)
{
    static const char parse[] = "parse", cache[] = "cache", req[] = "other";
    struct ev m1 = miss(1, "disk"), m2 = miss(2, "net"), k = tick(7);
    unsigned int cp = 0, cc = 1, co = 2;

    undefine_all();
    define(0, DAPTO_REL_BEFORE, DAPTO_REL_NONE, DAPTO_REL_NONE, DAPTO_REL_NONE);
    define(1, DAPTO_REL_BEFORE, DAPTO_REL_NONE, DAPTO_REL_NONE, co); /* in other */
    define(2, DAPTO_REL_BEFORE, cc, DAPTO_REL_NONE, DAPTO_REL_NONE); /* end of cache */
    define(3, DAPTO_REL_BEFORE, DAPTO_REL_NONE, cp, DAPTO_REL_NONE); /* parse's start */
    /* no A yet */
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &k);
    CHECK_EQ_INT(nseen, 0);
    clk = 1000;
    rtrel_part(&env, t, 0, DAPTO_REL_PART_A, ev_arg, &m1);
    clk = 1010;
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &k);
    CHECK_EQ_INT(nseen, 1);
    CHECK(seen[0].n == 4 && seen[0].i[0] == 20 && seen[0].i[1] == 1 && seen[0].i[3] == 7);
    /* the A stays: every later B has it, the latest one */
    rtrel_part(&env, t, 0, DAPTO_REL_PART_A, ev_arg, &m2);
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &k);
    CHECK(nseen == 2 && seen[1].i[1] == 2);
    /* in the same C: an A outside every C is no A of it */
    rtrel_part(&env, t, 1, DAPTO_REL_PART_A, ev_arg, &m1);
    rtrel_enter(&env, t, key(req), 0);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, &k);
    CHECK_EQ_INT(nseen, 2);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_A, ev_arg, &m1); /* in the outer C */
    rtrel_enter(&env, t, key(req), 0);                      /* an inner C */
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, &k);   /* both in the outer */
    CHECK(nseen == 3 && seen[2].def == 1 && seen[2].i[1] == 1);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_A, ev_arg, &m2);  /* in the inner */
    rtrel_leave(&env, t, key(req), 0);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, &k);   /* handed on */
    CHECK(nseen == 4 && seen[3].i[1] == 2);
    rtrel_leave(&env, t, key(req), 0);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, &k);   /* outside: none */
    CHECK_EQ_INT(nseen, 4);
    /* components: the end of an execution of cache is an A; the start
     * of parse a B (its values none) */
    rtrel_part(&env, t, 2, DAPTO_REL_PART_B, ev_arg, &k);
    CHECK_EQ_INT(nseen, 4);
    clk = 2000;
    rtrel_enter(&env, t, key(cache), 0);
    clk = 2050;
    rtrel_leave(&env, t, key(cache), 0);
    clk = 2060;
    rtrel_part(&env, t, 2, DAPTO_REL_PART_B, ev_arg, &k);
    CHECK(nseen == 5 && seen[4].def == 2 && seen[4].n == 2 && seen[4].i[0] == 20);
    rtrel_part(&env, t, 3, DAPTO_REL_PART_A, ev_arg, &m1);
    rtrel_enter(&env, t, key(parse), 0);
    CHECK(nseen == 6 && seen[5].def == 3 && seen[5].n == 3 && seen[5].i[1] == 1);
    rtrel_leave(&env, t, key(parse), 0);
    /* values too long for what a slot keeps are cut, and say so */
    {
        char big[400];
        struct ev m;

        memset(big, 'x', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        m = miss(9, big);
        rtrel_part(&env, t, 0, DAPTO_REL_PART_A, ev_arg, &m);
        rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &k);
        CHECK(nseen == 7 && seen[6].trunc && seen[6].n == 4 && seen[6].i[1] == 9);
    }
}

/* More pending executions than a slot keeps: counted, and the stack
 * stays right. */
static void test_pending(struct dapto_rel_thread *t)
{
    static const char parse[] = "parse";
    struct ev m = miss(3, "x");
    unsigned int i;
    uint64_t lost = t->lost;

    undefine_all();
    define(0, DAPTO_REL_CONTAINS, 0, DAPTO_REL_NONE, DAPTO_REL_NONE);
    for (i = 0; i < DAPTO_REL_PENDING + 5; i++)
        rtrel_enter(&env, t, key(parse), 0);
    CHECK_EQ_INT(t->lost - lost, 5);
    rtrel_part(&env, t, 0, DAPTO_REL_PART_B, ev_arg, &m);
    for (i = 0; i < DAPTO_REL_PENDING + 5; i++)
        rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(nseen, DAPTO_REL_PENDING < SEEN_MAX ? DAPTO_REL_PENDING : SEEN_MAX);
    CHECK_EQ_INT(t->depth, 0);
    CHECK(rtrel_mask(&env, t) == 0);
}

/* What the program may have written: a header the runtime refuses,
 * definitions it takes as none, indexes it never follows. */
static void test_scribbled(struct dapto_rel_thread *t)
{
    struct dapto_rel_area *h = (struct dapto_rel_area *)(void *)ra.area;
    struct dapto_rel_def *defs =
        (struct dapto_rel_def *)(void *)(ra.area + h->defs_off);
    struct rtrel_env bad = env;
    uint32_t saved = h->slot_size;
    static const char parse[] = "parse";

    h->slot_size = 64; /* smaller than a slot */
    CHECK(rtrel_env_init(&bad, ra.area, ra.size) != 0 && bad.area == NULL);
    h->slot_size = saved;
    h->tabs_off = ra.size - 64;
    CHECK(rtrel_env_init(&bad, ra.area, ra.size) != 0);
    h->tabs_off = RELAREA_HEAD;
    CHECK(rtrel_env_init(&bad, ra.area, 100) != 0);
    undefine_all();
    /* definitions of no kind, of components beyond the table, contains
     * with an event as A: none of them is */
    __atomic_store_n(&h->gen, ra.gen + 1, __ATOMIC_RELAXED);
    memset(&defs[0], 0, sizeof defs[0]);
    defs[0].kind = 9;
    defs[1].kind = DAPTO_REL_CONTAINS;
    defs[1].a = 200;
    defs[1].b = DAPTO_REL_NONE;
    defs[1].c = DAPTO_REL_NONE;
    defs[2].kind = DAPTO_REL_CONTAINS;
    defs[2].a = DAPTO_REL_NONE;
    defs[2].b = DAPTO_REL_NONE;
    defs[2].c = DAPTO_REL_NONE;
    ra.gen += 2;
    __atomic_store_n(&h->gen, ra.gen, __ATOMIC_RELEASE);
    rtrel_enter(&env, t, key(parse), 0);
    rtrel_part(&env, t, 1, DAPTO_REL_PART_B, ev_arg, NULL);
    rtrel_part(&env, t, 99, DAPTO_REL_PART_B, ev_arg, NULL);
    rtrel_leave(&env, t, key(parse), 0);
    CHECK_EQ_INT(nseen, 0);
    CHECK(t->defs[0].kind == 0 && t->defs[1].kind == 0 && t->defs[2].kind == 0);
    /* a slot's own fields scribbled on: indexes masked, never followed */
    t->npend = 100000;
    t->depth = 3;
    t->frame[2].comp = 250;
    rtrel_leave(&env, t, key(parse), 0);
    rtrel_unwind(&env, t, 0);
    CHECK_EQ_INT(t->depth, 0);
}

int main(void)
{
    struct dapto_rel_thread *t, *t2;

    setup();
    t = rtrel_take(&env, 101);
    CHECK(t != NULL && t->tid == 101);
    test_stack(t);
    test_contains(t);
    test_before(t);
    test_pending(t);
    /* a thread's stack is its own */
    t2 = rtrel_take(&env, 102);
    CHECK(t2 != NULL && t2 != t);
    CHECK(rtrel_mask(&env, t2) == 0);
    /* slots run out: counted */
    CHECK(rtrel_take(&env, 103) != NULL && rtrel_take(&env, 104) != NULL);
    CHECK(rtrel_take(&env, 105) == NULL);
    CHECK(relarea_no_slot(&ra) == 1 && relarea_threads(&ra) == 4);
    test_scribbled(t);
    region_close(&reg);
    return unit_done("relate-test");
}
