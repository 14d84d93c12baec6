/* SPDX-License-Identifier: MIT */
/*
 * filter.c - the monitor's side of filters and counters <protocol#filter>
 * <protocol#counters>: the filter area's directory and space policy, the
 * complete check of a filter before it is written, and counter sums.
 * Never on the program's side; no allocation, no I/O.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dapto.h"
#include "filter.h"

static uint32_t align8(uint32_t v)
{
    return (v + 7) & ~7u;
}

static uint32_t *dir_of(const struct filter_space *fs)
{
    return ((struct dapto_filter_area *)(void *)fs->area)->dir;
}

static uint32_t *gen_of(const struct filter_space *fs)
{
    return &((struct dapto_filter_area *)(void *)fs->area)->gen;
}

/* <protocol#filter-gen>: the generation goes odd before any byte of a
 * filter is written, so that a thread that cached a filter sees that it
 * may have changed. */
static void gen_begin(struct filter_space *fs)
{
    uint32_t g = __atomic_load_n(gen_of(fs), __ATOMIC_RELAXED);

    __atomic_store_n(gen_of(fs), g | 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

/* ... and even again (never 0) once they are written. */
static void gen_end(struct filter_space *fs)
{
    uint32_t g = (__atomic_load_n(gen_of(fs), __ATOMIC_RELAXED) | 1) + 1;

    __atomic_store_n(gen_of(fs), g != 0 ? g : 2, __ATOMIC_RELEASE);
}

int filter_space_init(struct filter_space *fs, const struct region *r,
                      uint32_t ncodes, struct filter_entry *entries,
                      const char **cause)
{
    struct dapto_filter_area *fa;
    uint64_t base;
    uint32_t i;

    memset(fs, 0, sizeof *fs);
    if (r->geom.filt_size == 0) {
        *cause = "the region has no filter area";
        return -1;
    }
    base = align8((uint32_t)sizeof *fa) + (uint64_t)ncodes * sizeof(uint32_t);
    base = (base + 7) & ~(uint64_t)7;
    if (base > r->geom.filt_size ||
        (r->geom.filt_size - base) / 2 < DAPTO_FILTER_MAX) {
        *cause = "the filter area has no room for filters after its directory";
        return -1;
    }
    fs->area = (unsigned char *)r->hdr + r->geom.filt_off;
    fs->size = r->geom.filt_size;
    fs->ncodes = ncodes;
    fs->base = (uint32_t)base;
    fs->half = (uint32_t)((fs->size - base) / 2) & ~7u;
    fs->entries = entries;
    memset(entries, 0, (size_t)ncodes * sizeof *entries);
    fa = (struct dapto_filter_area *)(void *)fs->area;
    /* a new generation: caches of filters an earlier monitor wrote go */
    gen_begin(fs);
    for (i = 0; i < ncodes; i++)
        __atomic_store_n(&fa->dir[i], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&fa->ncodes, ncodes, __ATOMIC_RELEASE);
    gen_end(fs);
    return 0;
}

/* Start filling the other half: copy every filter in effect to its start
 * <protocol#filter>.  All of them are in the current half, so the other
 * holds only filters replaced before the current half was filled. */
static int switch_half(struct filter_space *fs, const char **cause)
{
    uint32_t other = 1 - fs->cur, pos = 0, c, off;
    uint64_t total = 0;

    for (c = 0; c < fs->ncodes; c++)
        if (fs->entries[c].off != 0)
            total += align8(fs->entries[c].size);
    if (total > fs->half) {
        *cause = "the filters in effect do not fit in half the filter area";
        return -1;
    }
    for (c = 0; c < fs->ncodes; c++) {
        if (fs->entries[c].off == 0)
            continue;
        off = fs->base + other * fs->half + pos;
        memcpy(fs->area + off, fs->area + fs->entries[c].off,
               fs->entries[c].size);
        __atomic_store_n(&dir_of(fs)[c], off, __ATOMIC_RELEASE);
        fs->entries[c].off = off;
        pos += align8(fs->entries[c].size);
    }
    fs->cur = other;
    fs->used = pos;
    return 0;
}

int filter_put(struct filter_space *fs, uint32_t code, const void *filter,
               size_t len, const char **cause)
{
    struct dapto_filter fh;
    uint32_t need, off;

    if (code >= fs->ncodes) {
        *cause = "the event's code is beyond the filter directory";
        return -1;
    }
    if (len < sizeof fh || len > DAPTO_FILTER_MAX) {
        *cause = "a filter's size is out of range";
        return -1;
    }
    memcpy(&fh, filter, sizeof fh);
    if (fh.size != len) {
        *cause = "the filter's size field is not its length";
        return -1;
    }
    need = align8((uint32_t)len);
    gen_begin(fs);
    if (fs->used + need > fs->half) {
        if (switch_half(fs, cause) != 0)
            goto refused;
        if (fs->used + need > fs->half) {
            *cause = "the filter area is full";
            goto refused;
        }
    }
    off = fs->base + fs->cur * fs->half + fs->used;
    memcpy(fs->area + off, filter, len);
    /* <protocol#filter>: the whole filter first, then its offset */
    __atomic_store_n(&dir_of(fs)[code], off, __ATOMIC_RELEASE);
    fs->entries[code].off = off;
    fs->entries[code].size = (uint32_t)len;
    fs->used += need;
    gen_end(fs);
    return 0;

refused:
    gen_end(fs);
    return -1;
}

void filter_remove(struct filter_space *fs, uint32_t code)
{
    if (code >= fs->ncodes)
        return;
    __atomic_store_n(&dir_of(fs)[code], 0, __ATOMIC_RELEASE);
    fs->entries[code].off = 0;
    fs->entries[code].size = 0;
}

uint64_t filter_counter(const struct region *r, uint32_t id)
{
    const uint64_t *c;
    uint64_t sum = 0;
    uint32_t s;

    if (r->geom.cnt_slots == 0 || id >= DAPTO_CNT_PER_SLOT)
        return 0;
    c = (const uint64_t *)(const void *)((const unsigned char *)r->hdr +
                                         r->geom.cnt_off);
    for (s = 0; s < r->geom.cnt_slots; s++)
        sum += __atomic_load_n(&c[(size_t)s * DAPTO_CNT_PER_SLOT + id],
                               __ATOMIC_RELAXED);
    return sum;
}

/* The check ---------------------------------------------------------- */

enum { T_INT = 1, T_DBL = 2, T_STR = 3 };

/* The stack's shape before an instruction: depth (-1: not reached yet)
 * and the type of each value. */
struct shape {
    int depth;
    unsigned char t[DAPTO_FILTER_STACK];
};

struct checker {
    char *msg;
    size_t size;
    unsigned int clause; /* for messages */
};

static int fail(struct checker *k, int at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Say what is wrong, in clause K->clause at byte AT of its program (AT <
 * 0: not in a program). */
static int fail(struct checker *k, int at, const char *fmt, ...)
{
    va_list ap;
    int n = 0;

    if (k->size == 0)
        return -1;
    if (at >= 0)
        n = snprintf(k->msg, k->size, "clause %u, byte %d: ", k->clause, at);
    else if (k->clause != ~0u)
        n = snprintf(k->msg, k->size, "clause %u: ", k->clause);
    if (n < 0 || (size_t)n >= k->size)
        return -1;
    va_start(ap, fmt);
    vsnprintf(k->msg + n, k->size - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int counter_ok(uint16_t id)
{
    return id < DAPTO_CNT_PER_SLOT || id == DAPTO_CNT_NONE;
}

/* Merge shape S into the shape before byte AT of a program. */
static int meet(struct checker *k, struct shape *at_shape, const struct shape *s,
                int at)
{
    if (at_shape->depth < 0) {
        *at_shape = *s;
        return 0;
    }
    if (at_shape->depth != s->depth ||
        memcmp(at_shape->t, s->t, (size_t)s->depth) != 0)
        return fail(k, at, "paths meet with different stacks");
    return 0;
}

/* Check the parameter read by OP (ARG, ARGD, ARGS) at byte AT. */
static int check_arg(struct checker *k, int op, unsigned int idx,
                     const unsigned char *kinds, unsigned int nparams, int at)
{
    unsigned int kind;

    if (idx >= nparams || idx >= DAPTO_FILTER_ARGS)
        return fail(k, at, "parameter %u does not exist (%u parameters)", idx,
                    nparams);
    kind = kinds[idx];
    if (op == DAPTO_FOP_ARG && (kind == DAPTO_K_INT || kind == DAPTO_K_LONG ||
                                kind == DAPTO_K_PTR || kind == DAPTO_K_USER))
        return 0;
    if (op == DAPTO_FOP_ARGD && (kind == DAPTO_K_DOUBLE || kind == DAPTO_K_INT ||
                                 kind == DAPTO_K_LONG))
        return 0;
    if (op == DAPTO_FOP_ARGS && kind == DAPTO_K_STR)
        return 0;
    return fail(k, at, "parameter %u (kind %u) cannot be read as %s", idx, kind,
                op == DAPTO_FOP_ARG    ? "an integer"
                : op == DAPTO_FOP_ARGD ? "a double"
                                       : "a string");
}

/* Check program P (N bytes). */
static int check_program(struct checker *k, const unsigned char *p, uint32_t n,
                         const unsigned char *kinds, unsigned int nparams)
{
    static const char *const tname[] = {"?", "integer", "double", "string"};
    struct shape sh[DAPTO_FILTER_MAX + 1], s;
    unsigned char start[DAPTO_FILTER_MAX];
    uint32_t pc = 0, at, i;
    uint16_t off;
    int op, want, ends = 0;

    for (i = 0; i <= n; i++)
        sh[i].depth = -1;
    memset(start, 0, n);
    sh[0].depth = 0;
    while (pc < n) {
        at = pc;
        start[at] = 1;
        if (sh[at].depth < 0)
            return fail(k, (int)at, "no path reaches this instruction");
        s = sh[at];
        op = p[pc++];
        switch (op) {
        case DAPTO_FOP_END:
            if (s.depth != 1 || s.t[0] != T_INT)
                return fail(k, (int)at, "END needs exactly one integer on the "
                                        "stack, not %d values", s.depth);
            ends++;
            continue; /* nothing falls through */
        case DAPTO_FOP_ARG:
        case DAPTO_FOP_ARGD:
        case DAPTO_FOP_ARGS:
            if (pc + 1 > n)
                return fail(k, (int)at, "an operand runs past the program");
            if (check_arg(k, op, p[pc], kinds, nparams, (int)at) != 0)
                return -1;
            pc++;
            want = op == DAPTO_FOP_ARG ? T_INT : op == DAPTO_FOP_ARGD ? T_DBL : T_STR;
            goto push;
        case DAPTO_FOP_TID:
            want = T_INT;
            goto push;
        case DAPTO_FOP_WITHIN:
            /* <protocol#relate> */
            if (pc + 1 > n)
                return fail(k, (int)at, "an operand runs past the program");
            if (p[pc] >= DAPTO_REL_COMPS)
                return fail(k, (int)at, "component %u, not below %d",
                            (unsigned int)p[pc], DAPTO_REL_COMPS);
            pc++;
            want = T_INT;
            goto push;
        case DAPTO_FOP_CONST:
        case DAPTO_FOP_CONSTD:
            if (pc + 8 > n)
                return fail(k, (int)at, "an operand runs past the program");
            pc += 8;
            want = op == DAPTO_FOP_CONST ? T_INT : T_DBL;
            goto push;
        case DAPTO_FOP_CONSTS:
            if (pc + 2 > n)
                return fail(k, (int)at, "an operand runs past the program");
            memcpy(&off, p + pc, 2);
            pc += 2;
            if (pc + off > n)
                return fail(k, (int)at, "a string constant runs past the program");
            pc += off;
            want = T_STR;
            goto push;
        case DAPTO_FOP_NOT:
            if (s.depth < 1 || s.t[s.depth - 1] != T_INT)
                return fail(k, (int)at, "NOT needs an integer");
            break;
        case DAPTO_FOP_JF:
        case DAPTO_FOP_JT:
            if (pc + 2 > n)
                return fail(k, (int)at, "an operand runs past the program");
            memcpy(&off, p + pc, 2);
            pc += 2;
            if (s.depth < 1 || s.t[s.depth - 1] != T_INT)
                return fail(k, (int)at, "a jump needs an integer");
            if ((uint32_t)off >= n - pc)
                return fail(k, (int)at, "a jump goes past the program's end");
            if (meet(k, &sh[pc + off], &s, (int)(pc + off)) != 0)
                return -1;
            s.depth--;
            break;
        default:
            if ((op >= DAPTO_FOP_CMPI && op <= DAPTO_FOP_CMPI + DAPTO_FCMP_GE) ||
                (op >= DAPTO_FOP_CMPU && op <= DAPTO_FOP_CMPU + DAPTO_FCMP_GE))
                want = T_INT;
            else if (op >= DAPTO_FOP_CMPD && op <= DAPTO_FOP_CMPD + DAPTO_FCMP_GE)
                want = T_DBL;
            else if (op >= DAPTO_FOP_SEQ && op <= DAPTO_FOP_GLOB)
                want = T_STR;
            else
                return fail(k, (int)at, "unknown opcode 0x%02x", (unsigned int)op);
            if (s.depth < 2)
                return fail(k, (int)at, "a comparison needs two values");
            if (s.t[s.depth - 1] != want || s.t[s.depth - 2] != want)
                return fail(k, (int)at, "a comparison of %ss has a %s and a %s",
                            tname[want], tname[s.t[s.depth - 2]],
                            tname[s.t[s.depth - 1]]);
            s.depth--;
            s.t[s.depth - 1] = T_INT;
            break;
        }
        goto next;
    push:
        if (s.depth == DAPTO_FILTER_STACK)
            return fail(k, (int)at, "the stack would hold more than %d values",
                        DAPTO_FILTER_STACK);
        s.t[s.depth++] = (unsigned char)want;
    next:
        if (pc == n)
            return fail(k, (int)at, "the program ends without END");
        if (meet(k, &sh[pc], &s, (int)pc) != 0)
            return -1;
    }
    for (i = 0; i < n; i++)
        if (sh[i].depth >= 0 && !start[i])
            return fail(k, (int)i, "a jump lands inside an instruction");
    if (ends == 0)
        return fail(k, 0, "the program has no END");
    return 0;
}

int filter_check(const void *filter, size_t len, const unsigned char *kinds,
                 unsigned int nparams, char *msg, size_t size)
{
    const unsigned char *f = filter;
    struct dapto_filter fh;
    struct dapto_clause cl;
    struct checker k = {msg, size, ~0u};
    uint32_t table, i;
    const uint8_t bits = DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP;

    if (size > 0)
        msg[0] = '\0';
    if (len < sizeof fh || len > DAPTO_FILTER_MAX)
        return fail(&k, -1, "a filter is %zu bytes, not 8 to %d", len,
                    DAPTO_FILTER_MAX);
    memcpy(&fh, f, sizeof fh);
    if (fh.size != len)
        return fail(&k, -1, "the filter says %u bytes but has %zu",
                    (unsigned int)fh.size, len);
    if (fh.uncond & ~bits)
        return fail(&k, -1, "unknown state bits 0x%x", (unsigned int)fh.uncond);
    if (fh.nclauses > DAPTO_FILTER_CLAUSES)
        return fail(&k, -1, "%u clauses, at most %d", (unsigned int)fh.nclauses,
                    DAPTO_FILTER_CLAUSES);
    table = (uint32_t)(sizeof fh + fh.nclauses * sizeof cl);
    if (table > len)
        return fail(&k, -1, "the clause table runs past the filter");
    if (!counter_ok(fh.checked) || !counter_ok(fh.passed))
        return fail(&k, -1, "a counter id is out of range");
    for (i = 0; i < fh.nclauses; i++) {
        k.clause = i;
        memcpy(&cl, f + sizeof fh + i * sizeof cl, sizeof cl);
        if (cl.bits & ~bits)
            return fail(&k, -1, "unknown state bits 0x%x", (unsigned int)cl.bits);
        if (cl.flags & ~(DAPTO_CL_HITS | DAPTO_CL_QUESTION | DAPTO_CL_QSTART |
                         DAPTO_CL_PART | DAPTO_CL_WINDOW))
            return fail(&k, -1, "unknown flags 0x%x", (unsigned int)cl.flags);
        if ((cl.flags & DAPTO_CL_PART) &&
            (cl.flags != DAPTO_CL_PART || cl.bits != 0 || cl.every > DAPTO_REL_DERIVED ||
             (cl.count != DAPTO_REL_PART_A && cl.count != DAPTO_REL_PART_B)))
            return fail(&k, -1, "a part's clause with state bits, other flags, "
                                "derived event %u or part %u",
                        (unsigned int)cl.every, (unsigned int)cl.count);
        if ((cl.flags & DAPTO_CL_WINDOW) &&
            (cl.flags != DAPTO_CL_WINDOW || cl.bits != 0 || cl.count > 1))
            return fail(&k, -1, "a window's clause with state bits, other flags "
                                "or count %u", (unsigned int)cl.count);
        if ((cl.flags & (DAPTO_CL_QUESTION | DAPTO_CL_QSTART)) &&
            ((cl.flags & DAPTO_CL_HITS) || cl.bits != 0 ||
             (cl.flags & DAPTO_CL_QUESTION && cl.flags & DAPTO_CL_QSTART) ||
             cl.every > DAPTO_Q_MAX))
            return fail(&k, -1, "a question's clause with state bits, hit "
                                "counting or question %u", (unsigned int)cl.every);
        if (!counter_ok(cl.checked) || !counter_ok(cl.passed) ||
            !counter_ok(cl.hits))
            return fail(&k, -1, "a counter id is out of range");
        if (cl.every < 1)
            return fail(&k, -1, "every is 0");
        if ((cl.flags & DAPTO_CL_HITS) && cl.hits == DAPTO_CNT_NONE)
            return fail(&k, -1, "hit counting without a hits counter");
        if (cl.prog_len == 0 || cl.prog_off < table ||
            (uint32_t)cl.prog_off + cl.prog_len > len)
            return fail(&k, -1, "the program (bytes %u to %u) is not between "
                                "the clause table and the filter's end",
                        (unsigned int)cl.prog_off,
                        (unsigned int)cl.prog_off + cl.prog_len);
        if (check_program(&k, f + cl.prog_off, cl.prog_len, kinds, nparams) != 0)
            return -1;
    }
    return 0;
}
