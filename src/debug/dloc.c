/* SPDX-License-Identifier: MIT */
/*
 * dloc.c - DWARF location expressions evaluated: a stack machine over
 * libdw's decoded operations, with the frame's registers, frame base and
 * CFA, and the program's memory.  Messages are gdb's words for the same
 * failures.
 */
#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "dinfo.h"
#include "cvalue.h"
#include "dloc.h"
#include "frames.h"
#include "xmalloc.h"

#define STACK_MAX 64

/* DWARF 5 names for the GNU operations older libdw headers may lack. */
#ifndef DW_OP_entry_value
#define DW_OP_entry_value 0xa3
#endif
#ifndef DW_OP_GNU_entry_value
#define DW_OP_GNU_entry_value 0xf3
#endif

struct ctx {
    struct dinfo *d;
    const struct frames *fr;
    unsigned int f;        /* the frame, when FR */
    Dwarf_Addr bias;
    Dwarf_Attribute *attr; /* the attribute the operations came from */
    int depth;             /* of entry values resolved within each other */
    char **cause;
};

/* A value of the DWARF stack: of the generic type (address-sized, no
 * sign), or of a base type DW_OP_convert and friends name (an integer
 * or a float of SIZE bytes), on which arithmetic is done as that type. */
enum slot_kind { SK_GENERIC, SK_SIGNED, SK_UNSIGNED, SK_FLOAT };

struct slot {
    uint64_t v;          /* integers */
    long double f;       /* SK_FLOAT */
    enum slot_kind kind;
    unsigned int size;   /* bytes of a typed value */
};

static int fail(struct ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(struct ctx *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    if (c->cause != NULL) {
        free(*c->cause);
        *c->cause = xvasprintf(fmt, ap);
    }
    va_end(ap);
    return -1;
}

static int eval(struct ctx *c, Dwarf_Op *ops, size_t nops, struct dloc *loc,
                int want_value, uint64_t *value);

/* The frame base of C's frame: its function's DW_AT_frame_base. */
static int frame_base(struct ctx *c, uint64_t *fb)
{
    const struct frame *f;
    Dwarf_Attribute a;
    Dwarf_Op *ops;
    size_t nops;
    struct ctx sub = *c;
    int n;

    if (c->fr == NULL || c->f >= c->fr->n)
        return fail(c, "frame base: no frame selected");
    f = &c->fr->f[c->f];
    if (dwarf_attr(&((struct frame *)f)->subprogram, DW_AT_frame_base, &a) ==
        NULL)
        return fail(c, "Could not find the frame base for \"%s\".",
                    f->name != NULL ? f->name : "??");
    n = dwarf_getlocation_addr(&a, f->lookup - f->bias, &ops, &nops, 1);
    if (n <= 0)
        return fail(c, "Could not find the frame base for \"%s\".",
                    f->name != NULL ? f->name : "??");
    sub.attr = &a;
    return eval(&sub, ops, nops, NULL, 1, fb);
}

static int reg_value(struct ctx *c, unsigned int reg, uint64_t *v)
{
    if (c->fr == NULL)
        return fail(c, "no frame selected");
    if (frames_reg(c->fr, c->f, reg, v) != 0)
        return fail(c, "value has been optimized out");
    return 0;
}

static int read_mem(struct ctx *c, uint64_t addr, void *buf, size_t len)
{
    if (dinfo_read(c->d, addr, buf, len) != 0)
        return fail(c, "Cannot access memory at address 0x%llx",
                    (unsigned long long)addr);
    return 0;
}

/* The index of the operation at byte OFFSET of the expression. */
static long op_at(Dwarf_Op *ops, size_t nops, Dwarf_Word offset)
{
    for (size_t i = 0; i < nops; i++)
        if (ops[i].offset == offset)
            return (long)i;
    if (nops > 0 && offset > ops[nops - 1].offset)
        return (long)nops; /* the end */
    return -1;
}

/* The base type operation OP names (DW_OP_convert and friends, by its
 * offset DIE_OFF in the unit): its kind and size.  0 is the generic
 * type. */
static void base_type(struct ctx *c, Dwarf_Op *op, Dwarf_Word die_off,
                      enum slot_kind *kind, unsigned int *size)
{
    Dwarf_Die type;
    Dwarf_Attribute a;
    Dwarf_Word bytes = 8, enc = DW_ATE_unsigned;

    *kind = SK_GENERIC;
    *size = 8;
    if (die_off == 0 || c->attr == NULL ||
        dwarf_getlocation_die(c->attr, op, &type) != 0)
        return;
    if (dwarf_attr(&type, DW_AT_byte_size, &a) != NULL)
        dwarf_formudata(&a, &bytes);
    if (dwarf_attr(&type, DW_AT_encoding, &a) != NULL)
        dwarf_formudata(&a, &enc);
    *size = bytes > 16 ? 16 : bytes == 0 ? 8 : (unsigned int)bytes;
    *kind = enc == DW_ATE_float ? SK_FLOAT
            : enc == DW_ATE_signed || enc == DW_ATE_signed_char ? SK_SIGNED
                                                                : SK_UNSIGNED;
}

/* S from the SIZE bytes at RAW, of KIND. */
static void slot_from(struct slot *s, const unsigned char *raw,
                      enum slot_kind kind, unsigned int size)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->size = size;
    if (kind == SK_FLOAT) {
        if (size == 4) {
            float x;

            memcpy(&x, raw, 4);
            s->f = x;
        } else if (size == 8) {
            double x;

            memcpy(&x, raw, 8);
            s->f = x;
        } else {
            memcpy(&s->f, raw, size < sizeof s->f ? size : sizeof s->f);
        }
        return;
    }
    memcpy(&s->v, raw, size < 8 ? size : 8);
    if (kind == SK_SIGNED && size < 8 && ((s->v >> (8 * size - 1)) & 1))
        s->v |= ~((UINT64_C(1) << (8 * size)) - 1);
}

