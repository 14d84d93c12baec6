/* SPDX-License-Identifier: MIT */
/*
 * cond.c - conditions compiled into filter bytecode, and filters built
 * from clauses.  See cond.h and <protocol#filter>.
 *
 * The compiler checks types as it generates code, in two contexts: a value
 * (what a comparison needs) and a truth value (what &&, ||, ! and the
 * program's result need).  && and || are forward jumps that keep the value
 * deciding the outcome; where their result is needed as a value it is
 * made 0 or 1 with two NOTs.  An integer compared with a double constant
 * is compared as integers against a constant chosen so that the outcome is
 * exact, since converting a long to double would round.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cond.h"
#include "dapto.h"
#include "protocol.h"
#include "xmalloc.h"

/* Filters are 8-aligned and so are their clauses <protocol#filter>. */
_Static_assert(sizeof(struct dapto_filter) == 8, "filter header size");
_Static_assert(sizeof(struct dapto_clause) % 8 == 0, "clause size");

static struct cond *cond_new(enum cond_kind kind)
{
    struct cond *c = xcalloc(1, sizeof *c);

    c->kind = kind;
    return c;
}

struct cond *cond_param(unsigned int index)
{
    struct cond *c = cond_new(COND_PARAM);

    c->index = index;
    return c;
}

struct cond *cond_thread(void)
{
    return cond_new(COND_THREAD);
}

struct cond *cond_int(int64_t i)
{
    struct cond *c = cond_new(COND_INT);

    c->i = i;
    return c;
}

struct cond *cond_uint(uint64_t u)
{
    struct cond *c = cond_new(COND_UINT);

    c->u = u;
    return c;
}

struct cond *cond_double(double d)
{
    struct cond *c = cond_new(COND_DOUBLE);

    c->d = d;
    return c;
}

struct cond *cond_str(const char *s, size_t len)
{
    struct cond *c = cond_new(COND_STR);

    c->s = xmalloc(len + 1);
    memcpy(c->s, s, len);
    c->s[len] = '\0';
    c->len = len;
    return c;
}

static struct cond *cond_two(enum cond_kind kind, struct cond *l,
                             struct cond *r)
{
    struct cond *c = cond_new(kind);

    c->l = l;
    c->r = r;
    return c;
}

struct cond *cond_cmp(enum cond_cmp cmp, struct cond *l, struct cond *r)
{
    struct cond *c = cond_two(COND_CMP, l, r);

    c->cmp = cmp;
    return c;
}

struct cond *cond_glob(struct cond *s, struct cond *pattern)
{
    return cond_two(COND_GLOB, s, pattern);
}

struct cond *cond_and(struct cond *l, struct cond *r)
{
    return cond_two(COND_AND, l, r);
}

struct cond *cond_or(struct cond *l, struct cond *r)
{
    return cond_two(COND_OR, l, r);
}

struct cond *cond_not(struct cond *c)
{
    return cond_two(COND_NOT, c, NULL);
}

void cond_free(struct cond *c)
{
    if (c == NULL)
        return;
    cond_free(c->l);
    cond_free(c->r);
    free(c->s);
    free(c);
}

/* Types of values, as the compiler sees them. */
enum ty {
    TY_INT,    /* signed 64-bit: int, long, n_thread, 0/1 of tests */
    TY_PTR,    /* unsigned 64-bit: pointers and user types */
    TY_BIG,    /* an integer constant above INT64_MAX */
    TY_DOUBLE,
    TY_STR
};

struct gen {
    const struct registry_event *ev;
    unsigned char *out;
    size_t size, len;
    unsigned int depth, max;
    char **cause;
    int failed;
};

