/* SPDX-License-Identifier: MIT */
/*
 * direct-test.c - the direct path of function records against the
 * general one, on the same input.  The test plays the program's part on
 * a channel of its own (it writes the runtime's identity and records into
 * the region as the runtime would) and reads the same records twice: once
 * through a channel whose function records go to a sink in batches, once
 * as items.  What comes out must be the same, in the same order: the
 * functions and the enter/leave events by interned name, their times and
 * threads, and the items between them (a loss, a malformed function
 * record, an unknown intern id, a record of another kind, records that
 * wrap around the end of the ring), also when the sink stops taking
 * records part way.  Then the same functions go into component stacks,
 * by the direct path (stacks_functions) and as the dispatcher makes
 * enter/leave events of them (names through symnames, excluded functions
 * left out): the stacks must change in the same way (pushes, pops and
 * calling-context nodes a profile counts by, mismatches reported).
 *
 * Random, with a seed it prints and accepts as its argument.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "channel.h"
#include "clock.h"
#include "dapto.h"
#include "protocol.h"
#include "reader.h"
#include "region.h"
#include "ring.h"
#include "stacks.h"
#include "symnames.h"
#include "unit.h"

/* What a reader of a channel saw, in order. */
enum { SEEN_FN, SEEN_ITEM };

struct seen {
    int what;
    int kind; /* SEEN_ITEM: the item's kind */
    struct reader_fn fn;
};

struct log {
    struct seen *s;
    size_t n, cap;
    unsigned int batches;
    unsigned int largest;
    long decline_after; /* the sink takes this many records, then no more
                           (-1: all) */
};

static void log_add(struct log *l, const struct seen *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->s = realloc(l->s, l->cap * sizeof *l->s);
        if (l->s == NULL)
            abort();
    }
    l->s[l->n++] = *s;
}

static const char *canon(const char *name);

static unsigned int sink(void *arg, const struct reader_fn *fns,
                         unsigned int n)
{
    struct log *l = arg;
    unsigned int i;

    l->batches++;
    if (n > l->largest)
        l->largest = n;
    for (i = 0; i < n; i++) {
        struct seen s = {SEEN_FN, 0, fns[i]};

        /* (the reader's strings go with its channel) */
        if (s.fn.name != NULL)
            s.fn.name = canon(s.fn.name);
        if (l->decline_after == 0)
            return i;
        if (l->decline_after > 0)
            l->decline_after--;
        log_add(l, &s);
    }
    return n;
}

static uint64_t rnd_state;

static uint32_t rnd(void)
{
    rnd_state = rnd_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rnd_state >> 33);
}

/* One record the program writes. */
/* Records: function entries and exits (R_FN), malformed ones, intern
 * records, enter/leave events by interned name (R_NAMED) and with an
 * unknown intern id, an event no aspect declares, losses. */
enum { R_FN, R_BADFN, R_INTERN, R_NAMED, R_BADNAMED, R_EVENT, R_LOST };

/* Components: twelve functions (by address) and six named ones. */
#define NFUNCS 12
#define NNAMED 6
static const char *const names[NNAMED + 1] = {
    "", "parser", "lexical", "string", "tree", "coord", "driver"};

/* Our copy of NAME, which stays. */
static const char *canon(const char *name)
{
    for (unsigned int i = 1; i <= NNAMED; i++) {
        if (strcmp(name, names[i]) == 0)
            return names[i];
    }
    fprintf(stderr, "a name never interned: \"%s\"\n", name);
    abort();
}

struct rec {
    int kind;
    int enter;
    uint64_t fn; /* R_FN: address; R_NAMED: intern id; R_INTERN: id */
    pid_t tid;
    uint64_t time;
};

/* Component C (0..NFUNCS+NNAMED-1) into record R. */
static void component(struct rec *r, unsigned int c)
{
    if (c < NFUNCS) {
        r->kind = R_FN;
        r->fn = 0x401000 + 0x40 * c;
    } else {
        r->kind = R_NAMED;
        r->fn = c - NFUNCS + 1;
    }
}

/* The records of a program with three threads calling among its
 * components, now and then leaving one that is not the innermost (or
 * with nothing entered), with records of other kinds in between.  The
 * names are interned first, as the runtime would. */
