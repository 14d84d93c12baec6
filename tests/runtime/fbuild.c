/* SPDX-License-Identifier: MIT */
/*
 * fbuild.c - the tests' assembler of filters (fbuild.h).  Bytes beyond
 * DAPTO_FILTER_MAX are dropped; the tests never write that much.
 */
#include "config.h"

#include <string.h>

#include "fbuild.h"

static void put(struct fprog *p, const void *v, size_t n)
{
    if (p->n + n > sizeof p->b)
        return;
    memcpy(p->b + p->n, v, n);
    p->n += (uint32_t)n;
}

void fp_init(struct fprog *p)
{
    p->n = 0;
}

void fp_op(struct fprog *p, int op)
{
    unsigned char c = (unsigned char)op;

    put(p, &c, 1);
}

void fp_arg(struct fprog *p, int op, unsigned int k)
{
    unsigned char c[2] = {(unsigned char)op, (unsigned char)k};

    put(p, c, 2);
}

void fp_const(struct fprog *p, int64_t v)
{
    fp_op(p, DAPTO_FOP_CONST);
    put(p, &v, 8);
}

void fp_constd(struct fprog *p, double v)
{
    fp_op(p, DAPTO_FOP_CONSTD);
    put(p, &v, 8);
}

void fp_consts(struct fprog *p, const char *s)
{
    uint16_t n = (uint16_t)strlen(s);

    fp_op(p, DAPTO_FOP_CONSTS);
    put(p, &n, 2);
    put(p, s, n);
}

uint32_t fp_jump(struct fprog *p, int op)
{
    uint16_t zero = 0;

    fp_op(p, op);
    put(p, &zero, 2);
    return p->n - 2;
}

void fp_land(struct fprog *p, uint32_t at)
{
    uint16_t off = (uint16_t)(p->n - (at + 2));

    memcpy(p->b + at, &off, 2);
}

void fp_cmp_arg(struct fprog *p, unsigned int k, int cmp, int64_t v)
{
    fp_arg(p, DAPTO_FOP_ARG, k);
    fp_const(p, v);
    fp_op(p, DAPTO_FOP_CMPI + cmp);
    fp_op(p, DAPTO_FOP_END);
}

struct fclause fc(uint8_t bits, const struct fprog *prog)
{
    struct fclause c;

    memset(&c, 0, sizeof c);
    c.bits = bits;
    c.checked = c.passed = c.hits = DAPTO_CNT_NONE;
    c.every = 1;
    c.prog = prog;
    return c;
}

struct fclause fc_question(struct fprog *prog, uint16_t checked, uint16_t passed)
{
    struct fclause c;

    fp_init(prog);
    fp_const(prog, 1);
    fp_op(prog, DAPTO_FOP_END);
    c = fc(0, prog);
    c.flags = DAPTO_CL_QUESTION;
    c.checked = checked;
    c.passed = passed;
    return c;
}

size_t fbuild(unsigned char *out, uint8_t uncond, uint16_t checked,
              uint16_t passed, const struct fclause *cl, int n)
{
    struct dapto_filter fh;
    struct dapto_clause c;
    size_t pos = sizeof fh + (size_t)n * sizeof c;
    int i;

    memset(out, 0, DAPTO_FILTER_MAX);
    for (i = 0; i < n; i++) {
        memset(&c, 0, sizeof c);
        c.bits = cl[i].bits;
        c.flags = cl[i].flags;
        c.checked = cl[i].checked;
        c.passed = cl[i].passed;
        c.hits = cl[i].hits;
        c.every = cl[i].every;
        c.after = cl[i].after;
        c.count = cl[i].count;
        c.prog_off = (uint16_t)pos;
        c.prog_len = (uint16_t)cl[i].prog->n;
        if (pos + cl[i].prog->n > DAPTO_FILTER_MAX)
            return 0;
        memcpy(out + pos, cl[i].prog->b, cl[i].prog->n);
        pos += cl[i].prog->n;
        memcpy(out + sizeof fh + (size_t)i * sizeof c, &c, sizeof c);
    }
    memset(&fh, 0, sizeof fh);
    fh.size = (uint16_t)pos;
    fh.uncond = uncond;
    fh.nclauses = (uint8_t)n;
    fh.checked = checked;
    fh.passed = passed;
    memcpy(out, &fh, sizeof fh);
    return pos;
}
