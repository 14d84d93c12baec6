/* SPDX-License-Identifier: MIT */
/*
 * rtfilter-run.c - the machine of filters in the program <protocol#filter>:
 * a clause's program run on an event's encoded values (or on its
 * arguments, when its record would hold them whole), the values it loads,
 * and the glob of string match.  It counts nothing, keeps nothing and
 * reads no global: what to count, what to keep and when to run a program
 * at all is rtfilter.c's.
 *
 * Nothing it reads is trusted: every read of the values and of the
 * program is bounded by their sizes; every push, pop and type is checked
 * as the program runs.  A program that goes wrong does not hold.  No
 * allocation, no stdio, no system call; errno is untouched.
 */
#include "config.h"

#include <string.h>

#include "dapto.h"
#include "rtfilter-int.h"

enum { T_INT = 1, T_DBL = 2, T_STR = 3 };

struct fval {
    int type; /* T_* */
    union {
        int64_t i;
        double d;
    } u;
    const unsigned char *s; /* T_STR */
    uint32_t n;
};

/* Whether the record of an event with parameters PARAMS (N) and
 * arguments ARGS would hold every value whole <protocol#record>: the
 * values an encoder of dapto.h writes (an 8-aligned buffer of
 * DAPTO_EVENT_MAX bytes, a header, then each value, a string cut or a
 * value left out when it does not fit), no user type among them. */
int rtfilter_args_fit(const struct dapto_param *params,
                      const union dapto_arg *args, unsigned int n)
{
    const size_t room = DAPTO_EVENT_MAX - DAPTO_EVENT_HEADER;
    size_t used = 0;
    unsigned int k;

    for (k = 0; k < n; k++) {
        switch (params[k].kind) {
        case DAPTO_K_INT:
            used += 5;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_DOUBLE:
        case DAPTO_K_PTR:
            used += 9;
            break;
        case DAPTO_K_STR:
            /* tag, length, the bytes and a NUL; NULL travels as "(null)" */
            used += 6 + strnlen(args[k].s != NULL ? args[k].s : "(null)", room);
            break;
        default:
            return 0;
        }
        if (used > room)
            return 0;
    }
    return 1;
}

/* Argument K as value K of the record would give it to load_arg(). */
static int load_argv(const struct run *r, int op, unsigned int k, struct fval *v)
{
    const char *s;

    if (k >= r->nargs)
        return -1;
    switch (r->params[k].kind) {
    case DAPTO_K_INT:
    case DAPTO_K_LONG:
        if (op == DAPTO_FOP_ARG) {
            v->type = T_INT;
            v->u.i = r->args[k].i;
        } else if (op == DAPTO_FOP_ARGD) {
            v->type = T_DBL;
            v->u.d = (double)r->args[k].i;
        } else {
            return -1;
        }
        return 0;
    case DAPTO_K_PTR:
        if (op != DAPTO_FOP_ARG)
            return -1;
        v->type = T_INT;
        v->u.i = r->args[k].i;
        return 0;
    case DAPTO_K_DOUBLE:
        if (op != DAPTO_FOP_ARGD)
            return -1;
        v->type = T_DBL;
        v->u.d = r->args[k].d;
        return 0;
    case DAPTO_K_STR:
        if (op != DAPTO_FOP_ARGS)
            return -1;
        s = r->args[k].s != NULL ? r->args[k].s : "(null)";
        v->type = T_STR;
        v->s = (const unsigned char *)s;
        v->n = (uint32_t)strlen(s);
        return 0;
    default:
        return -1;
    }
}

/* Value K of the record: its tag's position, or NULL when there is no
 * such value or a value before it cannot be stepped over. */
const unsigned char *rtfilter_value_at(const struct run *r, unsigned int k)
{
    const unsigned char *p = r->vals, *end = r->vend;
    uint32_t n;

    for (;;) {
        if (p >= end)
            return NULL;
        if (k-- == 0)
            return p;
        switch (*p & ~DAPTO_K_TRUNC) {
        case DAPTO_K_INT:
        case DAPTO_K_ISTR:
            p += 5;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_DOUBLE:
        case DAPTO_K_PTR:
            p += 9;
            break;
        case DAPTO_K_UNKNOWN:
            p += 1;
            break;
        case DAPTO_K_STR:
            if (end - p < 5)
                return NULL;
            memcpy(&n, p + 1, 4);
            if ((size_t)(end - p) - 5 < (size_t)n + 1)
                return NULL;
            p += 5 + (size_t)n + 1;
            break;
        default:
            return NULL;
        }
    }
}