/* The bytes of S (16 at OUT) as its type holds it. */
static void slot_bytes(const struct slot *s, unsigned char out[16])
{
    memset(out, 0, 16);
    if (s->kind == SK_FLOAT) {
        if (s->size == 4) {
            float x = (float)s->f;

            memcpy(out, &x, 4);
        } else if (s->size == 8) {
            double x = (double)s->f;

            memcpy(out, &x, 8);
        } else {
            memcpy(out, &s->f, sizeof s->f < 16 ? sizeof s->f : 16);
        }
        return;
    }
    memcpy(out, &s->v, 8);
}

/* S converted (as C converts a value) to KIND of SIZE bytes. */
static void slot_convert(struct slot *s, enum slot_kind kind,
                         unsigned int size)
{
    if (kind == SK_FLOAT && s->kind != SK_FLOAT)
        s->f = s->kind == SK_SIGNED ? (long double)(int64_t)s->v
                                    : (long double)s->v;
    else if (kind != SK_FLOAT && s->kind == SK_FLOAT)
        s->v = (uint64_t)cvalue_float_to_int(s->f);
    if (kind != SK_FLOAT && size < 8) {
        s->v &= (UINT64_C(1) << (8 * size)) - 1;
        if (kind == SK_SIGNED && ((s->v >> (8 * size - 1)) & 1))
            s->v |= ~((UINT64_C(1) << (8 * size)) - 1);
    }
    s->kind = kind;
    s->size = size;
}

/* DW_OP_entry_value(EXPR): EXPR is a register (or a register and a
 * dereference), whose value at the function's entry the caller knows. */
static int entry_value(struct ctx *c, Dwarf_Op *op, struct slot *out)
{
    Dwarf_Attribute sub;
    Dwarf_Op *ops;
    size_t nops;
    struct dloc loc;
    const struct frame *f;
    unsigned int reg;
    int deref = 0;

    if (c->attr == NULL || dwarf_getlocation_attr(c->attr, op, &sub) != 0 ||
        dwarf_getlocation(&sub, &ops, &nops) != 0 || nops < 1)
        return fail(c, "DWARF-2 expression error: DW_OP_entry_value is "
                       "supported only for single DW_OP_reg* or for "
                       "DW_OP_fbreg(*)");
    if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31 && nops == 1) {
        reg = ops[0].atom - DW_OP_reg0;
    } else if (ops[0].atom == DW_OP_regx && nops == 1) {
        reg = (unsigned int)ops[0].number;
    } else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31 &&
               ops[0].number == 0 && nops == 2 &&
               ops[1].atom == DW_OP_deref_size) {
        reg = ops[0].atom - DW_OP_breg0;
        deref = 1;
    } else {
        return fail(c, "DWARF-2 expression error: DW_OP_entry_value is "
                       "supported only for single DW_OP_reg* or for "
                       "DW_OP_fbreg(*)");
    }
    if (c->fr == NULL || c->depth > 8)
        return fail(c, "value has been optimized out");
    f = &c->fr->f[c->f];
    {
        /* the parameter whose location at the entry is REG: the call
         * site's parameter for REG, evaluated in the caller */
        extern int dloc_call_value(struct dinfo *d, const struct frames *fr,
                                   unsigned int f, unsigned int reg,
                                   int deref, int depth, struct dloc *loc,
                                   char **cause);
        char *why = NULL;

        if (dloc_call_value(c->d, c->fr, c->f, reg, deref, c->depth + 1, &loc,
                            &why) != 0 ||
            loc.n != 1) {
            free(why);
            return fail(c, "value has been optimized out");
        }
    }
    (void)f;
    memset(out, 0, sizeof *out);
    switch (loc.p[0].kind) {
    case DP_VALUE:
        memcpy(&out->v, loc.p[0].bytes, 8);
        return 0;
    case DP_MEM:
        return read_mem(c, loc.p[0].addr, &out->v, 8);
    default:
        return fail(c, "value has been optimized out");
    }
}