static int fail(struct gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(struct gen *g, const char *fmt, ...)
{
    va_list ap;

    if (!g->failed && g->cause != NULL) {
        free(*g->cause);
        va_start(ap, fmt);
        *g->cause = xvasprintf(fmt, ap);
        va_end(ap);
    }
    g->failed = 1;
    return -1;
}

static const char *cmp_name(enum cond_cmp cmp)
{
    static const char *const names[] = { "==", "!=", "<", "<=", ">", ">=" };

    return names[cmp];
}

static enum cond_cmp cmp_mirror(enum cond_cmp cmp)
{
    switch (cmp) {
    case COND_LT:
        return COND_GT;
    case COND_LE:
        return COND_GE;
    case COND_GT:
        return COND_LT;
    case COND_GE:
        return COND_LE;
    default:
        return cmp;
    }
}

/* What C is, for a message: "$name", "n_thread", "a number", ... */
static const char *what(struct gen *g, const struct cond *c, char *buf,
                        size_t size)
{
    switch (c->kind) {
    case COND_PARAM:
        if (c->index < g->ev->nparams) {
            snprintf(buf, size, "$%s", g->ev->params[c->index].name);
            return buf;
        }
        return "a parameter";
    case COND_THREAD:
        return "$n_thread";
    case COND_INT:
    case COND_UINT:
    case COND_DOUBLE:
        return "a number";
    case COND_STR:
        return "a string";
    default:
        return "a test";
    }
}

static int type_of(struct gen *g, const struct cond *c)
{
    const struct registry_param *p;

    switch (c->kind) {
    case COND_PARAM:
        if (c->index >= g->ev->nparams)
            return fail(g, "%s has no parameter %u", g->ev->name,
                        c->index + 1);
        p = &g->ev->params[c->index];
        if (c->index >= DAPTO_FILTER_ARGS)
            return fail(g, "$%s is parameter %u of %s; the program reads "
                        "only the first %d", p->name, c->index + 1,
                        g->ev->name, DAPTO_FILTER_ARGS);
        switch (p->kind) {
        case DAPTO_K_INT:
        case DAPTO_K_LONG:
            return TY_INT;
        case DAPTO_K_PTR:
            return TY_PTR;
        case DAPTO_K_USER:
            /* its value is what the program's DAPTO_RESULT<type> makes
             * of it (an int, a pointer, a string, or nothing): noosa
             * cannot know its kind beforehand */
            return fail(g, "$%s is of the program's own type %s, whose "
                        "value the program encodes its own way", p->name,
                        p->type);
        case DAPTO_K_DOUBLE:
            return TY_DOUBLE;
        case DAPTO_K_STR:
            return TY_STR;
        default:
            return fail(g, "$%s is of type %s, which the program cannot "
                        "compare", p->name, p->type);
        }
    case COND_THREAD:
    case COND_INT:
        return TY_INT;
    case COND_UINT:
        return TY_BIG;
    case COND_DOUBLE:
        if (isnan(c->d))
            return fail(g, "a NaN constant");
        return TY_DOUBLE;
    case COND_STR:
        return TY_STR;
    default:
        return TY_INT;
    }
}

static void emit(struct gen *g, const void *p, size_t n)
{
    if (g->failed)
        return;
    if (g->size - g->len < n) {
        fail(g, "too long for a filter (more than %zu bytes)", g->size);
        return;
    }
    memcpy(g->out + g->len, p, n);
    g->len += n;
}

static void op(struct gen *g, unsigned char code)
{
    emit(g, &code, 1);
}

/* The stack grows by one (N = 1) or shrinks (N = -1). */
static void stack(struct gen *g, int n)
{
    if (n < 0) {
        g->depth--;
        return;
    }
    g->depth++;
    if (g->depth > g->max)
        g->max = g->depth;
    if (g->depth > DAPTO_FILTER_STACK)
        fail(g, "too deep: the program's stack holds %d values",
             DAPTO_FILTER_STACK);
}

static void push_arg(struct gen *g, unsigned char code, unsigned int index)
{
    unsigned char k = (unsigned char)index;

    op(g, code);
    emit(g, &k, 1);
    stack(g, 1);
}

static void push_int(struct gen *g, int64_t i)
{
    op(g, DAPTO_FOP_CONST);
    emit(g, &i, sizeof i);
    stack(g, 1);
}

static void push_double(struct gen *g, double d)
{
    op(g, DAPTO_FOP_CONSTD);
    emit(g, &d, sizeof d);
    stack(g, 1);
}

/* A binary operation: two values in, one out. */
static void binary(struct gen *g, unsigned char code)
{
    op(g, code);
    stack(g, -1);
}

static void gen_truth(struct gen *g, const struct cond *c);
static void gen_test(struct gen *g, const struct cond *c);

/* Push the value of C, of type TY (type_of(C)). */
static void gen_value(struct gen *g, const struct cond *c, int ty)
{
    uint16_t n;

    switch (c->kind) {
    case COND_PARAM:
        push_arg(g, ty == TY_DOUBLE ? DAPTO_FOP_ARGD :
                    ty == TY_STR ? DAPTO_FOP_ARGS : DAPTO_FOP_ARG, c->index);
        return;
    case COND_THREAD:
        op(g, DAPTO_FOP_TID);
        stack(g, 1);
        return;
    case COND_INT:
        push_int(g, c->i);
        return;
    case COND_UINT:
        push_int(g, (int64_t)c->u);
        return;
    case COND_DOUBLE:
        push_double(g, c->d);
        return;
    case COND_STR:
        if (c->len > DAPTO_FILTER_MAX || memchr(c->s, '\0', c->len) != NULL) {
            fail(g, "a string constant too long or with a NUL in it");
            return;
        }
        n = (uint16_t)c->len;
        op(g, DAPTO_FOP_CONSTS);
        emit(g, &n, sizeof n);
        emit(g, c->s, c->len);
        stack(g, 1);
        return;
    case COND_AND:
    case COND_OR:
        /* the kept operand may be any non-zero value: make it 0 or 1 */
        gen_truth(g, c);
        op(g, DAPTO_FOP_NOT);
        op(g, DAPTO_FOP_NOT);
        return;
    default:
        gen_test(g, c);
        return;
    }
}

/* Push C, an integer-typed value, as a double, where that is exact. */
static void gen_as_double(struct gen *g, const struct cond *c,
                          const struct cond *other)
{
    char b1[80], b2[80];
    double d;

    if (c->kind == COND_PARAM && g->ev->params[c->index].kind == DAPTO_K_INT) {
        push_arg(g, DAPTO_FOP_ARGD, c->index);
        return;
    }
    if (c->kind == COND_INT) {
        d = (double)c->i;
        if (d < 9223372036854775808.0 && (int64_t)d == c->i) {
            push_double(g, d);
            return;
        }
        fail(g, "the integer %lld compared with %s is not exact as a double",
             (long long)c->i, what(g, other, b1, sizeof b1));
        return;
    }
    fail(g, "%s compared with %s: a long (or a test, or n_thread) and a "
         "double parameter cannot be compared exactly in the program",
         what(g, c, b1, sizeof b1), what(g, other, b2, sizeof b2));
}

/* The greatest integer not above D, D in [-2^63, 2^63). */
static int64_t floor_int(double d)
{
    int64_t t = (int64_t)d; /* toward zero */

    return (double)t > d ? t - 1 : t;
}

/* X CMP D, X of integer type, D a double constant: exact, as integers. */
static void gen_int_double(struct gen *g, const struct cond *x,
                           enum cond_cmp cmp, double d)
{
    int64_t f;
    int yes;

    if (d >= 9223372036854775808.0) {
        yes = cmp == COND_LT || cmp == COND_LE || cmp == COND_NE;
    } else if (d < -9223372036854775808.0) {
        yes = cmp == COND_GT || cmp == COND_GE || cmp == COND_NE;
    } else if ((double)(f = floor_int(d)) == d) {
        gen_value(g, x, TY_INT);
        push_int(g, f);
        binary(g, (unsigned char)(DAPTO_FOP_CMPI + cmp));
        return;
    } else if (cmp == COND_EQ || cmp == COND_NE) {
        yes = cmp == COND_NE;
    } else {
        /* x < d and x <= d: x <= floor(d); x > d and x >= d: x > floor(d) */
        gen_value(g, x, TY_INT);
        push_int(g, f);
        binary(g, (unsigned char)(DAPTO_FOP_CMPI +
                                  (cmp == COND_LT || cmp == COND_LE ?
                                   COND_LE : COND_GT)));
        return;
    }
    push_int(g, yes);
}

static void gen_cmp(struct gen *g, const struct cond *c)
{
    const struct cond *l = c->l, *r = c->r;
    enum cond_cmp cmp = c->cmp;
    char b1[80], b2[80];
    int tl, tr;

    if ((tl = type_of(g, l)) < 0 || (tr = type_of(g, r)) < 0)
        return;
    if (tl == TY_STR || tr == TY_STR) {
        if (tl != tr) {
            fail(g, "%s compared with %s", what(g, l, b1, sizeof b1),
                 what(g, r, b2, sizeof b2));
            return;
        }
        if (cmp != COND_EQ && cmp != COND_NE) {
            fail(g, "strings compared with %s", cmp_name(cmp));
            return;
        }
        gen_value(g, l, tl);
        gen_value(g, r, tr);
        binary(g, cmp == COND_EQ ? DAPTO_FOP_SEQ : DAPTO_FOP_SNE);
        return;
    }
    if (tl == TY_PTR || tr == TY_PTR) {
        const struct cond *p = tl == TY_PTR ? l : r, *o = tl == TY_PTR ? r : l;
        int to = tl == TY_PTR ? tr : tl;

        if (cmp != COND_EQ && cmp != COND_NE) {
            fail(g, "%s (a pointer) compared with %s", what(g, p, b1,
                 sizeof b1), cmp_name(cmp));
            return;
        }
        if (to == TY_INT && o->kind == COND_INT && o->i < 0) {
            fail(g, "%s (a pointer) compared with a negative number",
                 what(g, p, b1, sizeof b1));
            return;
        }
        if (to != TY_PTR && to != TY_BIG &&
            !(to == TY_INT && o->kind == COND_INT)) {
            fail(g, "%s (a pointer) compared with %s: only with pointers "
                 "and integer constants", what(g, p, b1, sizeof b1),
                 what(g, o, b2, sizeof b2));
            return;
        }
        gen_value(g, l, tl);
        gen_value(g, r, tr);
        binary(g, (unsigned char)(DAPTO_FOP_CMPU + cmp));
        return;
    }
    if (tl == TY_BIG || tr == TY_BIG) {
        fail(g, "the integer %llu is out of the range of 64-bit integers",
             (unsigned long long)(tl == TY_BIG ? l->u : r->u));
        return;
    }
    if (tl == TY_DOUBLE && tr == TY_DOUBLE) {
        gen_value(g, l, tl);
        gen_value(g, r, tr);
        binary(g, (unsigned char)(DAPTO_FOP_CMPD + cmp));
        return;
    }
    if (tl == TY_DOUBLE || tr == TY_DOUBLE) {
        const struct cond *x = tl == TY_INT ? l : r, *d = tl == TY_INT ? r : l;

        if (d->kind == COND_DOUBLE) {
            gen_int_double(g, x, x == l ? cmp : cmp_mirror(cmp), d->d);
            return;
        }
        if (x == l)
            gen_as_double(g, l, r);
        else
            gen_value(g, l, tl);
        if (x == r)
            gen_as_double(g, r, l);
        else
            gen_value(g, r, tr);
        binary(g, (unsigned char)(DAPTO_FOP_CMPD + cmp));
        return;
    }
    gen_value(g, l, tl);
    gen_value(g, r, tr);
    binary(g, (unsigned char)(DAPTO_FOP_CMPI + cmp));
}

/* Push a test (comparison, glob, !): 0 or 1. */
static void gen_test(struct gen *g, const struct cond *c)
{
    char b[80];
    int t;

    switch (c->kind) {
    case COND_CMP:
        gen_cmp(g, c);
        return;
    case COND_GLOB:
        if (type_of(g, c->l) != TY_STR || type_of(g, c->r) != TY_STR) {
            fail(g, "glob matching of %s against %s: strings only",
                 what(g, c->l, b, sizeof b),
                 c->r->kind == COND_STR ? "a pattern" : "a non-string");
            return;
        }
        gen_value(g, c->l, TY_STR);
        gen_value(g, c->r, TY_STR);
        binary(g, DAPTO_FOP_GLOB);
        return;
    case COND_NOT:
        gen_truth(g, c->l);
        op(g, DAPTO_FOP_NOT);
        return;
    default:
        if ((t = type_of(g, c)) >= 0)
            gen_value(g, c, t);
        return;
    }
}

/* && and ||: the left operand, a jump over the right one keeping the
 * left's value when it decides, else popped. */
static void gen_logic(struct gen *g, const struct cond *c)
{
    uint16_t off;
    size_t at;

    gen_truth(g, c->l);
    op(g, c->kind == COND_AND ? DAPTO_FOP_JF : DAPTO_FOP_JT);
    at = g->len;
    off = 0;
    emit(g, &off, sizeof off);
    stack(g, -1);
    gen_truth(g, c->r);
    if (g->failed)
        return;
    off = (uint16_t)(g->len - at - sizeof off);
    memcpy(g->out + at, &off, sizeof off);
}

/* Push a value that is non-zero where C holds. */
static void gen_truth(struct gen *g, const struct cond *c)
{
    char b[80];
    int t;

    switch (c->kind) {
    case COND_AND:
    case COND_OR:
        gen_logic(g, c);
        return;
    case COND_CMP:
    case COND_GLOB:
    case COND_NOT:
        gen_test(g, c);
        return;
    default:
        break;
    }
    if ((t = type_of(g, c)) < 0)
        return;
    switch (t) {
    case TY_STR:
        fail(g, "%s used as a truth value: the program takes only numbers",
             what(g, c, b, sizeof b));
        return;
    case TY_DOUBLE:
        gen_value(g, c, t);
        push_double(g, 0.0);
        binary(g, DAPTO_FOP_CMPD + DAPTO_FCMP_NE);
        return;
    default:
        gen_value(g, c, t);
        return;
    }
}

int cond_compile(const struct cond *c, const struct registry_event *ev,
                 unsigned char *out, size_t size, char **cause)
{
    struct gen g;

    memset(&g, 0, sizeof g);
    g.ev = ev;
    g.out = out;
    g.size = size;
    g.cause = cause;
    gen_truth(&g, c);
    op(&g, DAPTO_FOP_END);
    if (g.failed)
        return -1;
    return (int)g.len;
}

int cond_filter(uint8_t uncond, uint16_t checked, uint16_t passed,
                const struct cond_clause *cl, unsigned int n,
                unsigned char *out, size_t size, char **cause)
{
    const uint8_t states = DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD |
                           DAPTO_STATE_STOP;
    struct dapto_filter f;
    struct dapto_clause dc;
    size_t total, at;
    unsigned int i;

    if (n > DAPTO_FILTER_CLAUSES) {
        xcause(cause, "%u clauses; a filter holds at most %d", n,
               DAPTO_FILTER_CLAUSES);
        return -1;
    }
    if ((uncond & ~states) != 0) {
        xcause(cause, "unconditional bits 0x%x are not state bits", uncond);
        return -1;
    }
    total = sizeof f + n * sizeof dc;
    for (i = 0; i < n; i++) {
        /* <protocol#question> <protocol#relate>: clauses that count,
         * mark, hand the event to a derived event or move the window */
        int question = (cl[i].flags & (DAPTO_CL_QUESTION | DAPTO_CL_QSTART |
                                       DAPTO_CL_PART | DAPTO_CL_WINDOW)) != 0;
        uint32_t emax = (cl[i].flags & DAPTO_CL_PART) ? DAPTO_REL_DERIVED : DAPTO_Q_MAX;

        /* <protocol#question>: a question's clause counts, and sets no bit */
        if ((cl[i].bits & ~states) != 0 || (cl[i].bits == 0) != question) {
            xcause(cause, "clause %u: bits 0x%x are not state bits", i,
                   cl[i].bits);
            return -1;
        }
        if ((cl[i].flags & ~(DAPTO_CL_HITS | DAPTO_CL_QUESTION | DAPTO_CL_QSTART |
                             DAPTO_CL_PART | DAPTO_CL_WINDOW)) != 0 ||
            ((cl[i].flags & DAPTO_CL_HITS) && (cl[i].every == 0 || question)) ||
            (question && (cl[i].every == 0 || cl[i].every > emax))) {
            xcause(cause, "clause %u: bad hit counting", i);
            return -1;
        }
        if (cl[i].prog_len == 0 || cl[i].prog_len > DAPTO_FILTER_MAX ||
            cl[i].prog[cl[i].prog_len - 1] != DAPTO_FOP_END) {
            xcause(cause, "clause %u: not a program", i);
            return -1;
        }
        total += cl[i].prog_len;
    }
    total = (total + 7) & ~(size_t)7;
    if (total > DAPTO_FILTER_MAX || total > size) {
        xcause(cause, "the filter takes %zu bytes; at most %zu fit", total,
               size < DAPTO_FILTER_MAX ? size : (size_t)DAPTO_FILTER_MAX);
        return -1;
    }
    memset(out, 0, total);
    memset(&f, 0, sizeof f);
    f.size = (uint16_t)total;
    f.uncond = uncond;
    f.nclauses = (uint8_t)n;
    f.checked = checked;
    f.passed = passed;
    memcpy(out, &f, sizeof f);
    at = sizeof f + n * sizeof dc;
    for (i = 0; i < n; i++) {
        memset(&dc, 0, sizeof dc);
        dc.bits = cl[i].bits;
        dc.flags = cl[i].flags;
        dc.prog_off = (uint16_t)at;
        dc.prog_len = (uint16_t)cl[i].prog_len;
        dc.checked = cl[i].checked;
        dc.passed = cl[i].passed;
        dc.hits = cl[i].hits;
        dc.every = cl[i].flags & (DAPTO_CL_HITS | DAPTO_CL_QUESTION | DAPTO_CL_QSTART |
                                  DAPTO_CL_PART)
                       ? cl[i].every : 1;
        dc.after = cl[i].after;
        dc.count = cl[i].count;
        memcpy(out + sizeof f + i * sizeof dc, &dc, sizeof dc);
        memcpy(out + at, cl[i].prog, cl[i].prog_len);
        at += cl[i].prog_len;
    }
    return (int)total;
}

int cond_within(unsigned int comp, int neg, const unsigned char *prog, size_t len,
                unsigned char *out, size_t size)
{
    size_t n = 0;
    uint16_t off;

    if (comp >= DAPTO_REL_COMPS || size < 4)
        return -1;
    out[n++] = DAPTO_FOP_WITHIN;
    out[n++] = (unsigned char)comp;
    if (neg)
        out[n++] = DAPTO_FOP_NOT;
    if (prog == NULL || len == 0) {
        out[n++] = DAPTO_FOP_END;
        return (int)n;
    }
    /* <protocol#filter>: JF keeps the false on the stack for END */
    if (prog[len - 1] != DAPTO_FOP_END || len - 1 > 0xffff || n + 3 + len > size)
        return -1;
    off = (uint16_t)(len - 1);
    out[n++] = DAPTO_FOP_JF;
    memcpy(out + n, &off, 2);
    n += 2;
    memcpy(out + n, prog, len);
    return (int)(n + len);
}