static struct rec *make_records(size_t n)
{
    struct rec *r = calloc(n, sizeof *r);
    int depth[3] = {0, 0, 0};
    unsigned int stack[3][64];
    uint64_t time = 1000;
    uint32_t extra = 100;
    size_t i;

    if (r == NULL)
        abort();
    for (i = 0; i < n; i++) {
        unsigned int t = rnd() % 3, k = rnd() % 200, c;

        time += rnd() % 50;
        r[i].tid = (pid_t)(4000 + t);
        r[i].time = time;
        if (i < NNAMED) {
            r[i].kind = R_INTERN;
            r[i].fn = i + 1;
            continue;
        }
        switch (k) {
        case 0:
            r[i].kind = R_BADFN;
            continue;
        case 1:
            /* a name never used */
            r[i].kind = R_INTERN;
            r[i].fn = extra++;
            continue;
        case 2:
            r[i].kind = R_EVENT;
            continue;
        case 3:
            r[i].kind = R_LOST;
            continue;
        case 4:
            r[i].kind = R_BADNAMED;
            r[i].enter = rnd() % 2;
            continue;
        }
        if (k < 10) {
            /* a stray leave */
            component(&r[i], rnd() % (NFUNCS + NNAMED));
            r[i].enter = 0;
        } else if (depth[t] < 64 && (depth[t] == 0 || rnd() % 2 == 0)) {
            c = rnd() % (NFUNCS + NNAMED);
            component(&r[i], c);
            r[i].enter = 1;
            stack[t][depth[t]++] = c;
        } else {
            component(&r[i], stack[t][--depth[t]]);
            r[i].enter = 0;
        }
    }
    return r;
}

/* Write record R into the ring through producer P. */
static void put(struct ring *p, const struct rec *r)
{
    union {
        struct dapto_record h;
        unsigned char b[64];
    } u;
    unsigned char *v = u.b + DAPTO_RECORD_HEADER;
    uint64_t site = 0x400500;

    memset(&u, 0, sizeof u);
    u.h.tid = (uint32_t)r->tid;
    u.h.time = r->time;
    switch (r->kind) {
    case R_FN:
    case R_BADFN:
        u.h.code = r->enter ? DAPTO_REC_FNENTER : DAPTO_REC_FNLEAVE;
        u.h.len = READER_FN_LEN;
        v[0] = DAPTO_K_PTR;
        memcpy(v + 1, &r->fn, 8);
        /* a malformed one has a long where the call site goes */
        v[9] = r->kind == R_BADFN ? DAPTO_K_LONG : DAPTO_K_PTR;
        memcpy(v + 10, &site, 8);
        break;
    case R_INTERN: {
        int32_t id = (int32_t)r->fn, len;
        char text[16];

        if (r->fn <= NNAMED)
            snprintf(text, sizeof text, "%s", names[r->fn]);
        else
            snprintf(text, sizeof text, "extra%d", id);
        len = (int32_t)strlen(text);
        u.h.code = DAPTO_REC_INTERN;
        v[0] = DAPTO_K_INT;
        memcpy(v + 1, &id, 4);
        v[5] = DAPTO_K_STR;
        memcpy(v + 6, &len, 4);
        memcpy(v + 10, text, (size_t)len + 1);
        u.h.len = 10 + (uint32_t)len + 1;
        break;
    }
    case R_NAMED:
    case R_BADNAMED: {
        uint32_t id = r->kind == R_NAMED ? (uint32_t)r->fn : 77;
        u.h.code = r->enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE;
        v[0] = DAPTO_K_ISTR;
        memcpy(v + 1, &id, 4);
        u.h.len = 5;
        break;
    }
    case R_EVENT:
        /* an event no aspect declares: an error item */
        u.h.code = 77;
        u.h.len = 0;
        break;
    case R_LOST:
        __atomic_fetch_add(&p->hdr->lost, 1, __ATOMIC_RELAXED);
        return;
    }
    CHECK(ring_put(p, &u.h) == 0);
}