/* Evaluate OPS.  With LOC, the result is a location (its pieces); with
 * WANT_VALUE, the value on top of the stack goes to *VALUE. */
static int eval(struct ctx *c, Dwarf_Op *ops, size_t nops, struct dloc *loc,
                int want_value, uint64_t *value)
{
    struct slot st[STACK_MAX];
    int sp = 0;
    long i;
    /* what the expression so far names: a memory location (the top of
     * the stack is its address), a register, or a value */
    enum { L_MEM, L_REG, L_VALUE, L_IMPLICIT, L_OPTOUT } kind = L_MEM;
    unsigned int reg = 0;
    Dwarf_Block implicit = {0, NULL};

#define NEED(k)                                                             \
    do {                                                                    \
        if (sp < (k))                                                       \
            return fail(c, "DWARF expression error: stack underflow");     \
    } while (0)
#define PUSH(x)                                                             \
    do {                                                                    \
        if (sp == STACK_MAX)                                                \
            return fail(c, "DWARF expression error: stack overflow");      \
        memset(&st[sp], 0, sizeof st[sp]);                                  \
        st[sp++].v = (x);                                                   \
    } while (0)

    if (loc != NULL)
        loc->n = 0;
    for (i = 0; i < (long)nops; i++) {
        Dwarf_Op *op = &ops[i];
        uint8_t atom = op->atom;
        uint64_t a, b, v;
        long target;

        if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
            PUSH(atom - DW_OP_lit0);
            continue;
        }
        if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
            kind = L_REG;
            reg = atom - DW_OP_reg0;
            continue;
        }
        if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
            if (reg_value(c, atom - DW_OP_breg0, &v) != 0)
                return -1;
            PUSH(v + (uint64_t)(int64_t)op->number);
            continue;
        }
        switch (atom) {
        case DW_OP_addr:
            PUSH(op->number + c->bias);
            break;
        case DW_OP_addrx:
        case DW_OP_GNU_addr_index:
        case DW_OP_constx:
        case DW_OP_GNU_const_index: {
            Dwarf_Attribute res;
            Dwarf_Addr addr;

            if (c->attr == NULL || dwarf_getlocation_attr(c->attr, op, &res) ||
                dwarf_formaddr(&res, &addr) != 0)
                return fail(c, "DWARF expression error: bad address index");
            PUSH(addr + (atom == DW_OP_addrx || atom == DW_OP_GNU_addr_index
                             ? c->bias
                             : 0));
            break;
        }
        case DW_OP_const1u:
        case DW_OP_const2u:
        case DW_OP_const4u:
        case DW_OP_const8u:
        case DW_OP_constu:
            PUSH(op->number);
            break;
        case DW_OP_const1s:
            PUSH((uint64_t)(int64_t)(int8_t)op->number);
            break;
        case DW_OP_const2s:
            PUSH((uint64_t)(int64_t)(int16_t)op->number);
            break;
        case DW_OP_const4s:
            PUSH((uint64_t)(int64_t)(int32_t)op->number);
            break;
        case DW_OP_const8s:
        case DW_OP_consts:
            PUSH(op->number);
            break;
        case DW_OP_dup:
            NEED(1);
            PUSH(0);
            st[sp - 1] = st[sp - 2];
            break;
        case DW_OP_drop:
            NEED(1);
            sp--;
            break;
        case DW_OP_over:
            NEED(2);
            PUSH(0);
            st[sp - 1] = st[sp - 3];
            break;
        case DW_OP_pick:
            NEED((int)op->number + 1);
            PUSH(0);
            st[sp - 1] = st[sp - 2 - (int)op->number];
            break;
        case DW_OP_swap: {
            struct slot t;

            NEED(2);
            t = st[sp - 1];
            st[sp - 1] = st[sp - 2];
            st[sp - 2] = t;
            break;
        }
        case DW_OP_rot: {
            struct slot t;

            NEED(3);
            t = st[sp - 1];
            st[sp - 1] = st[sp - 2];
            st[sp - 2] = st[sp - 3];
            st[sp - 3] = t;
            break;
        }
        case DW_OP_deref:
        case DW_OP_deref_size:
        case DW_OP_deref_type:
        case DW_OP_GNU_deref_type: {
            size_t size = atom == DW_OP_deref ? 8 : (size_t)op->number;
            uint64_t w = 0;

            NEED(1);
            if (size > 8)
                size = 8;
            if (read_mem(c, st[sp - 1].v, &w, size) != 0)
                return -1;
            st[sp - 1].v = w;
            if (atom == DW_OP_deref_type || atom == DW_OP_GNU_deref_type) {
                enum slot_kind k;
                unsigned int sz;

                base_type(c, op, op->number2, &k, &sz);
                slot_from(&st[sp - 1], (unsigned char *)&w, k, sz);
            }
            break;
        }
        case DW_OP_abs:
            NEED(1);
            if (st[sp - 1].kind == SK_FLOAT)
                st[sp - 1].f = st[sp - 1].f < 0 ? -st[sp - 1].f : st[sp - 1].f;
            else if ((int64_t)st[sp - 1].v < 0)
                st[sp - 1].v = -st[sp - 1].v;
            break;
        case DW_OP_neg:
            NEED(1);
            if (st[sp - 1].kind == SK_FLOAT)
                st[sp - 1].f = -st[sp - 1].f;
            else
                st[sp - 1].v = -st[sp - 1].v;
            break;
        case DW_OP_not:
            NEED(1);
            st[sp - 1].v = ~st[sp - 1].v;
            break;
        case DW_OP_plus_uconst:
            NEED(1);
            st[sp - 1].v += op->number;
            break;
        case DW_OP_and:
        case DW_OP_div:
        case DW_OP_minus:
        case DW_OP_mod:
        case DW_OP_mul:
        case DW_OP_or:
        case DW_OP_plus:
        case DW_OP_shl:
        case DW_OP_shr:
        case DW_OP_shra:
        case DW_OP_xor:
        case DW_OP_le:
        case DW_OP_ge:
        case DW_OP_eq:
        case DW_OP_lt:
        case DW_OP_gt:
        case DW_OP_ne:
            NEED(2);
            if (st[sp - 1].kind == SK_FLOAT || st[sp - 2].kind == SK_FLOAT) {
                long double x, y, r = 0;
                int cmp = -1;
                unsigned int size = st[sp - 1].kind == SK_FLOAT
                                        ? st[sp - 1].size
                                        : st[sp - 2].size;

                slot_convert(&st[sp - 1], SK_FLOAT, size);
                slot_convert(&st[sp - 2], SK_FLOAT, size);
                y = st[sp - 1].f;
                x = st[sp - 2].f;
                sp--;
                switch (atom) {
                case DW_OP_plus: r = x + y; break;
                case DW_OP_minus: r = x - y; break;
                case DW_OP_mul: r = x * y; break;
                case DW_OP_div: r = x / y; break;
                case DW_OP_le: cmp = x <= y; break;
                case DW_OP_ge: cmp = x >= y; break;
                case DW_OP_eq: cmp = x == y; break;
                case DW_OP_lt: cmp = x < y; break;
                case DW_OP_gt: cmp = x > y; break;
                case DW_OP_ne: cmp = x != y; break;
                default:
                    return fail(c, "DWARF expression error: an integer "
                                   "operation on a float");
                }
                if (cmp >= 0) {
                    memset(&st[sp - 1], 0, sizeof st[sp - 1]);
                    st[sp - 1].v = (uint64_t)cmp;
                } else {
                    st[sp - 1].f = r;
                }
                break;
            }
            b = st[sp - 1].v;
            a = st[sp - 2].v;
            sp--;
            switch (atom) {
            case DW_OP_and: v = a & b; break;
            case DW_OP_div:
                if (b == 0)
                    return fail(c, "Division by zero");
                v = (uint64_t)((int64_t)a / (int64_t)b);
                break;
            case DW_OP_minus: v = a - b; break;
            case DW_OP_mod:
                if (b == 0)
                    return fail(c, "Division by zero");
                v = a % b;
                break;
            case DW_OP_mul: v = a * b; break;
            case DW_OP_or: v = a | b; break;
            case DW_OP_plus: v = a + b; break;
            case DW_OP_shl: v = b >= 64 ? 0 : a << b; break;
            case DW_OP_shr: v = b >= 64 ? 0 : a >> b; break;
            case DW_OP_shra:
                v = (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b));
                break;
            case DW_OP_xor: v = a ^ b; break;
            case DW_OP_le: v = (int64_t)a <= (int64_t)b; break;
            case DW_OP_ge: v = (int64_t)a >= (int64_t)b; break;
            case DW_OP_eq: v = a == b; break;
            case DW_OP_lt: v = (int64_t)a < (int64_t)b; break;
            case DW_OP_gt: v = (int64_t)a > (int64_t)b; break;
            default: v = a != b; break;
            }
            /* the result keeps the operands' type (the generic one but
             * for comparisons, which give the generic type) */
            if (atom >= DW_OP_eq && atom <= DW_OP_ne)
                memset(&st[sp - 1], 0, sizeof st[sp - 1]);
            else if (st[sp - 1].kind != SK_GENERIC && st[sp - 1].size < 8)
                v &= (UINT64_C(1) << (8 * st[sp - 1].size)) - 1;
            st[sp - 1].v = v;
            break;
        case DW_OP_skip:
            target = op_at(ops, nops, op->offset + 3 + op->number);
            if (target < 0)
                return fail(c, "DWARF expression error: bad branch");
            i = target - 1;
            break;
        case DW_OP_bra:
            NEED(1);
            v = st[--sp].v;
            if (v != 0) {
                target = op_at(ops, nops, op->offset + 3 + op->number);
                if (target < 0)
                    return fail(c, "DWARF expression error: bad branch");
                i = target - 1;
            }
            break;
        case DW_OP_nop:
            break;
        case DW_OP_regx:
            kind = L_REG;
            reg = (unsigned int)op->number;
            break;
        case DW_OP_bregx:
            if (reg_value(c, (unsigned int)op->number, &v) != 0)
                return -1;
            PUSH(v + (uint64_t)(int64_t)op->number2);
            break;
        case DW_OP_fbreg:
            if (frame_base(c, &v) != 0)
                return -1;
            PUSH(v + (uint64_t)(int64_t)op->number);
            break;
        case DW_OP_call_frame_cfa:
            if (c->fr == NULL || c->f >= c->fr->n)
                return fail(c, "no frame selected");
            PUSH(c->fr->phys[c->fr->f[c->f].phys].cfa);
            break;
        case DW_OP_stack_value:
            kind = L_VALUE;
            break;
        case DW_OP_implicit_value:
            if (c->attr == NULL ||
                dwarf_getlocation_implicit_value(c->attr, op, &implicit) != 0)
                return fail(c, "DWARF expression error: bad implicit value");
            kind = L_IMPLICIT;
            break;
        case DW_OP_entry_value:
        case DW_OP_GNU_entry_value: {
            struct slot s;

            if (entry_value(c, op, &s) != 0)
                return -1;
            if (sp == STACK_MAX)
                return fail(c, "DWARF expression error: stack overflow");
            st[sp++] = s;
            break;
        }
        case DW_OP_regval_type:
        case DW_OP_GNU_regval_type: {
            struct slot sl;
            const unsigned char *x;
            enum slot_kind k;
            unsigned int sz;

            base_type(c, op, op->number2, &k, &sz);
            if (op->number >= FRAME_XMM0 &&
                op->number < FRAME_XMM0 + FRAME_NXMM) {
                if (c->fr == NULL ||
                    (x = frames_xmm(c->fr, c->f,
                                    (unsigned int)op->number - FRAME_XMM0)) ==
                        NULL)
                    return fail(c, "value has been optimized out");
                slot_from(&sl, x, k, sz);
            } else {
                uint64_t r;

                if (reg_value(c, (unsigned int)op->number, &r) != 0)
                    return -1;
                slot_from(&sl, (unsigned char *)&r, k, sz);
            }
            if (sp == STACK_MAX)
                return fail(c, "DWARF expression error: stack overflow");
            st[sp++] = sl;
            break;
        }
        case DW_OP_const_type:
        case DW_OP_GNU_const_type: {
            Dwarf_Attribute res;
            Dwarf_Block blk;
            struct slot sl;
            unsigned char raw[16] = {0};
            enum slot_kind k;
            unsigned int sz;

            if (c->attr == NULL || dwarf_getlocation_attr(c->attr, op, &res) ||
                dwarf_formblock(&res, &blk) != 0)
                return fail(c, "DWARF expression error: bad typed constant");
            memcpy(raw, blk.data, blk.length < 16 ? blk.length : 16);
            base_type(c, op, op->number, &k, &sz);
            slot_from(&sl, raw, k, sz);
            if (sp == STACK_MAX)
                return fail(c, "DWARF expression error: stack overflow");
            st[sp++] = sl;
            break;
        }
        case DW_OP_convert:
        case DW_OP_GNU_convert: {
            enum slot_kind k;
            unsigned int sz;

            NEED(1);
            base_type(c, op, op->number, &k, &sz);
            slot_convert(&st[sp - 1], k, sz);
            break;
        }
        case DW_OP_reinterpret:
        case DW_OP_GNU_reinterpret: {
            unsigned char raw[16];
            enum slot_kind k;
            unsigned int sz;

            NEED(1);
            slot_bytes(&st[sp - 1], raw);
            base_type(c, op, op->number, &k, &sz);
            slot_from(&st[sp - 1], raw, k, sz);
            break;
        }
        case DW_OP_piece:
        case DW_OP_bit_piece: {
            struct dpiece *p;

            if (loc == NULL)
                return fail(c, "DWARF expression error: a piece where a "
                               "value is wanted");
            if (loc->n == DLOC_MAX_PIECES)
                return fail(c, "DWARF expression error: too many pieces");
            p = &loc->p[loc->n++];
            memset(p, 0, sizeof *p);
            p->size = atom == DW_OP_piece ? (size_t)op->number
                                          : (size_t)(op->number + 7) / 8;
            if (kind == L_REG) {
                p->kind = DP_REG;
                p->reg = reg;
            } else if (kind == L_IMPLICIT) {
                p->kind = DP_VALUE;
                memcpy(p->bytes, implicit.data,
                       implicit.length < 16 ? implicit.length : 16);
            } else if (sp == 0) {
                p->kind = DP_OPTOUT; /* an empty piece: gone */
            } else if (kind == L_VALUE) {
                p->kind = DP_VALUE;
                slot_bytes(&st[sp - 1], p->bytes);
                sp--;
            } else {
                p->kind = DP_MEM;
                p->addr = st[--sp].v;
            }
            kind = L_MEM;
            break;
        }
        case DW_OP_form_tls_address:
        case DW_OP_GNU_push_tls_address:
            return fail(c, "Cannot access thread-local variables in this "
                           "program (noosa does not read thread-local "
                           "storage yet)");
        case DW_OP_implicit_pointer:
        case DW_OP_GNU_implicit_pointer:
            kind = L_OPTOUT;
            break;
        default:
            return fail(c, "Unhandled dwarf expression opcode 0x%x", atom);
        }
    }