/* Push value K of the record as an integer, a double or a string (OP);
 * 0, or -1 when it is absent or of another kind. */
static int load_arg(const struct run *r, int op, unsigned int k, struct fval *v)
{
    const unsigned char *p = rtfilter_value_at(r, k);
    size_t room;
    int32_t i32;
    int64_t i64;
    uint32_t n;

    if (r->args != NULL)
        return load_argv(r, op, k, v);
    if (p == NULL)
        return -1;
    room = (size_t)(r->vend - p);
    switch (*p) {
    case DAPTO_K_INT:
        if (room < 5)
            return -1;
        memcpy(&i32, p + 1, 4);
        if (op == DAPTO_FOP_ARG) {
            v->type = T_INT;
            v->u.i = i32;
        } else if (op == DAPTO_FOP_ARGD) {
            v->type = T_DBL;
            v->u.d = (double)i32;
        } else {
            return -1;
        }
        return 0;
    case DAPTO_K_LONG:
    case DAPTO_K_PTR:
        if (room < 9)
            return -1;
        memcpy(&i64, p + 1, 8);
        if (op == DAPTO_FOP_ARG) {
            v->type = T_INT;
            v->u.i = i64;
        } else if (op == DAPTO_FOP_ARGD && *p == DAPTO_K_LONG) {
            v->type = T_DBL;
            v->u.d = (double)i64;
        } else {
            return -1;
        }
        return 0;
    case DAPTO_K_DOUBLE:
        if (room < 9 || op != DAPTO_FOP_ARGD)
            return -1;
        v->type = T_DBL;
        memcpy(&v->u.d, p + 1, 8);
        return 0;
    case DAPTO_K_STR:
    case DAPTO_K_STR | DAPTO_K_TRUNC:
        /* its length within the values, and its NUL; a cut string is
         * taken as it was recorded */
        if (op != DAPTO_FOP_ARGS || room < 6)
            return -1;
        memcpy(&n, p + 1, 4);
        if (room - 6 < n || p[5 + (size_t)n] != '\0')
            return -1;
        v->type = T_STR;
        v->s = p + 5;
        v->n = n;
        return 0;
    case DAPTO_K_ISTR:
        if (room < 5 || op != DAPTO_FOP_ARGS || r->env->istr == NULL)
            return -1;
        memcpy(&n, p + 1, 4);
        v->s = (const unsigned char *)r->env->istr(n, &v->n);
        if (v->s == NULL)
            return -1;
        v->type = T_STR;
        return 0;
    default:
        return -1;
    }
}

/* rtq_arg_fn over a struct run: parameter K's kind and value. */
int rtfilter_question_arg(const void *ctx, unsigned int k, int *kind,
                          int64_t *i, double *d, struct rtq_str *s)
{
    const struct run *r = ctx;
    struct fval v;
    const unsigned char *p;

    if (r->args != NULL) {
        if (k >= r->nargs)
            return -1;
        *kind = r->params[k].kind;
    } else {
        p = rtfilter_value_at(r, k);
        if (p == NULL)
            return -1;
        *kind = *p & ~DAPTO_K_TRUNC;
    }
    switch (*kind) {
    case DAPTO_K_INT:
    case DAPTO_K_LONG:
    case DAPTO_K_PTR:
        if (load_arg(r, DAPTO_FOP_ARG, k, &v) != 0)
            return -1;
        *i = v.u.i;
        return 0;
    case DAPTO_K_DOUBLE:
        if (load_arg(r, DAPTO_FOP_ARGD, k, &v) != 0)
            return -1;
        *d = v.u.d;
        return 0;
    case DAPTO_K_STR:
    case DAPTO_K_ISTR:
        if (load_arg(r, DAPTO_FOP_ARGS, k, &v) != 0)
            return -1;
        s->s = v.s;
        s->n = v.n;
        return 0;
    default:
        return -1;
    }
}

