/* SPDX-License-Identifier: MIT */
/*
 * patch.h - a USDT probe handled in the program <design#probes>: its
 * one-byte nop and the instructions after it (five bytes at least) are
 * replaced by a jump to a trampoline, which saves the thread's general
 * registers and flags, calls the runtime's dapto_probe_hit_gp (which
 * touches no other register), restores them, runs the instructions it
 * replaced (moved there) and jumps back.
 *
 * Replacing instructions is safe only where nothing jumps into the
 * middle of the replaced bytes: the object's code is read once
 * (capstone, every executable section) for the addresses it names
 * (branch targets, immediates, %rip-relative operands) and its data for
 * the addresses it holds (pointers, relocations, jump tables of offsets
 * from a %rip-relative base), and a site with any of them inside is left
 * to a breakpoint, with the reason.  So is a site whose instructions
 * cannot be moved (a call, a %rip-relative operand, a branch that is not
 * a jump at the end), and any site of an object with C++ exception
 * tables (landing pads are not looked for).
 */
#ifndef NOOSA_PATCH_H
#define NOOSA_PATCH_H

#include <stddef.h>
#include <stdint.h>

struct patch_obj;

/* What is known of the object at PATH (loaded with BIAS) for patching,
 * or NULL with *why (it cannot be read). */
struct patch_obj *patch_obj_open(const char *path, uint64_t bias,
                                 char **why);
void patch_obj_free(struct patch_obj *o);

#define PATCH_MAX 32 /* bytes replaced at most */

/* How a site is replaced. */
struct patch_plan {
    uint64_t site;
    unsigned int len;          /* bytes replaced, 5 or more */
    unsigned char orig[PATCH_MAX];
    /* the instructions after the nop, decoded: where each starts in the
     * replaced bytes and what it is */
    unsigned int ninsn;
    struct {
        unsigned int off, size;
        int kind;      /* 0 copied, 1 jmp (last), 2 jcc, 3 ret (last) */
        uint64_t target;
        unsigned char cc; /* jcc: its condition (0..15) */
    } insn[8];
    int ends;          /* the last moved instruction leaves (jmp, ret) */
};

/* Plan the replacement of the probe at SITE, whose nop is NOP bytes;
 * CODE holds N bytes from SITE on (as the process has them).  0, or -1
 * with *why (static) when it cannot be done safely. */
int patch_plan(struct patch_obj *o, uint64_t site, unsigned int nop,
               const unsigned char *code, size_t n, struct patch_plan *pl,
               const char **why);

/* The trampoline of plan PL, to run at address AT, calling HIT(SITE,
 * registers), into BUF (PATCH_TRAMP_MAX bytes): its length. */
#define PATCH_TRAMP_MAX 256
size_t patch_trampoline(unsigned char *buf, uint64_t at, uint64_t site,
                        uint64_t hit, const struct patch_plan *pl);

/* The jump that replaces the site's bytes (PL->len: a jmp to TRAMP, the
 * rest int3) into BUF. */
void patch_jump(unsigned char *buf, const struct patch_plan *pl,
                uint64_t tramp);

#endif /* NOOSA_PATCH_H */