/* Read what is in channel CH into L (function items as SEEN_FN). */
static void drain(struct channel *ch, struct log *l, unsigned int *zeros)
{
    struct reader_item it;

    for (;;) {
        struct seen s;

        if (!channel_next(ch, &it)) {
            /* the direct path gives back at a bound, the ring still
             * ready: go on while there is something */
            if (!channel_sleep_prepare(ch)) {
                channel_sleep_finish(ch);
                (*zeros)++;
                continue;
            }
            channel_sleep_finish(ch);
            return;
        }
        memset(&s, 0, sizeof s);
        if (it.kind == READER_FUNCTION) {
            s.what = SEEN_FN;
            s.fn.function = it.function;
            s.fn.ns = it.ns;
            s.fn.tid = it.tid;
            s.fn.enter = it.enter;
        } else if (it.kind == READER_EVENT &&
                   (it.code == DAPTO_EV_ENTER || it.code == DAPTO_EV_LEAVE)) {
            CHECK(it.nvalues == 1 && it.values[0].kind == DAPTO_K_STR);
            s.what = SEEN_FN;
            s.fn.name = canon(it.values[0].s);
            s.fn.len = it.values[0].len;
            s.fn.ns = it.ns;
            s.fn.tid = it.tid;
            s.fn.enter = it.code == DAPTO_EV_ENTER;
        } else {
            s.what = SEEN_ITEM;
            s.kind = (int)it.kind;
        }
        log_add(l, &s);
    }
}

/* The built-in aspect's description <protocol#iface>, in the interface
 * area at offset 0, and its record: what the runtime does first. */
static void post_builtin(const struct region *reg, struct ring *p)
{
    static const char *const evs[DAPTO_EV_BUILTINS] = {
        "init", "finit", "exit", "stopped", "enter", "leave"};
    unsigned char *area = (unsigned char *)reg->hdr + reg->geom.iface_off;
    struct dapto_out o;
    union {
        struct dapto_record h;
        unsigned char b[64];
    } u;
    int i;

    memset(&o, 0, sizeof o);
    o.base = o.p = area;
    o.end = area + reg->geom.iface_size;
    dapto_put_str(&o, "dapto");
    dapto_put_str(&o, "libdapto");
    dapto_put_int(&o, DAPTO_ABI_VERSION);
    dapto_put_int(&o, 0); /* event_base */
    dapto_put_int(&o, DAPTO_EV_BUILTINS);
    dapto_put_int(&o, 0); /* op_base */
    dapto_put_int(&o, 0);
    for (i = 0; i < DAPTO_EV_BUILTINS; i++) {
        int named = i == DAPTO_EV_ENTER || i == DAPTO_EV_LEAVE;

        dapto_put_str(&o, evs[i]);
        dapto_put_str(&o, "");
        dapto_put_int(&o, 0);
        dapto_put_ptr(&o, (const void *)(uintptr_t)(0x1000 + i));
        dapto_put_int(&o, named);
        if (named) {
            dapto_put_str(&o, "name");
            dapto_put_str(&o, "str");
            dapto_put_int(&o, DAPTO_K_STR);
            dapto_put_str(&o, "");
        }
    }
    CHECK(!o.truncated);
    memset(&u, 0, sizeof u);
    u.h.code = DAPTO_REC_ASPECT;
    u.b[DAPTO_RECORD_HEADER] = DAPTO_K_INT;
    i = 0;
    memcpy(u.b + DAPTO_RECORD_HEADER + 1, &i, 4);
    u.b[DAPTO_RECORD_HEADER + 5] = DAPTO_K_INT;
    i = (int)(o.p - o.base);
    memcpy(u.b + DAPTO_RECORD_HEADER + 6, &i, 4);
    u.h.len = 10;
    CHECK(ring_put(p, &u.h) == 0);
}

/* A channel that a test producer writes into, as an attached runtime. */
static struct channel *open_channel(uint32_t ring_size, struct ring *prod)
{
    struct channel_opts o;
    struct channel *ch;
    const struct region *reg;
    char *cause = NULL;