/* One character of a glob's set [...] at P (before END) against C:
 * returns 1 when the set holds C, 0 when not, and sets *NEXT after the
 * closing ']'; -1 when the set is not closed. */
static int glob_set(const unsigned char *p, const unsigned char *end,
                    unsigned char c, const unsigned char **next)
{
    int hit = 0;
    unsigned char lo, hi;

    for (;;) {
        if (p == end)
            return -1;
        if (*p == ']')
            break;
        lo = *p++;
        if (p + 1 < end && *p == '-' && p[1] != ']') {
            hi = p[1];
            p += 2;
            if ((lo <= c && c <= hi) || (hi <= c && c <= lo))
                hit = 1;
        } else if (lo == c) {
            hit = 1;
        }
    }
    *next = p + 1;
    return hit;
}

int rtfilter_glob(const unsigned char *s, size_t n, const unsigned char *p,
                  size_t m)
{
    const unsigned char *send = s + n, *pend = p + m;
    /* where to resume after the last '*': pattern and string */
    const unsigned char *star_p = NULL, *star_s = NULL;
    const unsigned char *next;
    int hit;

    for (;;) {
        if (p < pend && *p == '*') {
            while (p < pend && *p == '*')
                p++;
            if (p == pend)
                return 1;
            star_p = p;
            star_s = s;
            continue;
        }
        if (p == pend) {
            if (s == send)
                return 1;
            goto backtrack;
        }
        if (s == send)
            return 0; /* pattern left and no string: no '*' can help */
        switch (*p) {
        case '?':
            p++;
            s++;
            continue;
        case '[':
            hit = glob_set(p + 1, pend, *s, &next);
            if (hit < 0)
                return 0;
            if (hit) {
                p = next;
                s++;
                continue;
            }
            goto backtrack;
        case '\\':
            if (p + 1 == pend)
                return 0;
            if (p[1] == *s) {
                p += 2;
                s++;
                continue;
            }
            goto backtrack;
        default:
            if (*p == *s) {
                p++;
                s++;
                continue;
            }
            goto backtrack;
        }
    backtrack:
        /* let the last '*' take one more character */
        if (star_p == NULL || star_s == send)
            return 0;
        p = star_p;
        s = ++star_s;
    }
}

