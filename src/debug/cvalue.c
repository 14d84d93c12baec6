/* SPDX-License-Identifier: MIT */
/*
 * cvalue.c - values of C types, read from the program when needed: one
 * read of the whole object (a struct, an array) the first time any of it
 * is wanted, and its parts taken from those bytes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cvalue.h"
#include "dinfo.h"
#include "dloc.h"
#include "frames.h"
#include "xmalloc.h"

/* gdb's max-value-size: bigger objects are not read whole. */
#define CVALUE_MAX_SIZE 65536

static struct cvalue *new_value(struct dinfo *d, struct ctype *type)
{
    struct cvalue *v = xcalloc(1, sizeof *v);

    v->d = d;
    v->type = type;
    v->size = (size_t)ctype_size(type);
    return v;
}

struct cvalue *cvalue_at(struct dinfo *d, struct ctype *type, uint64_t addr)
{
    struct cvalue *v = new_value(d, type);

    v->lval = CV_MEMORY;
    v->addr = addr;
    return v;
}

struct cvalue *cvalue_bytes(struct dinfo *d, struct ctype *type,
                            const void *bytes, size_t size)
{
    struct cvalue *v = new_value(d, type);

    v->bytes = xcalloc(1, v->size + 16);
    memcpy(v->bytes, bytes, size < v->size ? size : v->size);
    v->fetched = 1;
    return v;
}

struct cvalue *cvalue_int(struct dinfo *d, struct ctype *type, int64_t v)
{
    return cvalue_bytes(d, type, &v, sizeof v);
}

struct cvalue *cvalue_uint(struct dinfo *d, struct ctype *type, uint64_t v)
{
    return cvalue_bytes(d, type, &v, sizeof v);
}

struct cvalue *cvalue_double(struct dinfo *d, struct ctype *type, double x)
{
    size_t size = (size_t)ctype_size(type);

    if (size == 4) {
        float f = (float)x;

        return cvalue_bytes(d, type, &f, sizeof f);
    }
    if (size > 8) {
        long double l = x;

        return cvalue_bytes(d, type, &l, sizeof l);
    }
    return cvalue_bytes(d, type, &x, sizeof x);
}

struct cvalue *cvalue_optout(struct dinfo *d, struct ctype *type)
{
    struct cvalue *v = new_value(d, type);

    v->optout = 1;
    v->fetched = 1;
    v->bytes = xcalloc(1, v->size + 16);
    v->avail = xcalloc(1, v->size + 1);
    return v;
}

struct cvalue *cvalue_at_loc(struct dinfo *d, struct ctype *type,
                             const struct dloc *loc, const struct frames *fr,
                             unsigned int f)
{
    struct cvalue *v;
    size_t off = 0;
    unsigned int i;

    if (loc->n == 1 && loc->p[0].kind == DP_MEM)
        return cvalue_at(d, type, loc->p[0].addr);
    if (loc->n == 1 && loc->p[0].kind == DP_OPTOUT)
        return cvalue_optout(d, type);
    v = new_value(d, type);
    v->bytes = xcalloc(1, v->size + 16);
    v->avail = xcalloc(1, v->size + 1);
    v->fetched = 1;
    if (loc->n == 1 && loc->p[0].kind == DP_REG)
        v->lval = CV_REGISTER, v->reg = loc->p[0].reg;
    for (i = 0; i < loc->n && off < v->size; i++) {
        const struct dpiece *p = &loc->p[i];
        size_t len = p->size != 0 ? p->size : v->size - off;
        unsigned char buf[16];
        const unsigned char *src = NULL;
        uint64_t r;

        if (len > v->size - off)
            len = v->size - off;
        switch (p->kind) {
        case DP_MEM:
            if (len > 0 && dinfo_read(d, p->addr, v->bytes + off, len) == 0)
                memset(v->avail + off, 1, len);
            else if (v->error == NULL)
                v->error = xasprintf("Cannot access memory at address 0x%llx",
                                     (unsigned long long)p->addr);
            off += len;
            continue;
        case DP_REG:
            if (p->reg >= FRAME_XMM0 && p->reg < FRAME_XMM0 + FRAME_NXMM) {
                src = fr != NULL ? frames_xmm(fr, f, p->reg - FRAME_XMM0)
                                 : NULL;
            } else if (fr != NULL && frames_reg(fr, f, p->reg, &r) == 0) {
                memset(buf, 0, sizeof buf);
                memcpy(buf, &r, 8);
                src = buf;
            }
            break;
        case DP_VALUE:
            src = p->bytes;
            break;
        case DP_OPTOUT:
            break;
        }
        if (src != NULL) {
            memcpy(v->bytes + off, src, len < 16 ? len : 16);
            memset(v->avail + off, 1, len < 16 ? len : 16);
        }
        off += len;
    }
    v->optout = cvalue_all_optout(v) && v->error == NULL;
    if (v->error != NULL && !v->optout) {
        /* a piece in memory that cannot be read: the value is an error */
    }
    return v;
}

