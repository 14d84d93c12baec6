/* SPDX-License-Identifier: MIT */
/*
 * fbuild.h - a tiny assembler of filters for tests <protocol#filter>:
 * programs instruction by instruction, with forward jumps patched once
 * their target is known, and filters from clauses.  It is not the
 * condition compiler; it writes exactly the bytes a test asks for.
 */
#ifndef NOOSA_FBUILD_H
#define NOOSA_FBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

/* A program being written. */
struct fprog {
    unsigned char b[DAPTO_FILTER_MAX];
    uint32_t n;
};

void fp_init(struct fprog *p);
void fp_op(struct fprog *p, int op);                /* an opcode alone */
void fp_arg(struct fprog *p, int op, unsigned int k); /* ARG, ARGD, ARGS */
void fp_const(struct fprog *p, int64_t v);
void fp_constd(struct fprog *p, double v);
void fp_consts(struct fprog *p, const char *s);
/* JF or JT with its offset to patch: returns where the operand is. */
uint32_t fp_jump(struct fprog *p, int op);
/* Make the jump whose operand is at AT land here. */
void fp_land(struct fprog *p, uint32_t at);
/* Common shapes: ARG k, CONST v, CMPI+c, END. */
void fp_cmp_arg(struct fprog *p, unsigned int k, int cmp, int64_t v);

/* One clause of a filter being written. */
struct fclause {
    uint8_t bits, flags;
    uint16_t checked, passed, hits; /* DAPTO_CNT_NONE unless set */
    uint32_t every, after, count;
    const struct fprog *prog;
};

/* A clause firing BITS when PROG holds, with no counters. */
struct fclause fc(uint8_t bits, const struct fprog *prog);
/* A question's clause, counted with CHECKED and PASSED, firing no state
 * bit: writes into PROG the program that always holds. */
struct fclause fc_question(struct fprog *prog, uint16_t checked, uint16_t passed);

/* Write a filter with UNCOND, counters CHECKED and PASSED and the N
 * clauses CL into OUT (DAPTO_FILTER_MAX bytes).  Returns its size. */
size_t fbuild(unsigned char *out, uint8_t uncond, uint16_t checked,
              uint16_t passed, const struct fclause *cl, int n);

#endif /* NOOSA_FBUILD_H */
