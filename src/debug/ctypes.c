/* SPDX-License-Identifier: MIT */
/*
 * ctypes.c - C types from DWARF entries, made on demand and kept in a
 * table by entry, and their names as gdb writes them.  Members of a
 * struct are read when first needed (a type seen only through a pointer
 * costs its name); a struct known only by its declaration in one
 * compilation unit is completed through the resolver (the index finds
 * its definition elsewhere), as gdb does with opaque types.
 */
#include "config.h"

#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes.h"
#include "dstr.h"
#include "xmalloc.h"

struct ctypes {
    /* types by entry: open addressing on the entry's address in the
     * section, which is unique over every module */
    struct ctype **slots;
    size_t nslots, used;
    struct ctype *all; /* every type made, for freeing */
    struct ctype *builtin[CB_COUNT];
    ctype_resolve_fn resolve;
    void *arg;
};

struct ctypes *ctypes_create(ctype_resolve_fn resolve, void *arg)
{
    struct ctypes *ts = xcalloc(1, sizeof *ts);

    ts->nslots = 1024;
    ts->slots = xcalloc(ts->nslots, sizeof *ts->slots);
    ts->resolve = resolve;
    ts->arg = arg;
    return ts;
}

void ctypes_free(struct ctypes *ts)
{
    struct ctype *t, *next;
    unsigned int i;

    if (ts == NULL)
        return;
    for (t = ts->all; t != NULL; t = next) {
        next = t->next;
        for (i = 0; i < t->nmembers; i++)
            free(t->members[i].name);
        for (i = 0; i < t->nenums; i++)
            free(t->enums[i].name);
        free(t->members);
        free(t->enums);
        free(t->params);
        free(t->name);
        free(t);
    }
    free(ts->slots);
    free(ts);
}

static struct ctype *new_type(struct ctypes *ts, enum ctype_kind kind)
{
    struct ctype *t = xcalloc(1, sizeof *t);

    t->kind = kind;
    t->owner = ts;
    t->next = ts->all;
    ts->all = t;
    return t;
}

static size_t slot_of(const struct ctypes *ts, const void *key)
{
    uintptr_t h = (uintptr_t)key;

    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (ts->nslots - 1);
}

static struct ctype *lookup(const struct ctypes *ts, const void *key)
{
    size_t i = slot_of(ts, key);

    while (ts->slots[i] != NULL) {
        if (ts->slots[i]->die.addr == key)
            return ts->slots[i];
        i = (i + 1) & (ts->nslots - 1);
    }
    return NULL;
}

static void insert(struct ctypes *ts, struct ctype *t)
{
    size_t i;

    if ((ts->used + 1) * 2 > ts->nslots) {
        struct ctype **old = ts->slots;
        size_t n = ts->nslots, k;

        ts->nslots *= 2;
        ts->slots = xcalloc(ts->nslots, sizeof *ts->slots);
        for (k = 0; k < n; k++) {
            if (old[k] == NULL)
                continue;
            i = slot_of(ts, old[k]->die.addr);
            while (ts->slots[i] != NULL)
                i = (i + 1) & (ts->nslots - 1);
            ts->slots[i] = old[k];
        }
        free(old);
    }
    i = slot_of(ts, t->die.addr);
    while (ts->slots[i] != NULL)
        i = (i + 1) & (ts->nslots - 1);
    ts->slots[i] = t;
    ts->used++;
}

/* DIE's DW_AT_name, following abstract origins and specifications. */
static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;

    if (dwarf_attr_integrate(die, DW_AT_name, &a) == NULL)
        return NULL;
    return dwarf_formstring(&a);
}

static int die_udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *v)
{
    Dwarf_Attribute a;

    return dwarf_attr_integrate(die, at, &a) != NULL &&
                   dwarf_formudata(&a, v) == 0
               ? 0
               : -1;
}

/* The base type names gdb writes for GCC's ("long unsigned int" is
 * "unsigned long"). */