    memset(&o, 0, sizeof o);
    o.ring_size = ring_size;
    o.no_tsc = 1;
    if (channel_create(&ch, &o, &cause) != 0) {
        fprintf(stderr, "channel_create: %s\n", cause);
        exit(1);
    }
    reg = channel_region(ch);
    reg->hdr->id.rt_major = DAPTO_PROTO_MAJOR;
    reg->hdr->id.rt_median = DAPTO_PROTO_MEDIAN;
    reg->hdr->id.rt_minor = DAPTO_PROTO_MINOR;
    reg->hdr->id.rt_pid = 1;
    __atomic_store_n(&reg->hdr->id.rt_magic, DAPTO_RUNTIME_MAGIC,
                     __ATOMIC_RELEASE);
    ring_init(prod, reg);
    post_builtin(reg, prod);
    return ch;
}

/* Feed records R[0..N) through a ring of RING_SIZE bytes into CH, never
 * more than fits, reading as we go. */
static void feed(struct channel *ch, struct ring *p, const struct rec *r,
                 size_t n, struct log *l, unsigned int *zeros)
{
    size_t i = 0;

    while (i < n) {
        uint64_t head = __atomic_load_n(&p->hdr->head, __ATOMIC_RELAXED);
        uint64_t tail = __atomic_load_n(&p->hdr->tail, __ATOMIC_ACQUIRE);

        /* room for the largest record we write (64 bytes) */
        while (i < n && head + 64 - tail <= p->size) {
            put(p, &r[i++]);
            head = __atomic_load_n(&p->hdr->head, __ATOMIC_RELAXED);
        }
        drain(ch, l, zeros);
    }
    drain(ch, l, zeros);
}

/* Whether A and B saw the same.  (Their times count from the start of
 * each channel: they differ by the same amount throughout.) */
static int same_seen(const struct log *a, const struct log *b)
{
    int64_t shift = 0;
    int shifted = 0;
    size_t i;

    if (a->n != b->n) {
        fprintf(stderr, "%zu things seen against %zu\n", a->n, b->n);
        return 0;
    }
    for (i = 0; i < a->n; i++) {
        const struct seen *x = &a->s[i], *y = &b->s[i];

        if (x->what == SEEN_FN && !shifted) {
            shift = y->fn.ns - x->fn.ns;
            shifted = 1;
        }
        if (x->what != y->what || x->kind != y->kind ||
            x->fn.function != y->fn.function || x->fn.name != y->fn.name ||
            x->fn.len != y->fn.len ||
            (x->what == SEEN_FN && x->fn.ns + shift != y->fn.ns) ||
            x->fn.tid != y->fn.tid || x->fn.enter != y->fn.enter) {
            fprintf(stderr, "thing %zu differs\n", i);
            return 0;
        }
    }
    return 1;
}

/* The events channel_kept() gives, as one string of bytes. */
struct kept {
    unsigned char b[64 * 1024];
    size_t len;
    unsigned int n;
};

static void kept_add(void *arg, const unsigned char *rec, uint32_t size)
{
    struct kept *k = arg;

    CHECK(size >= DAPTO_RECORD_HEADER && size <= 248);
    if (k->len + size + 4 <= sizeof k->b) {
        memcpy(k->b + k->len, &size, 4);
        memcpy(k->b + k->len + 4, rec, size);
        k->len += size + 4;
    }
    k->n++;
}

