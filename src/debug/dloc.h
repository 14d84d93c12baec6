/* SPDX-License-Identifier: MIT */
/*
 * dloc.h - where a variable is: DWARF location descriptions (single
 * expressions and location lists) evaluated against a frame's registers,
 * its frame base and canonical frame address, and the program's memory.
 * The result is a list of pieces: in memory, in a register, a value
 * computed (DW_OP_stack_value, DW_OP_implicit_value), or gone (optimized
 * out).  A parameter's value at the function's entry (DW_OP_entry_value)
 * is found, as gdb finds it, at the call site in the caller that matches
 * the frame's return address (DW_TAG_call_site_parameter's
 * DW_AT_call_value).  Nothing here prints.
 */
#ifndef NOOSA_DLOC_H
#define NOOSA_DLOC_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

struct dinfo;
struct frames;

enum dpiece_kind {
    DP_MEM,     /* at ADDR */
    DP_REG,     /* in register REG (DWARF number) */
    DP_VALUE,   /* BYTES hold it */
    DP_OPTOUT   /* gone */
};

struct dpiece {
    enum dpiece_kind kind;
    uint64_t addr;
    unsigned int reg;
    unsigned char bytes[16];
    size_t size;  /* bytes of the piece; 0 for the whole value */
};

#define DLOC_MAX_PIECES 16

struct dloc {
    unsigned int n;
    struct dpiece p[DLOC_MAX_PIECES];
};

/* Where the variable or parameter DIE is in frame F of FR (FR NULL: no
 * frame, for globals), its addresses relative to BIAS: 0 with *LOC, or
 * -1 with *cause (an expression that cannot be evaluated: gdb's words).
 * A variable with no location at the frame's address is one piece
 * DP_OPTOUT.  A DW_AT_const_value is one piece DP_VALUE (up to 16
 * bytes; longer ones in *BLOCK, which stays valid with the DWARF). */
int dloc_variable(struct dinfo *d, const struct frames *fr, unsigned int f,
                  Dwarf_Die *die, Dwarf_Addr bias, struct dloc *loc,
                  const unsigned char **block, size_t *block_len,
                  char **cause);

/* The value parameter DIE of frame F had at its function's entry, as
 * its caller's call site says (gdb's NAME@entry): 0 with *LOC, -1 when it
 * cannot be known (*cause says why when it is an error worth saying, NULL
 * when simply there is no call site information). */
int dloc_entry_value(struct dinfo *d, const struct frames *fr, unsigned int f,
                     Dwarf_Die *die, struct dloc *loc, char **cause);

#endif /* NOOSA_DLOC_H */