static char *base_name(const char *name)
{
    static const char *const map[][2] = {
        {"long int", "long"},
        {"long unsigned int", "unsigned long"},
        {"short int", "short"},
        {"short unsigned int", "unsigned short"},
        {"long long int", "long long"},
        {"long long unsigned int", "unsigned long long"},
        {"__int128 unsigned", "unsigned __int128"},
    };

    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(name, map[i][0]) == 0)
            return xstrdup(map[i][1]);
    return xstrdup(name);
}

static struct ctype *make_base(struct ctypes *ts, Dwarf_Die *die,
                               struct ctype *t)
{
    Dwarf_Word enc = 0, size = 0;
    const char *name = die_name(die);

    die_udata(die, DW_AT_encoding, &enc);
    die_udata(die, DW_AT_byte_size, &size);
    (void)ts;
    t->size = size;
    t->name = base_name(name != NULL ? name : "?");
    switch (enc) {
    case DW_ATE_boolean:
        t->kind = CT_BOOL;
        break;
    case DW_ATE_float:
        t->kind = CT_FLOAT;
        t->is_signed = 1;
        break;
    case DW_ATE_signed_char:
        t->kind = size == 1 ? CT_CHAR : CT_INT;
        t->is_signed = 1;
        break;
    case DW_ATE_unsigned_char:
        t->kind = size == 1 ? CT_CHAR : CT_INT;
        break;
    case DW_ATE_signed:
        t->kind = CT_INT;
        t->is_signed = 1;
        break;
    default: /* unsigned, UTF, and what C has not */
        t->kind = CT_INT;
        break;
    }
    return t;
}

/* The element count of the array dimension SUB (a DW_TAG_subrange_type
 * or DW_TAG_enumeration_type): 0 with *N, -1 when not a constant. */
static int subrange_count(Dwarf_Die *sub, uint64_t *n)
{
    Dwarf_Attribute a;
    Dwarf_Word count, upper;
    Dwarf_Sword lower = 0, su;

    if (dwarf_attr_integrate(sub, DW_AT_count, &a) != NULL) {
        if (dwarf_formudata(&a, &count) != 0)
            return -1;
        *n = count;
        return 0;
    }
    if (dwarf_attr_integrate(sub, DW_AT_lower_bound, &a) != NULL &&
        dwarf_formsdata(&a, &lower) != 0)
        return -1;
    if (dwarf_attr_integrate(sub, DW_AT_upper_bound, &a) == NULL)
        return -1;
    switch (dwarf_whatform(&a)) {
    case DW_FORM_data1:
    case DW_FORM_data2:
    case DW_FORM_data4:
    case DW_FORM_data8:
    case DW_FORM_udata:
        if (dwarf_formudata(&a, &upper) != 0)
            return -1;
        /* an unsigned bound of all ones is -1: no element */
        su = (Dwarf_Sword)upper;
        break;
    case DW_FORM_sdata:
    case DW_FORM_implicit_const:
        if (dwarf_formsdata(&a, &su) != 0)
            return -1;
        break;
    default:
        return -1; /* a variable length array */
    }
    *n = su < lower ? 0 : (uint64_t)(su - lower + 1);
    return 0;
}

static struct ctype *make_array(struct ctypes *ts, Dwarf_Die *die,
                                struct ctype *t)
{
    Dwarf_Die child, dims[8];
    struct ctype *elem, *cur;
    int n = 0, i;