/* Read records R twice, with and without the direct path; compare. */
static void compare_channels(const struct rec *r, size_t n, uint32_t ring,
                             long decline_after, struct log *direct_fns)
{
    struct ring p1, p2;
    struct channel *plain = open_channel(ring, &p1);
    struct channel *fast = open_channel(ring, &p2);
    struct log lp, lf;
    unsigned int zp = 0, zf = 0;
    size_t i, fns = 0, items = 0;

    memset(&lp, 0, sizeof lp);
    memset(&lf, 0, sizeof lf);
    lf.decline_after = decline_after;
    channel_direct(fast, sink, &lf);
    /* both keep their last 7 events for the post-mortem */
    channel_keep(plain, 7);
    channel_keep(fast, 7);
    feed(plain, &p1, r, n, &lp, &zp);
    feed(fast, &p2, r, n, &lf, &zf);
    CHECK(same_seen(&lp, &lf));
    {
        static struct kept kp, kf;

        kp.len = kp.n = kf.len = kf.n = 0;
        channel_kept(plain, kept_add, &kp);
        channel_kept(fast, kept_add, &kf);
        CHECK_EQ_INT(kp.n, 7);
        CHECK(kp.n == kf.n && kp.len == kf.len &&
              memcmp(kp.b, kf.b, kp.len) == 0);
    }
    for (i = 0; i < lp.n; i++) {
        if (lp.s[i].what == SEEN_FN)
            fns++;
        else
            items++;
    }
    /* every record is there: the losses are counted in one item each
     * time they grew, so there are at most as many items as records of
     * other kinds */
    CHECK(fns > n / 2);
    CHECK(items > 0 || ring >= (4u << 20));
    CHECK(lf.batches > 0);
    CHECK(lf.largest <= 256);
    if (ring >= (4u << 20))
        CHECK(zf > 0); /* the direct path gave back at its bound */
    if (direct_fns != NULL) {
        for (i = 0; i < lf.n; i++) {
            if (lf.s[i].what == SEEN_FN)
                log_add(direct_fns, &lf.s[i]);
        }
    }
    free(lp.s);
    free(lf.s);
    channel_free(plain);
    channel_free(fast);
}

/* --- the stacks ---------------------------------------------------------- */

static char heard[1 << 20];
static size_t heard_len;

static void watch(void *arg, const struct stacks_change *c, size_t n)
{
    size_t i;

    (void)arg;
    for (i = 0; i < n && heard_len + 64 < sizeof heard; i++)
        heard_len += (size_t)snprintf(heard + heard_len, 64, "%c%d:%u:%lld ",
                                      c[i].what == STACKS_PUSH ? '+' : '-',
                                      (int)c[i].tid, c[i].node,
                                      (long long)c[i].ns);
}

static unsigned int mismatches;

static void listen(void *arg, int what, pid_t tid, const char *name,
                   int64_t ns)
{
    (void)arg;
    (void)tid;
    (void)name;
    (void)ns;
    if (what == STACKS_MISMATCH)
        mismatches++;
}

/* The stack changes that functions FNS make, the direct way or (SLOW) as
 * the dispatcher's enter/leave events by name; in *OUT (caller frees). */
static void stack_changes(const struct log *fns, int slow, char **out,
                          unsigned int *nmismatch, char **paths)
{
    struct stacks *st = stacks_create(NULL, NULL, NULL);
    struct symnames *sn = symnames_create();
    size_t i, plen = 0;
    uint32_t node;
    char *p;

    symnames_reset(sn, 0); /* no process: names are addresses */
    CHECK(symnames_exclude(sn, "0x4010c0", 1) == 0);
    stacks_use(st, 1);
    stacks_watch(st, watch, NULL);
    stacks_listen(st, listen, NULL);
    heard_len = 0;
    heard[0] = '\0';
    mismatches = 0;
    if (!slow) {
        /* in batches of 100, as a sink would get them */
        struct reader_fn *b = malloc(100 * sizeof *b);
        size_t k = 0;
        for (i = 0; i < fns->n; i++) {
            b[k++] = fns->s[i].fn;
            if (k == 100 || i + 1 == fns->n) {
                stacks_functions(st, sn, b, k);
                k = 0;
            }
        }
        free(b);
    } else {
        for (i = 0; i < fns->n; i++) {
            const struct reader_fn *f = &fns->s[i].fn;
            size_t len = f->len;
            const char *name =
                f->name != NULL ? f->name
                                : symnames_name(sn, f->function, &len);

            if (name == NULL)
                continue;
            if (f->enter)
                stacks_enter(st, f->tid, name, len, f->ns);
            else
                stacks_leave(st, f->tid, name, len, f->ns);
        }
    }
    *out = strdup(heard);
    *nmismatch = mismatches;
    /* every calling context, by number */
    *paths = calloc(1, 1);
    for (node = 0; node < cct_nnodes(stacks_cct(st)); node++) {
        p = cct_path(stacks_cct(st), node, "/");
        *paths = realloc(*paths, plen + strlen(p) + 2);
        memcpy(*paths + plen, p, strlen(p));
        plen += strlen(p);
        (*paths)[plen++] = '\n';
        (*paths)[plen] = '\0';
        free(p);
    }
    symnames_free(sn);
    stacks_free(st);
}