int cvalue_available(const struct cvalue *v, size_t off, size_t len)
{
    if (v->avail == NULL)
        return 1;
    for (size_t i = 0; i < len && off + i < v->size; i++)
        if (!v->avail[off + i])
            return 0;
    return 1;
}

int cvalue_all_optout(const struct cvalue *v)
{
    if (v->optout)
        return 1;
    if (v->avail == NULL || v->size == 0)
        return 0;
    for (size_t i = 0; i < v->size; i++)
        if (v->avail[i])
            return 0;
    return 1;
}

/* The bits BITPOS..BITPOS+BITSIZE of the little-endian BYTES, extended
 * to 64 bits (with the sign when SIGNED). */
static uint64_t extract_bits(const unsigned char *bytes, unsigned int bitpos,
                             unsigned int bitsize, int is_signed)
{
    uint64_t w = 0;
    unsigned int nbytes = (bitpos + bitsize + 7) / 8, i;
    unsigned __int128 acc = 0;

    for (i = 0; i < nbytes && i < 16; i++)
        acc |= (unsigned __int128)bytes[i] << (8 * i);
    acc >>= bitpos;
    w = (uint64_t)acc;
    if (bitsize < 64) {
        w &= (UINT64_C(1) << bitsize) - 1;
        if (is_signed && (w >> (bitsize - 1)) & 1)
            w |= ~((UINT64_C(1) << bitsize) - 1);
    }
    return w;
}

int cvalue_fetch(struct cvalue *v)
{
    if (v->fetched)
        return v->error != NULL || v->optout ? -1 : 0;
    v->fetched = 1;
    if (v->lval != CV_MEMORY) {
        v->bytes = xcalloc(1, v->size + 16);
        return 0;
    }
    if (v->d == NULL) {
        v->error = xstrdup("no program to read (the program's memory is "
                           "not in a recording)");
        return -1;
    }
    if (v->size > CVALUE_MAX_SIZE) {
        v->error = xasprintf("value requires %zu bytes, which is more than "
                             "max-value-size",
                             v->size);
        return -1;
    }
    if (v->bitsize != 0) {
        unsigned char raw[16];
        unsigned int n = (v->bitpos + v->bitsize + 7) / 8;
        uint64_t w;

        if (n > sizeof raw || dinfo_read(v->d, v->addr, raw, n) != 0) {
            v->error = xasprintf("Cannot access memory at address 0x%llx",
                                 (unsigned long long)v->addr);
            return -1;
        }
        w = extract_bits(raw, v->bitpos, v->bitsize,
                         ctype_strip(v->type)->is_signed);
        v->bytes = xcalloc(1, v->size + 16);
        memcpy(v->bytes, &w, v->size < 8 ? v->size : 8);
        return 0;
    }
    v->bytes = xcalloc(1, v->size + 16);
    if (v->size > 0 && dinfo_read(v->d, v->addr, v->bytes, v->size) != 0) {
        v->error = xasprintf("Cannot access memory at address 0x%llx",
                             (unsigned long long)v->addr);
        return -1;
    }
    return 0;
}

struct cvalue *cvalue_copy(struct cvalue *v)
{
    cvalue_fetch(v);
    return cvalue_dup(v);
}

struct cvalue *cvalue_dup(const struct cvalue *v)
{
    struct cvalue *c = xcalloc(1, sizeof *c);

    *c = *v;
    c->bytes = NULL;
    c->avail = NULL;
    c->error = v->error != NULL ? xstrdup(v->error) : NULL;
    if (v->bytes != NULL) {
        c->bytes = xcalloc(1, v->size + 16);
        memcpy(c->bytes, v->bytes, v->size);
    }
    if (v->avail != NULL) {
        c->avail = xcalloc(1, v->size + 1);
        memcpy(c->avail, v->avail, v->size);
    }
    return c;
}

void cvalue_free(struct cvalue *v)
{
    if (v == NULL)
        return;
    free(v->bytes);
    free(v->avail);
    free(v->error);
    free(v);
}

/* A part of V of TYPE at byte OFF: in memory when V is (not read), else
 * from V's contents. */