    elem = ctype_of_attr(ts, die);
    if (dwarf_child(die, &child) == 0) {
        do {
            int tag = dwarf_tag(&child);

            if ((tag == DW_TAG_subrange_type ||
                 tag == DW_TAG_enumeration_type) &&
                n < (int)(sizeof dims / sizeof dims[0]))
                dims[n++] = child;
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    /* int a[3][4]: an array of 3 arrays of 4; the entry's own type is
     * the outermost dimension */
    cur = elem;
    for (i = n - 1; i >= 1; i--) {
        uint64_t k;

        if (subrange_count(&dims[i], &k) == 0)
            cur = ctype_array(ts, cur, k);
        else
            cur = ctype_array(ts, cur, 0), cur->count_known = 0;
    }
    t->kind = CT_ARRAY;
    t->target = cur;
    if (n > 0 && subrange_count(&dims[0], &t->count) == 0) {
        t->count_known = 1;
        t->size = t->count * ctype_size(cur);
    }
    return t;
}

static struct ctype *make_enum(struct ctypes *ts, Dwarf_Die *die,
                               struct ctype *t)
{
    Dwarf_Die child;
    Dwarf_Word size = 0;
    uint64_t mask = 0;
    size_t cap = 0;
    int flag = 1, negative = 0;
    const char *name = die_name(die);

    t->kind = CT_ENUM;
    t->name = name != NULL ? xstrdup(name) : NULL;
    die_udata(die, DW_AT_byte_size, &size);
    t->size = size;
    if (dwarf_hasattr(die, DW_AT_declaration)) {
        Dwarf_Die def;

        if (name == NULL || ts->resolve == NULL ||
            ts->resolve(ts->arg, DW_TAG_enumeration_type, name, &def) != 0)
            return t;
        die = &def;
        die_udata(die, DW_AT_byte_size, &size);
        t->size = size;
    }
    if (dwarf_hasattr(die, DW_AT_type))
        t->target = ctype_of_attr(ts, die);
    t->complete = t->loaded = 1;
    if (dwarf_child(die, &child) != 0)
        return t;
    do {
        Dwarf_Attribute a;
        Dwarf_Sword v = 0;
        Dwarf_Word uv;
        struct cenumerator *e;

        if (dwarf_tag(&child) != DW_TAG_enumerator)
            continue;
        if (dwarf_attr(&child, DW_AT_const_value, &a) == NULL)
            continue;
        if (dwarf_whatform(&a) == DW_FORM_sdata ||
            dwarf_whatform(&a) == DW_FORM_implicit_const ||
            (t->target != NULL && ctype_strip(t->target)->is_signed)) {
            dwarf_formsdata(&a, &v);
        } else if (dwarf_formudata(&a, &uv) == 0) {
            v = (Dwarf_Sword)uv;
            /* a data form holds a value of the enum's size: sign
             * extend only for a signed underlying type (above) */
        }
        t->enums = xgrow(t->enums, t->nenums, &cap, sizeof *t->enums);
        e = &t->enums[t->nenums++];
        name = die_name(&child);
        e->name = xstrdup(name != NULL ? name : "?");
        e->value = v;
        /* gdb's flag enum: every value 0 or a single bit of its own */
        if (v < 0) {
            negative = 1;
            flag = 0;
        } else if (__builtin_popcountll((uint64_t)v) >= 2 ||
                   (mask & (uint64_t)v) != 0) {
            flag = 0;
        } else {
            mask |= (uint64_t)v;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    t->flag_enum = flag;
    if (t->target != NULL)
        t->is_signed = ctype_strip(t->target)->is_signed;
    else
        t->is_signed = negative;
    return t;
}

static struct ctype *make_func(struct ctypes *ts, Dwarf_Die *die,
                               struct ctype *t)
{
    Dwarf_Die child;
    Dwarf_Attribute a;
    bool proto = 0;
    size_t cap = 0;

    t->kind = CT_FUNC;
    t->target = ctype_of_attr(ts, die);
    if (dwarf_attr_integrate(die, DW_AT_prototyped, &a) != NULL)
        dwarf_formflag(&a, &proto);
    t->prototyped = proto;
    if (dwarf_child(die, &child) != 0)
        return t;
    do {
        int tag = dwarf_tag(&child);

        if (tag == DW_TAG_formal_parameter) {
            t->params = xgrow(t->params, t->nparams, &cap, sizeof *t->params);
            t->params[t->nparams++] = ctype_of_attr(ts, &child);
        } else if (tag == DW_TAG_unspecified_parameters) {
            t->varargs = 1;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return t;
}

struct ctype *ctype_of_die(struct ctypes *ts, Dwarf_Die *die)
{
    struct ctype *t;
    Dwarf_Word size = 0;
    const char *name;
    int tag = dwarf_tag(die);

    switch (tag) {
    case DW_TAG_base_type:
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
    case DW_TAG_array_type:
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type:
    case DW_TAG_enumeration_type:
    case DW_TAG_subroutine_type:
    case DW_TAG_typedef:
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type:
    case DW_TAG_unspecified_type:
        break;
    default:
        return ctype_of_attr(ts, die);
    }
    if ((t = lookup(ts, die->addr)) != NULL)
        return t;
    t = new_type(ts, CT_VOID);
    t->die = *die;
    t->has_die = 1;
    /* in the table before its parts are made: a struct may point to
     * itself */
    insert(ts, t);
    name = die_name(die);
    switch (tag) {
    case DW_TAG_base_type:
        make_base(ts, die, t);
        break;
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
        t->kind = CT_PTR;
        t->size = die_udata(die, DW_AT_byte_size, &size) == 0 ? size : 8;
        t->target = ctype_of_attr(ts, die);
        break;
    case DW_TAG_array_type:
        make_array(ts, die, t);
        break;
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type:
        t->kind = tag == DW_TAG_union_type ? CT_UNION : CT_STRUCT;
        t->name = name != NULL ? xstrdup(name) : NULL;
        if (!dwarf_hasattr(die, DW_AT_declaration)) {
            t->complete = 1;
            die_udata(die, DW_AT_byte_size, &size);
            t->size = size;
        }
        break;
    case DW_TAG_enumeration_type:
        make_enum(ts, die, t);
        break;
    case DW_TAG_subroutine_type:
        make_func(ts, die, t);
        break;
    case DW_TAG_typedef:
        t->kind = CT_TYPEDEF;
        t->name = xstrdup(name != NULL ? name : "?");
        t->target = ctype_of_attr(ts, die);
        t->size = ctype_size(t->target);
        break;
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type:
        t->kind = CT_QUAL;
        t->qual = tag == DW_TAG_const_type      ? CQ_CONST
                  : tag == DW_TAG_volatile_type ? CQ_VOLATILE
                  : tag == DW_TAG_restrict_type ? CQ_RESTRICT
                                                : CQ_ATOMIC;
        t->target = ctype_of_attr(ts, die);
        t->size = ctype_size(t->target);
        break;
    default:
        t->kind = CT_VOID;
        t->name = xstrdup(name != NULL ? name : "void");
        break;
    }
    return t;
}

struct ctype *ctype_function(struct ctypes *ts, Dwarf_Die *die)
{
    struct ctype *t = lookup(ts, die->addr);

    if (t != NULL)
        return t;
    t = new_type(ts, CT_FUNC);
    t->die = *die;
    t->has_die = 1;
    insert(ts, t);
    return make_func(ts, die, t);
}

struct ctype *ctype_of_attr(struct ctypes *ts, Dwarf_Die *die)
{
    Dwarf_Attribute a;
    Dwarf_Die td;

    if (dwarf_attr_integrate(die, DW_AT_type, &a) == NULL ||
        dwarf_formref_die(&a, &td) == NULL)
        return ctype_builtin(ts, CB_VOID);
    return ctype_of_die(ts, &td);
}

struct ctype *ctype_builtin(struct ctypes *ts, enum ctype_builtin b)
{
    static const struct {
        const char *name;
        enum ctype_kind kind;
        uint64_t size;
        int is_signed;
    } def[CB_COUNT] = {
        [CB_VOID] = {"void", CT_VOID, 0, 0},
        [CB_INT] = {"int", CT_INT, 4, 1},
        [CB_UINT] = {"unsigned int", CT_INT, 4, 0},
        [CB_LONG] = {"long", CT_INT, 8, 1},
        [CB_ULONG] = {"unsigned long", CT_INT, 8, 0},
        [CB_LLONG] = {"long long", CT_INT, 8, 1},
        [CB_ULLONG] = {"unsigned long long", CT_INT, 8, 0},
        [CB_CHAR] = {"char", CT_CHAR, 1, 1},
        [CB_SCHAR] = {"signed char", CT_CHAR, 1, 1},
        [CB_UCHAR] = {"unsigned char", CT_CHAR, 1, 0},
        [CB_SHORT] = {"short", CT_INT, 2, 1},
        [CB_USHORT] = {"unsigned short", CT_INT, 2, 0},
        [CB_BOOL] = {"_Bool", CT_BOOL, 1, 0},
        [CB_FLOAT] = {"float", CT_FLOAT, 4, 1},
        [CB_DOUBLE] = {"double", CT_FLOAT, 8, 1},
        [CB_LDOUBLE] = {"long double", CT_FLOAT, 16, 1},
    };
    struct ctype *t = ts->builtin[b];

    if (t == NULL) {
        t = new_type(ts, def[b].kind);
        t->name = xstrdup(def[b].name);
        t->size = def[b].size;
        t->is_signed = def[b].is_signed;
        ts->builtin[b] = t;
    }
    return t;
}

struct ctype *ctype_builtin_named(struct ctypes *ts, const char *name)
{
    static const struct {
        const char *name;
        enum ctype_builtin b;
    } names[] = {
        {"void", CB_VOID},
        {"int", CB_INT},
        {"signed int", CB_INT},
        {"signed", CB_INT},
        {"unsigned int", CB_UINT},
        {"unsigned", CB_UINT},
        {"long", CB_LONG},
        {"long int", CB_LONG},
        {"signed long", CB_LONG},
        {"unsigned long", CB_ULONG},
        {"long unsigned int", CB_ULONG},
        {"unsigned long int", CB_ULONG},
        {"long long", CB_LLONG},
        {"long long int", CB_LLONG},
        {"unsigned long long", CB_ULLONG},
        {"long long unsigned int", CB_ULLONG},
        {"char", CB_CHAR},
        {"signed char", CB_SCHAR},
        {"unsigned char", CB_UCHAR},
        {"short", CB_SHORT},
        {"short int", CB_SHORT},
        {"unsigned short", CB_USHORT},
        {"short unsigned int", CB_USHORT},
        {"_Bool", CB_BOOL},
        {"float", CB_FLOAT},
        {"double", CB_DOUBLE},
        {"long double", CB_LDOUBLE},
    };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0)
            return ctype_builtin(ts, names[i].b);
    return NULL;
}

struct ctype *ctype_pointer(struct ctypes *ts, struct ctype *target)
{
    struct ctype *t;

    if (target->ptr_to != NULL)
        return target->ptr_to;
    t = new_type(ts, CT_PTR);
    t->size = 8;
    t->target = target;
    target->ptr_to = t;
    return t;
}

struct ctype *ctype_array(struct ctypes *ts, struct ctype *elem,
                          uint64_t count)
{
    struct ctype *t = new_type(ts, CT_ARRAY);

    t->target = elem;
    t->count = count;
    t->count_known = 1;
    t->size = count * ctype_size(elem);
    return t;
}

struct ctype *ctype_func_returning(struct ctypes *ts, struct ctype *result)
{
    struct ctype *t = new_type(ts, CT_FUNC);

    t->target = result;
    return t;
}

struct ctype *ctype_qualified(struct ctypes *ts, struct ctype *t,
                              unsigned int qual)
{
    struct ctype *q;

    if (qual == 0)
        return t;
    q = new_type(ts, CT_QUAL);
    q->qual = qual;
    q->target = t;
    q->size = ctype_size(t);
    return q;
}

struct ctype *ctype_strip(struct ctype *t)
{
    while (t != NULL && (t->kind == CT_TYPEDEF || t->kind == CT_QUAL))
        t = t->target;
    return t;
}

struct ctype *ctype_unqual(struct ctype *t)
{
    while (t != NULL && t->kind == CT_QUAL)
        t = t->target;
    return t;
}

uint64_t ctype_size(struct ctype *t)
{
    t = ctype_strip(t);
    if (t == NULL)
        return 0;
    if ((t->kind == CT_STRUCT || t->kind == CT_UNION || t->kind == CT_ENUM) &&
        !t->complete)
        ctype_complete(t);
    return t->size;
}

int ctype_is_integral(struct ctype *t)
{
    t = ctype_strip(t);
    return t != NULL && (t->kind == CT_INT || t->kind == CT_CHAR ||
                         t->kind == CT_BOOL || t->kind == CT_ENUM);
}

int ctype_is_arith(struct ctype *t)
{
    return ctype_is_integral(t) || ctype_strip(t)->kind == CT_FLOAT;
}

int ctype_is_scalar(struct ctype *t)
{
    return ctype_is_arith(t) || ctype_strip(t)->kind == CT_PTR;
}

int ctype_is_char(struct ctype *t)
{
    t = ctype_strip(t);
    return t != NULL && t->kind == CT_CHAR;
}

/* Read the members of DIE (a struct or union definition) into T. */
static void read_members(struct ctype *t, Dwarf_Die *die)
{
    struct ctypes *ts = t->owner;
    Dwarf_Die child;
    size_t cap = 0;

    if (dwarf_child(die, &child) != 0)
        return;
    do {
        Dwarf_Attribute a;
        Dwarf_Word loc = 0, bits = 0, bitoff, bytesize;
        struct cmember *m;
        const char *name;
        uint64_t total;

        if (dwarf_tag(&child) != DW_TAG_member)
            continue;
        if (dwarf_attr(&child, DW_AT_data_member_location, &a) != NULL) {
            if (dwarf_formudata(&a, &loc) != 0) {
                /* an expression: DW_OP_plus_uconst N, as old compilers
                 * write it */
                Dwarf_Op *ops;
                size_t nops;

                if (dwarf_getlocation(&a, &ops, &nops) == 0 && nops == 1 &&
                    ops[0].atom == DW_OP_plus_uconst)
                    loc = ops[0].number;
            }
        }
        t->members = xgrow(t->members, t->nmembers, &cap, sizeof *t->members);
        m = &t->members[t->nmembers++];
        memset(m, 0, sizeof *m);
        name = die_name(&child);
        m->name = name != NULL ? xstrdup(name) : NULL;
        m->type = ctype_of_attr(ts, &child);
        total = loc * 8;
        die_udata(&child, DW_AT_bit_size, &bits);
        if (bits != 0) {
            m->bitsize = (unsigned int)bits;
            if (die_udata(&child, DW_AT_data_bit_offset, &bitoff) == 0) {
                total = bitoff;
            } else if (die_udata(&child, DW_AT_bit_offset, &bitoff) == 0) {
                /* DWARF 2 and 3: counted from the most significant bit of
                 * a storage unit of DW_AT_byte_size bytes (little
                 * endian) */
                if (die_udata(&child, DW_AT_byte_size, &bytesize) != 0)
                    bytesize = ctype_size(m->type);
                total = loc * 8 + bytesize * 8 - bitoff - bits;
            }
        }
        m->offset = total / 8;
        m->bitpos = (unsigned int)(total % 8);
    } while (dwarf_siblingof(&child, &child) == 0);
}

int ctype_complete(struct ctype *t)
{
    Dwarf_Die def;
    Dwarf_Word size = 0;

    t = ctype_strip(t);
    if (t->kind == CT_ENUM)
        return t->complete ? 0 : -1;
    if (t->kind != CT_STRUCT && t->kind != CT_UNION)
        return 0;
    if (t->loaded)
        return t->complete ? 0 : -1;
    t->loaded = 1;
    if (!t->complete) {
        struct ctypes *ts = t->owner;

        if (t->name == NULL || ts->resolve == NULL ||
            ts->resolve(ts->arg,
                        t->kind == CT_UNION ? DW_TAG_union_type
                                            : DW_TAG_structure_type,
                        t->name, &def) != 0)
            return -1;
        t->complete = 1;
        die_udata(&def, DW_AT_byte_size, &size);
        t->size = size;
        read_members(t, &def);
        return 0;
    }
    if (t->has_die)
        read_members(t, &t->die);
    return 0;
}

int ctype_member(struct ctype *t, const char *name, uint64_t *offset,
                 const struct cmember **m)
{
    unsigned int i;

    t = ctype_strip(t);
    if ((t->kind != CT_STRUCT && t->kind != CT_UNION) ||
        ctype_complete(t) != 0)
        return -1;
    for (i = 0; i < t->nmembers; i++) {
        const struct cmember *c = &t->members[i];

        if (c->name != NULL && strcmp(c->name, name) == 0) {
            *offset = c->offset;
            *m = c;
            return 0;
        }
    }
    /* the members of anonymous members are the aggregate's own */
    for (i = 0; i < t->nmembers; i++) {
        const struct cmember *c = &t->members[i];
        uint64_t inner;

        if (c->name == NULL && ctype_member(c->type, name, &inner, m) == 0) {
            *offset = c->offset + inner;
            return 0;
        }
    }
    return -1;
}

const char *ctype_enum_name(struct ctype *t, int64_t value)
{
    t = ctype_strip(t);
    for (unsigned int i = 0; i < t->nenums; i++)
        if (t->enums[i].value == value)
            return t->enums[i].name;
    return NULL;
}

/* Names.  A declarator is built from the inside out, as C reads it:
 * "*" for a pointer, "[N]" after for an array, "(...)" after for a
 * function, in parentheses where an array or function is pointed to. */

static const char *qual_words(unsigned int q)
{
    static const char *const w[] = {
        "",
        "const",
        "volatile",
        "const volatile",
    };

    return w[q & 3];
}

/* How declare() spells the innermost type: by name; spelt out when it
 * is an anonymous aggregate (the members of a ptype); spelt out through
 * typedefs, named or not (the type ptype is asked for). */
enum spell {
    SPELL_NAME,
    SPELL_ANON,
    SPELL_ALL
};

static void ptype_body(struct dstr *b, struct ctype *t, int indent);

/* The specifier of T (what comes before the declarator). */
static void specifier(struct dstr *b, struct ctype *t, enum spell spell,
                      int indent)
{
    struct ctype *u = t;

    if (spell == SPELL_ALL)
        while (u->kind == CT_TYPEDEF)
            u = u->target;
    switch (u->kind) {
    case CT_STRUCT:
    case CT_UNION:
    case CT_ENUM:
        dstr_puts(b, u->kind == CT_STRUCT ? "struct "
                     : u->kind == CT_UNION ? "union "
                                           : "enum ");
        if (spell == SPELL_ALL || (spell == SPELL_ANON && u->name == NULL)) {
            if (u->name != NULL) {
                dstr_puts(b, u->name);
                dstr_putc(b, ' ');
            }
            ptype_body(b, u, indent);
        } else {
            dstr_puts(b, u->name != NULL ? u->name : "{...}");
        }
        break;
    default:
        dstr_puts(b, u->name != NULL ? u->name : "void");
        break;
    }
}

/* The name of T around the declarator INNER. */
static void declare(struct dstr *b, struct ctype *t, const char *inner,
                    enum spell spell, int indent)
{
    struct dstr d = {0};
    char num[32];

    switch (t->kind) {
    case CT_PTR:
        if (t->target != NULL) {
            struct ctype *u = ctype_unqual(t->target);
            int wrap = u->kind == CT_ARRAY || u->kind == CT_FUNC;

            if (wrap)
                dstr_puts(&d, "(");
            dstr_puts(&d, "*");
            dstr_puts(&d, inner);
            if (wrap)
                dstr_puts(&d, ")");
            declare(b, t->target, d.s, spell, indent);
        }
        break;
    case CT_QUAL: {
        struct ctype *u = t->target;

        if (u->kind == CT_PTR) {
            /* char *const p: the qualifier goes with the pointer */
            dstr_puts(&d, " ");
            dstr_puts(&d, qual_words(t->qual));
            if (*inner != '\0' && *inner != ')' && *inner != '[')
                dstr_puts(&d, " ");
            dstr_puts(&d, inner);
            declare(b, u, d.s, spell, indent);
        } else if (u->kind == CT_ARRAY || u->kind == CT_FUNC) {
            declare(b, u, inner, spell, indent);
        } else {
            dstr_puts(b, qual_words(t->qual));
            dstr_puts(b, " ");
            declare(b, u, inner, spell, indent);
        }
        break;
    }
    case CT_ARRAY:
        dstr_puts(&d, inner);
        if (t->count_known) {
            snprintf(num, sizeof num, "[%llu]", (unsigned long long)t->count);
            dstr_puts(&d, num);
        } else {
            dstr_puts(&d, "[]");
        }
        declare(b, t->target, d.s, spell, indent);
        break;
    case CT_FUNC:
        dstr_puts(&d, inner);
        dstr_puts(&d, "(");
        for (unsigned int i = 0; i < t->nparams; i++) {
            char *p = ctype_name(t->params[i]);

            if (i > 0)
                dstr_puts(&d, ", ");
            dstr_puts(&d, p);
            free(p);
        }
        if (t->varargs)
            dstr_puts(&d, t->nparams > 0 ? ", ..." : "...");
        else if (t->nparams == 0 && t->prototyped)
            dstr_puts(&d, "void");
        dstr_puts(&d, ")");
        declare(b, t->target, d.s, spell, indent);
        break;
    default:
        specifier(b, t, spell, indent);
        if (*inner != '\0') {
            dstr_puts(b, " ");
            dstr_puts(b, inner);
        }
        break;
    }
    free(d.s);
}

char *ctype_name(struct ctype *t)
{
    struct dstr b = {0};

    declare(&b, t, "", SPELL_NAME, 0);
    if (b.s == NULL)
        return xstrdup("void");
    return b.s;
}

char *ctype_decl(struct ctype *t, const char *name)
{
    struct dstr b = {0};

    declare(&b, t, name, SPELL_NAME, 0);
    return b.s != NULL ? b.s : xstrdup(name);
}

/* The members of aggregate T (or the enumerators of enum T) in braces,
 * members at INDENT + 4. */
static void ptype_body(struct dstr *b, struct ctype *t, int indent)
{
    char pad[64];
    unsigned int i;

    if (t->kind == CT_ENUM) {
        dstr_puts(b, "{");
        for (i = 0; i < t->nenums; i++) {
            char num[40];
            int64_t expect = i == 0 ? 0 : t->enums[i - 1].value + 1;

            if (i > 0)
                dstr_puts(b, ", ");
            dstr_puts(b, t->enums[i].name);
            if (t->enums[i].value != expect) {
                snprintf(num, sizeof num, " = %lld",
                         (long long)t->enums[i].value);
                dstr_puts(b, num);
            }
        }
        dstr_puts(b, "}");
        return;
    }
    snprintf(pad, sizeof pad, "%*s", indent + 4 < 60 ? indent + 4 : 60, "");
    if (ctype_complete(t) != 0) {
        dstr_puts(b, "{\n");
        dstr_puts(b, pad);
        dstr_puts(b, "<incomplete type>\n");
    } else {
        dstr_puts(b, "{\n");
        for (i = 0; i < t->nmembers; i++) {
            const struct cmember *m = &t->members[i];
            char bits[32];

            dstr_puts(b, pad);
            declare(b, m->type, m->name != NULL ? m->name : "", SPELL_ANON,
                    indent + 4);
            if (m->bitsize != 0) {
                snprintf(bits, sizeof bits, " : %u", m->bitsize);
                dstr_puts(b, bits);
            }
            dstr_puts(b, ";\n");
        }
    }
    snprintf(pad, sizeof pad, "%*s", indent < 60 ? indent : 60, "");
    dstr_puts(b, pad);
    dstr_puts(b, "}");
}

char *ctype_ptype(struct ctype *t)
{
    struct dstr b = {0};

    declare(&b, t, "", SPELL_ALL, 0);
    return b.s != NULL ? b.s : xstrdup("void");
}