static int str_eq(const struct fval *a, const struct fval *b)
{
    return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* Run program [PC, END): 1 when it holds, 0 when not or when it goes
 * wrong. */
int rtfilter_run(const struct run *r, const unsigned char *pc,
                 const unsigned char *end)
{
    struct fval st[DAPTO_FILTER_STACK];
    int sp = 0; /* values on the stack */
    unsigned int op;
    uint16_t off;
    struct fval *a, *b;
    int lt, eq;

    while (pc < end) {
        op = *pc++;
        switch (op) {
        case DAPTO_FOP_END:
            return sp == 1 && st[0].type == T_INT && st[0].u.i != 0;
        case DAPTO_FOP_ARG:
        case DAPTO_FOP_ARGD:
        case DAPTO_FOP_ARGS:
            if (pc == end || sp == DAPTO_FILTER_STACK ||
                load_arg(r, (int)op, *pc, &st[sp]) != 0)
                return 0;
            pc++;
            sp++;
            break;
        case DAPTO_FOP_TID:
            if (sp == DAPTO_FILTER_STACK)
                return 0;
            st[sp].type = T_INT;
            st[sp++].u.i = r->env->tid;
            break;
        case DAPTO_FOP_WITHIN:
            /* <protocol#relate>: a component on the thread's stack */
            if (pc == end || sp == DAPTO_FILTER_STACK)
                return 0;
            st[sp].type = T_INT;
            st[sp++].u.i = *pc < DAPTO_REL_COMPS && r->env->within != NULL
                               ? (int64_t)((r->env->within() >> *pc) & 1)
                               : 0;
            pc++;
            break;
        case DAPTO_FOP_CONST:
        case DAPTO_FOP_CONSTD:
            if (end - pc < 8 || sp == DAPTO_FILTER_STACK)
                return 0;
            st[sp].type = op == DAPTO_FOP_CONST ? T_INT : T_DBL;
            memcpy(&st[sp++].u, pc, 8);
            pc += 8;
            break;
        case DAPTO_FOP_CONSTS:
            if (end - pc < 2 || sp == DAPTO_FILTER_STACK)
                return 0;
            memcpy(&off, pc, 2);
            pc += 2;
            if (end - pc < off)
                return 0;
            st[sp].type = T_STR;
            st[sp].s = pc;
            st[sp++].n = off;
            pc += off;
            break;
        case DAPTO_FOP_CMPI + DAPTO_FCMP_EQ:
        case DAPTO_FOP_CMPI + DAPTO_FCMP_NE:
        case DAPTO_FOP_CMPI + DAPTO_FCMP_LT:
        case DAPTO_FOP_CMPI + DAPTO_FCMP_LE:
        case DAPTO_FOP_CMPI + DAPTO_FCMP_GT:
        case DAPTO_FOP_CMPI + DAPTO_FCMP_GE:
        case DAPTO_FOP_CMPU + DAPTO_FCMP_EQ:
        case DAPTO_FOP_CMPU + DAPTO_FCMP_NE:
        case DAPTO_FOP_CMPU + DAPTO_FCMP_LT:
        case DAPTO_FOP_CMPU + DAPTO_FCMP_LE:
        case DAPTO_FOP_CMPU + DAPTO_FCMP_GT:
        case DAPTO_FOP_CMPU + DAPTO_FCMP_GE:
            if (sp < 2)
                return 0;
            a = &st[sp - 2];
            b = &st[sp - 1];
            if (a->type != T_INT || b->type != T_INT)
                return 0;
            eq = a->u.i == b->u.i;
            lt = op < DAPTO_FOP_CMPU ? a->u.i < b->u.i
                                     : (uint64_t)a->u.i < (uint64_t)b->u.i;
            a->u.i = cmp_result((int)(op & 7), lt, eq);
            sp--;
            break;
        case DAPTO_FOP_CMPD + DAPTO_FCMP_EQ:
        case DAPTO_FOP_CMPD + DAPTO_FCMP_NE:
        case DAPTO_FOP_CMPD + DAPTO_FCMP_LT:
        case DAPTO_FOP_CMPD + DAPTO_FCMP_LE:
        case DAPTO_FOP_CMPD + DAPTO_FCMP_GT:
        case DAPTO_FOP_CMPD + DAPTO_FCMP_GE:
            if (sp < 2)
                return 0;
            a = &st[sp - 2];
            b = &st[sp - 1];
            if (a->type != T_DBL || b->type != T_DBL)
                return 0;
            /* with a NaN, only != holds */
            eq = a->u.d == b->u.d;
            lt = a->u.d < b->u.d;
            if (a->u.d != a->u.d || b->u.d != b->u.d)
                a->u.i = (op & 7) == DAPTO_FCMP_NE;
            else
                a->u.i = cmp_result((int)(op & 7), lt, eq);
            a->type = T_INT;
            sp--;
            break;
        case DAPTO_FOP_SEQ:
        case DAPTO_FOP_SNE:
        case DAPTO_FOP_GLOB:
            if (sp < 2)
                return 0;
            a = &st[sp - 2];
            b = &st[sp - 1];
            if (a->type != T_STR || b->type != T_STR)
                return 0;
            if (op == DAPTO_FOP_GLOB)
                eq = rtfilter_glob(a->s, a->n, b->s, b->n);
            else
                eq = str_eq(a, b) == (op == DAPTO_FOP_SEQ);
            a->type = T_INT;
            a->u.i = eq;
            sp--;
            break;
        case DAPTO_FOP_NOT:
            if (sp < 1 || st[sp - 1].type != T_INT)
                return 0;
            st[sp - 1].u.i = !st[sp - 1].u.i;
            break;
        case DAPTO_FOP_JF:
        case DAPTO_FOP_JT:
            if (end - pc < 2 || sp < 1 || st[sp - 1].type != T_INT)
                return 0;
            memcpy(&off, pc, 2);
            pc += 2;
            if ((st[sp - 1].u.i != 0) == (op == DAPTO_FOP_JT)) {
                if (end - pc <= off)
                    return 0; /* past the last byte: no END there */
                pc += off;
            } else {
                sp--;
            }
            break;
        default:
            return 0;
        }
    }
    return 0; /* ran off the end without END */
}
