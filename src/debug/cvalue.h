/* SPDX-License-Identifier: MIT */
/*
 * cvalue.h - values of the program's C types: a type and where the value
 * is (memory, a register, or bytes computed), its contents read from the
 * program when first needed and then kept, whole: one read an object
 * (<design#debug-read>).  A member, an element or what a pointer points
 * to is a value of its own, made without reading anything.  Parts that
 * the compiler did not keep are "optimized out".  Nothing here prints.
 */
#ifndef NOOSA_CVALUE_H
#define NOOSA_CVALUE_H

#include <stddef.h>
#include <stdint.h>

#include "ctypes.h"

struct dinfo;
struct frames;
struct dloc;

enum cvalue_lval {
    CV_NONE,     /* computed: no place in the program */
    CV_MEMORY,   /* at ADDR */
    CV_REGISTER  /* in register REG */
};

struct cvalue {
    struct ctype *type;
    struct dinfo *d;
    enum cvalue_lval lval;
    uint64_t addr;
    unsigned int reg;
    unsigned int bitpos, bitsize; /* a bitfield at ADDR (or in BYTES) */
    size_t size;          /* bytes of contents */
    unsigned char *bytes; /* the contents, once read */
    unsigned char *avail; /* per byte: available (NULL: every byte) */
    int fetched;
    int optout;           /* nothing of it was kept */
    char *error;          /* why the contents cannot be read */
};

/* A value of TYPE in memory at ADDR (nothing is read yet). */
struct cvalue *cvalue_at(struct dinfo *d, struct ctype *type, uint64_t addr);
/* A value of TYPE whose contents are SIZE bytes at BYTES (copied; the
 * rest up to the type's size is zero). */
struct cvalue *cvalue_bytes(struct dinfo *d, struct ctype *type,
                            const void *bytes, size_t size);
/* An integer, float or pointer value of TYPE. */
struct cvalue *cvalue_int(struct dinfo *d, struct ctype *type, int64_t v);
struct cvalue *cvalue_uint(struct dinfo *d, struct ctype *type, uint64_t v);
struct cvalue *cvalue_double(struct dinfo *d, struct ctype *type, double v);
/* A value of TYPE that was optimized out. */
struct cvalue *cvalue_optout(struct dinfo *d, struct ctype *type);
/* A value of TYPE at the location LOC of frame F of FR (registers are
 * read now; memory when the contents are needed). */
struct cvalue *cvalue_at_loc(struct dinfo *d, struct ctype *type,
                             const struct dloc *loc, const struct frames *fr,
                             unsigned int f);
/* A copy of V (contents read now, when they can be). */
struct cvalue *cvalue_copy(struct cvalue *v);
/* A copy of V as it is: a value in memory not read yet stays so. */
struct cvalue *cvalue_dup(const struct cvalue *v);
void cvalue_free(struct cvalue *v);

/* Read the contents: 0, or -1 with V->error (gdb's words) or V->optout.
 * A value read once is not read again. */
int cvalue_fetch(struct cvalue *v);
/* Whether bytes OFF..OFF+LEN of V's contents are all available (V
 * fetched). */
int cvalue_available(const struct cvalue *v, size_t off, size_t len);
/* Whether no byte of V is available. */
int cvalue_all_optout(const struct cvalue *v);

/* The member M (of V's struct or union type) at OFFSET bytes from V's
 * start: a value of its own.  Nothing is read when V is in memory. */
struct cvalue *cvalue_member(struct cvalue *v, const struct cmember *m,
                             uint64_t offset);
/* Element I of array V (or of the array a pointer V points to, when V
 * is a pointer: then the element is in memory). */
struct cvalue *cvalue_element(struct cvalue *v, int64_t i);
/* What pointer V points to, of TYPE (V's target when NULL): -1 with
 * *cause when V is not a pointer or cannot be read. */
struct cvalue *cvalue_deref(struct cvalue *v, char **cause);

/* F converted to an integer as C does it where C defines it; NaN is 0
 * and a value out of range the nearest end (where C leaves it
 * undefined). */
int64_t cvalue_float_to_int(long double f);

/* V's contents as an integer (signed or not by its type; a bitfield
 * extended as its type says), a pointer as its address: 0, or -1 when
 * not fetched or not integral. */
int cvalue_as_int(struct cvalue *v, int64_t *out);
uint64_t cvalue_as_uint(struct cvalue *v);
double cvalue_as_double(struct cvalue *v);
long double cvalue_as_ldouble(struct cvalue *v);

#endif /* NOOSA_CVALUE_H */