#undef NEED
#undef PUSH
    if (want_value) {
        if (kind == L_REG) {
            if (reg_value(c, reg, value) != 0)
                return -1;
            return 0;
        }
        if (sp == 0)
            return fail(c, "DWARF expression error: empty stack");
        *value = st[sp - 1].v;
        return 0;
    }
    if (loc->n > 0) {
        /* pieces: whatever follows the last is not part of the value */
        return 0;
    }
    loc->n = 1;
    memset(&loc->p[0], 0, sizeof loc->p[0]);
    switch (kind) {
    case L_REG:
        loc->p[0].kind = DP_REG;
        loc->p[0].reg = reg;
        break;
    case L_IMPLICIT:
        loc->p[0].kind = DP_VALUE;
        memcpy(loc->p[0].bytes, implicit.data,
               implicit.length < 16 ? implicit.length : 16);
        loc->p[0].size = implicit.length;
        break;
    case L_OPTOUT:
        loc->p[0].kind = DP_OPTOUT;
        break;
    case L_VALUE:
        if (sp == 0)
            return fail(c, "DWARF expression error: empty stack");
        loc->p[0].kind = DP_VALUE;
        slot_bytes(&st[sp - 1], loc->p[0].bytes);
        break;
    default:
        if (sp == 0) {
            loc->p[0].kind = DP_OPTOUT;
            break;
        }
        loc->p[0].kind = DP_MEM;
        loc->p[0].addr = st[sp - 1].v;
        break;
    }
    return 0;
}