/* A name interned again stays where it was (the stacks know names by
 * their address), whether the text is the same or not. */
static void test_reintern(void)
{
    struct registry *reg = registry_create();
    struct clock clk;
    struct reader *rd;
    struct reader_item it;
    const char *texts[3] = {"alpha", "alpha", "beta"}, *first = NULL, *again;
    int i;

    clock_init(&clk, 0);
    rd = reader_create(reg, &clk, 4);
    for (i = 0; i < 3; i++) {
        union {
            struct dapto_record h;
            unsigned char b[64];
        } u;
        int32_t id = 3, len = (int32_t)strlen(texts[i]);
        unsigned char *v = u.b + DAPTO_RECORD_HEADER;

        memset(&u, 0, sizeof u);
        u.h.code = DAPTO_REC_INTERN;
        v[0] = DAPTO_K_INT;
        memcpy(v + 1, &id, 4);
        v[5] = DAPTO_K_STR;
        memcpy(v + 6, &len, 4);
        memcpy(v + 10, texts[i], (size_t)len + 1);
        u.h.len = 10 + (uint32_t)len + 1;
        u.h.size = (DAPTO_RECORD_HEADER + u.h.len + 7) & ~7u;
        reader_record(rd, u.b, u.h.size, NULL, 0, &it);
        CHECK_EQ_INT(it.kind, READER_NONE);
        if (i == 0)
            first = reader_intern(rd, 3);
        if (i == 1) {
            again = reader_intern(rd, 3);
            CHECK(again == first);
        }
    }
    CHECK(strcmp(reader_intern(rd, 3), "beta") == 0);
    CHECK(strcmp(first, "alpha") == 0); /* still there */
    reader_free(rd);
    registry_free(reg);
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0)
                                  : (unsigned long)time(NULL);
    struct log fns;
    struct rec *r;
    char *fast, *slow, *fast_paths, *slow_paths;
    unsigned int fm, sm;
    size_t n = 60000;

    printf("direct-test: seed %lu\n", seed);
    test_reintern();
    rnd_state = seed;
    r = make_records(n);
    memset(&fns, 0, sizeof fns);

    /* a small ring: records wrap around its end, the reader catches up */
    compare_channels(r, n, 4096, -1, &fns);
    {
        size_t i, named = 0, funcs = 0;

        for (i = 0; i < fns.n; i++) {
            if (fns.s[i].fn.name != NULL)
                named++;
            else
                funcs++;
        }
        /* both kinds went the direct way */
        CHECK(named > 1000);
        CHECK(funcs > 1000);
    }
    /* a sink that stops taking records: the rest come as items */
    compare_channels(r, n, 4096, 5000, NULL);
    compare_channels(r, n, 4096, 0, NULL);
    free(r);

    /* a ring larger than the direct path takes in one call */
    n = 80000;
    r = make_records(n);
    for (size_t i = 0; i < n; i++) {
        if (r[i].kind != R_FN && r[i].kind != R_NAMED &&
            r[i].kind != R_INTERN)
            r[i].kind = R_FN, r[i].enter = 0, r[i].fn = 0x401000;
    }
    compare_channels(r, n, 8u << 20, -1, NULL);
    free(r);

    /* the stacks: direct and by name alike */
    stack_changes(&fns, 0, &fast, &fm, &fast_paths);
    stack_changes(&fns, 1, &slow, &sm, &slow_paths);
    CHECK(strlen(fast) > 1000);
    CHECK(strcmp(fast, slow) == 0);
    CHECK(strcmp(fast_paths, slow_paths) == 0);
    CHECK(strstr(fast_paths, "0x4010c0") == NULL); /* excluded */
    CHECK(strstr(fast_paths, "0x401080") != NULL);
    CHECK(strstr(fast_paths, "parser") != NULL);
    CHECK(fm > 0);
    CHECK_EQ_INT(fm, sm);
    free(fast);
    free(slow);
    free(fast_paths);
    free(slow_paths);
    free(fns.s);
    return unit_done("direct-test");
}
