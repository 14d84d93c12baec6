/* SPDX-License-Identifier: MIT */
/*
 * dscope.h - names in scope at a frame: the frame's parameters and local
 * variables (its blocks, innermost first; a function inlined or copied
 * out of line has those of its abstract definition that the copy lost,
 * as optimized out), then the globals and file statics of the program
 * (its own unit first).  Values come with their place (dloc.h).
 */
#ifndef NOOSA_DSCOPE_H
#define NOOSA_DSCOPE_H

#include <elfutils/libdw.h>

struct dinfo;
struct frames;
struct cvalue;

#define DSCOPE_ARGS 0x1   /* the function's parameters */
#define DSCOPE_LOCALS 0x2 /* its variables (static ones too) */

/* Call FN for each variable of frame F that WHAT selects, innermost
 * block first, in the order of the debug information; a non-zero return
 * stops.  Returns how many were seen. */
int dscope_each(const struct frames *fr, unsigned int f, int what,
                int (*fn)(void *arg, const char *name, Dwarf_Die *die,
                          int depth),
                void *arg);

/* The value of variable DIE of frame F (FR NULL: a global) whose module
 * has bias BIAS.  Never NULL: a location that cannot be evaluated gives
 * a value whose error says why. */
struct cvalue *dscope_value(struct dinfo *d, const struct frames *fr,
                            unsigned int f, Dwarf_Die *die, Dwarf_Addr bias);

/* The variable or function NAME as frame F sees it (FR may be NULL):
 * 0 with *OUT, -1 with *cause (gdb's "No symbol \"x\" in current
 * context.", or why a symbol without debug information cannot be
 * used). */
int dscope_lookup(struct dinfo *d, const struct frames *fr, unsigned int f,
                  const char *name, struct cvalue **out, char **cause);

/* The type NAME (TAG DW_TAG_typedef, structure_type, union_type,
 * enumeration_type) as frame F sees it: its DIE, or -1. */
int dscope_type(struct dinfo *d, const struct frames *fr, unsigned int f,
                int tag, const char *name, Dwarf_Die *die);

#endif /* NOOSA_DSCOPE_H */