int dloc_variable(struct dinfo *d, const struct frames *fr, unsigned int f,
                  Dwarf_Die *die, Dwarf_Addr bias, struct dloc *loc,
                  const unsigned char **block, size_t *block_len,
                  char **cause)
{
    struct ctx c = {.d = d, .fr = fr, .f = f, .bias = bias, .cause = cause};
    Dwarf_Attribute a;
    Dwarf_Op *ops;
    size_t nops;
    int n;

    *block = NULL;
    *block_len = 0;
    memset(loc, 0, sizeof *loc);
    loc->n = 1;
    if (dwarf_attr(die, DW_AT_const_value, &a) != NULL) {
        Dwarf_Block blk;
        Dwarf_Word u;
        Dwarf_Sword s;

        loc->p[0].kind = DP_VALUE;
        switch (dwarf_whatform(&a)) {
        case DW_FORM_block:
        case DW_FORM_block1:
        case DW_FORM_block2:
        case DW_FORM_block4:
        case DW_FORM_data16:
            if (dwarf_formblock(&a, &blk) != 0)
                return fail(&c, "bad constant value");
            memcpy(loc->p[0].bytes, blk.data,
                   blk.length < 16 ? blk.length : 16);
            *block = blk.data;
            *block_len = blk.length;
            return 0;
        case DW_FORM_sdata:
        case DW_FORM_implicit_const:
            dwarf_formsdata(&a, &s);
            memcpy(loc->p[0].bytes, &s, 8);
            return 0;
        case DW_FORM_string:
        case DW_FORM_strp:
        case DW_FORM_line_strp:
        case DW_FORM_strx:
        case DW_FORM_strx1:
        case DW_FORM_strx2:
        case DW_FORM_strx3:
        case DW_FORM_strx4: {
            const char *str = dwarf_formstring(&a);

            if (str == NULL)
                return fail(&c, "bad constant value");
            *block = (const unsigned char *)str;
            *block_len = strlen(str) + 1;
            memcpy(loc->p[0].bytes, str,
                   *block_len < 16 ? *block_len : 16);
            return 0;
        }
        default:
            dwarf_formudata(&a, &u);
            memcpy(loc->p[0].bytes, &u, 8);
            return 0;
        }
    }
    if (dwarf_attr(die, DW_AT_location, &a) == NULL) {
        loc->p[0].kind = DP_OPTOUT;
        return 0;
    }
    c.attr = &a;
    n = dwarf_getlocation_addr(
        &a, fr != NULL && f < fr->n ? fr->f[f].lookup - bias : 0, &ops, &nops,
        1);
    if (n < 0 && fr == NULL) {
        /* a list needs an address: a global has none */
        n = dwarf_getlocation(&a, &ops, &nops) == 0 ? 1 : -1;
    }
    if (n <= 0 || nops == 0) {
        loc->p[0].kind = DP_OPTOUT;
        return 0;
    }
    return eval(&c, ops, nops, loc, 0, NULL);
}