static struct cvalue *part(struct cvalue *v, struct ctype *type, uint64_t off,
                           unsigned int bitpos, unsigned int bitsize)
{
    struct cvalue *p;

    if (v->lval == CV_MEMORY && !v->fetched) {
        p = cvalue_at(v->d, type, v->addr + off);
        p->bitpos = bitpos;
        p->bitsize = bitsize;
        return p;
    }
    p = new_value(v->d, type);
    p->fetched = 1;
    p->lval = v->lval;
    p->addr = v->addr + off;
    p->reg = v->reg;
    p->bytes = xcalloc(1, p->size + 16);
    if (v->error != NULL) {
        p->error = xstrdup(v->error);
        return p;
    }
    if (v->optout) {
        p->optout = 1;
        p->avail = xcalloc(1, p->size + 1);
        return p;
    }
    if (bitsize != 0) {
        size_t nbytes = (bitpos + bitsize + 7) / 8;
        uint64_t w = 0;

        if (off + nbytes <= v->size)
            w = extract_bits(v->bytes + off, bitpos, bitsize,
                             ctype_strip(type)->is_signed);
        memcpy(p->bytes, &w, p->size < 8 ? p->size : 8);
        if (!cvalue_available(v, (size_t)off, nbytes)) {
            p->avail = xcalloc(1, p->size + 1);
            p->optout = 1;
        }
        return p;
    }
    if (off < v->size)
        memcpy(p->bytes, v->bytes + off,
               off + p->size <= v->size ? p->size : v->size - off);
    if (v->avail != NULL) {
        p->avail = xcalloc(1, p->size + 1);
        if (off < v->size)
            memcpy(p->avail, v->avail + off,
                   off + p->size <= v->size ? p->size : v->size - off);
        p->optout = cvalue_all_optout(p);
    }
    return p;
}

struct cvalue *cvalue_member(struct cvalue *v, const struct cmember *m,
                             uint64_t offset)
{
    return part(v, m->type, offset, m->bitpos, m->bitsize);
}

struct cvalue *cvalue_element(struct cvalue *v, int64_t i)
{
    struct ctype *t = ctype_strip(v->type);
    struct ctype *elem = t->target;
    uint64_t esize = ctype_size(elem);

    if (t->kind == CT_PTR) {
        if (cvalue_fetch(v) != 0)
            return NULL;
        return cvalue_at(v->d, elem, cvalue_as_uint(v) + (uint64_t)i * esize);
    }
    if (i >= 0 && (!t->count_known || (uint64_t)i < t->count) &&
        (v->fetched || v->lval != CV_MEMORY))
        return part(v, elem, (uint64_t)i * esize, 0, 0);
    /* out of the array's bounds (C allows it), or not read: in memory */
    if (v->lval == CV_MEMORY)
        return cvalue_at(v->d, elem, v->addr + (uint64_t)i * esize);
    return NULL;
}

struct cvalue *cvalue_deref(struct cvalue *v, char **cause)
{
    struct ctype *t = ctype_strip(v->type);

    if (t->kind != CT_PTR) {
        xcause(cause, "Attempt to take contents of a non-pointer value.");
        return NULL;
    }
    if (cvalue_fetch(v) != 0) {
        xcause(cause, "%s", v->error != NULL ? v->error
                                              : "value has been optimized out");
        return NULL;
    }
    return cvalue_at(v->d, t->target, cvalue_as_uint(v));
}

int64_t cvalue_float_to_int(long double f)
{
    if (f != f)
        return 0;
    if (f >= 0x1p63L)
        return f >= 0x1p64L ? -1 : (int64_t)(uint64_t)f;
    if (f < -0x1p63L)
        return INT64_MIN;
    return (int64_t)f;
}

int cvalue_as_int(struct cvalue *v, int64_t *out)
{
    struct ctype *t = ctype_strip(v->type);
    uint64_t w = 0;
    size_t n;

    if (cvalue_fetch(v) != 0)
        return -1;
    n = v->size < 8 ? v->size : 8;
    memcpy(&w, v->bytes, n);
    if (t->kind == CT_FLOAT) {
        *out = cvalue_float_to_int(cvalue_as_ldouble(v));
        return 0;
    }
    if (n > 0 && n < 8 && t->is_signed && t->kind != CT_PTR &&
        (w >> (8 * n - 1)) & 1)
        w |= ~((UINT64_C(1) << (8 * n)) - 1);
    *out = (int64_t)w;
    return 0;
}

uint64_t cvalue_as_uint(struct cvalue *v)
{
    int64_t x = 0;

    cvalue_as_int(v, &x);
    return (uint64_t)x;
}

long double cvalue_as_ldouble(struct cvalue *v)
{
    struct ctype *t = ctype_strip(v->type);
    int64_t i;

    if (cvalue_fetch(v) != 0)
        return 0;
    if (t->kind == CT_FLOAT) {
        if (v->size == 4) {
            float f;

            memcpy(&f, v->bytes, 4);
            return f;
        }
        if (v->size == 8) {
            double d;

            memcpy(&d, v->bytes, 8);
            return d;
        }
        {
            long double l = 0;

            memcpy(&l, v->bytes, v->size < sizeof l ? v->size : sizeof l);
            return l;
        }
    }
    cvalue_as_int(v, &i);
    if (!t->is_signed)
        return (long double)(uint64_t)i;
    return (long double)i;
}

double cvalue_as_double(struct cvalue *v)
{
    return (double)cvalue_as_ldouble(v);
}