/* Call sites: DW_TAG_call_site (DWARF 5) or DW_TAG_GNU_call_site, under
 * function DIE, whose return address is RET (relative to the module). */
static int find_call_site(Dwarf_Die *die, Dwarf_Addr ret, Dwarf_Die *out)
{
    Dwarf_Die child;

    if (dwarf_child(die, &child) != 0)
        return -1;
    do {
        int tag = dwarf_tag(&child);

        if (tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site) {
            Dwarf_Attribute a;
            Dwarf_Addr pc;

            if ((dwarf_attr(&child, DW_AT_call_return_pc, &a) != NULL ||
                 dwarf_attr(&child, DW_AT_low_pc, &a) != NULL) &&
                dwarf_formaddr(&a, &pc) == 0 && pc == ret) {
                *out = child;
                return 0;
            }
        } else if (tag == DW_TAG_lexical_block ||
                   tag == DW_TAG_inlined_subroutine) {
            if (dwarf_haspc(&child, ret - 1) == 1 &&
                find_call_site(&child, ret, out) == 0)
                return 0;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return -1;
}

/* Whether call site CS calls the function of frame F. */
static int calls_frame(Dwarf_Die *cs, const struct frame *f)
{
    Dwarf_Attribute a;
    Dwarf_Die callee;
    Dwarf_Addr entry, fentry;

    if ((dwarf_attr(cs, DW_AT_call_origin, &a) == NULL &&
         dwarf_attr(cs, DW_AT_abstract_origin, &a) == NULL) ||
        dwarf_formref_die(&a, &callee) == NULL)
        return 0; /* an indirect call: gdb would evaluate its target */
    /* the same function: the callee's definition is the frame's (the
     * frame's function may be an out-of-line copy whose abstract origin
     * is the call site's) */
    if (callee.addr == f->subprogram.addr)
        return 1;
    if (dwarf_attr(&((struct frame *)f)->subprogram, DW_AT_abstract_origin,
                   &a) != NULL) {
        Dwarf_Die origin;

        if (dwarf_formref_die(&a, &origin) != NULL &&
            origin.addr == callee.addr)
            return 1;
    }
    if (dwarf_entrypc(&callee, &entry) == 0 &&
        dwarf_entrypc(&((struct frame *)f)->subprogram, &fentry) == 0 &&
        entry == fentry)
        return 1;
    return 0;
}

int dloc_call_value(struct dinfo *d, const struct frames *fr, unsigned int f,
                    unsigned int reg, int deref, int depth, struct dloc *loc,
                    char **cause);

int dloc_call_value(struct dinfo *d, const struct frames *fr, unsigned int f,
                    unsigned int reg, int deref, int depth, struct dloc *loc,
                    char **cause)
{
    const struct frame *fn, *caller;
    unsigned int cf, phys;
    Dwarf_Die cs, child;
    struct ctx c = {.d = d, .fr = fr, .cause = cause, .depth = depth};

    if (fr == NULL || f >= fr->n)
        return fail(&c, "no frame");
    /* entry values are of the machine frame's function */
    phys = fr->f[f].phys;
    for (cf = f; cf < fr->n && fr->f[cf].phys == phys; cf++)
        ;
    if (cf >= fr->n)
        return fail(&c, "DW_OP_entry_value resolving requires a caller");
    fn = &fr->f[cf - 1];
    caller = &fr->f[cf];
    if (!caller->has_cu || fr->phys[caller->phys].signal_frame ||
        fr->phys[phys].signal_frame)
        return fail(&c, "DW_OP_entry_value resolving cannot find a call site");
    if (find_call_site(&((struct frame *)caller)->subprogram,
                       caller->pc - caller->bias, &cs) != 0)
        return fail(&c, "DW_OP_entry_value resolving cannot find "
                        "DW_TAG_call_site 0x%llx",
                    (unsigned long long)caller->pc);
    if (!calls_frame(&cs, fn))
        return fail(&c, "DW_OP_entry_value resolving expects another callee");
    if (dwarf_child(&cs, &child) != 0)
        return fail(&c, "Cannot find matching parameter at DW_TAG_call_site");
    do {
        Dwarf_Attribute a, v;
        Dwarf_Op *ops;
        size_t nops;
        int tag = dwarf_tag(&child);
        unsigned int r;

        if (tag != DW_TAG_call_site_parameter &&
            tag != DW_TAG_GNU_call_site_parameter)
            continue;
        if (dwarf_attr(&child, DW_AT_location, &a) == NULL ||
            dwarf_getlocation(&a, &ops, &nops) != 0 || nops != 1)
            continue;
        if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)
            r = ops[0].atom - DW_OP_reg0;
        else if (ops[0].atom == DW_OP_regx)
            r = (unsigned int)ops[0].number;
        else
            continue;
        if (r != reg)
            continue;
        if (dwarf_attr(&child, deref ? DW_AT_call_data_value
                                     : DW_AT_call_value,
                       &v) == NULL &&
            dwarf_attr(&child, deref ? DW_AT_GNU_call_site_data_value
                                     : DW_AT_GNU_call_site_value,
                       &v) == NULL)
            return fail(&c, "Cannot find matching parameter value");
        if (dwarf_getlocation(&v, &ops, &nops) != 0)
            return fail(&c, "bad call site value");
        c.attr = &v;
        c.f = cf;
        c.bias = caller->bias;
        {
            uint64_t val;
            struct dloc tmp;

            /* a value (usually with DW_OP_stack_value), or a register of
             * the caller's */
            if (eval(&c, ops, nops, &tmp, 0, NULL) != 0)
                return -1;
            if (tmp.n == 1 && tmp.p[0].kind == DP_REG) {
                if (reg_value(&c, tmp.p[0].reg, &val) != 0)
                    return -1;
                memset(loc, 0, sizeof *loc);
                loc->n = 1;
                loc->p[0].kind = DP_VALUE;
                memcpy(loc->p[0].bytes, &val, 8);
                return 0;
            }
            if (tmp.n == 1 && tmp.p[0].kind == DP_MEM) {
                /* a location expression's result is its value's address:
                 * DW_AT_call_value is a value, so the top of the stack is
                 * the value itself */
                memset(loc, 0, sizeof *loc);
                loc->n = 1;
                loc->p[0].kind = DP_VALUE;
                memcpy(loc->p[0].bytes, &tmp.p[0].addr, 8);
                return 0;
            }
            *loc = tmp;
            return 0;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return fail(&c, "Cannot find matching parameter at DW_TAG_call_site");
}

int dloc_entry_value(struct dinfo *d, const struct frames *fr, unsigned int f,
                     Dwarf_Die *die, struct dloc *loc, char **cause)
{
    Dwarf_Attribute a;
    Dwarf_Op *ops;
    size_t nops;
    Dwarf_Addr entry;
    const struct frame *fn;
    unsigned int cf, phys;
    int n;

    if (cause != NULL)
        *cause = NULL;
    if (fr == NULL || f >= fr->n)
        return -1;
    phys = fr->f[f].phys;
    for (cf = f; cf < fr->n && fr->f[cf].phys == phys; cf++)
        ;
    fn = &fr->f[cf - 1];
    /* gdb reads the parameter's location at its function's entry: a
     * register there is what the caller's call site describes */
    if (fr->f[f].inlined || dwarf_attr(die, DW_AT_location, &a) == NULL ||
        dwarf_entrypc(&((struct frame *)fn)->subprogram, &entry) != 0)
        return -1;
    n = dwarf_getlocation_addr(&a, entry, &ops, &nops, 1);
    if (n <= 0 || nops != 1)
        return -1;
    if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
        char *why = NULL;
        int rc = dloc_call_value(d, fr, f, ops[0].atom - DW_OP_reg0, 0, 1,
                                 loc, &why);

        free(why);
        return rc;
    }
    return -1;
}
