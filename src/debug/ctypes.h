/* SPDX-License-Identifier: MIT */
/*
 * ctypes.h - C types of the program, made from its DWARF type entries
 * (libdw) on demand and kept for the session, and the few types an
 * expression makes itself (int for a literal, a pointer for &x).  A type
 * is made once per entry: two values of one entry share their struct
 * ctype.  Names are spelt as gdb spells them ("unsigned long",
 * "struct node *", "int (*)(int)").  Nothing here reads the program's
 * memory.
 */
#ifndef NOOSA_CTYPES_H
#define NOOSA_CTYPES_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

enum ctype_kind {
    CT_VOID,
    CT_INT,     /* integers of every size; char types are CT_CHAR */
    CT_CHAR,
    CT_BOOL,
    CT_FLOAT,
    CT_PTR,
    CT_ARRAY,
    CT_STRUCT,
    CT_UNION,
    CT_ENUM,
    CT_FUNC,
    CT_TYPEDEF,
    CT_QUAL     /* const, volatile, restrict, _Atomic over TARGET */
};

#define CQ_CONST 0x1
#define CQ_VOLATILE 0x2
#define CQ_RESTRICT 0x4
#define CQ_ATOMIC 0x8

struct ctype;

struct cmember {
    char *name;         /* NULL for an anonymous struct or union member */
    struct ctype *type;
    uint64_t offset;    /* bytes from the start of the aggregate */
    unsigned int bitpos;  /* a bitfield: its first bit after OFFSET,
                             counted from the least significant */
    unsigned int bitsize; /* 0 unless a bitfield */
};

struct cenumerator {
    char *name;
    int64_t value;
};

struct ctype {
    enum ctype_kind kind;
    char *name;          /* base, tag, typedef name; NULL when anonymous */
    uint64_t size;       /* bytes (0 for void, functions, incomplete) */
    unsigned int is_signed : 1;  /* INT, CHAR, ENUM */
    unsigned int complete : 1;   /* STRUCT, UNION, ENUM: members known */
    unsigned int loaded : 1;     /* members read (or found missing) */
    unsigned int count_known : 1; /* ARRAY: COUNT holds */
    unsigned int prototyped : 1; /* FUNC */
    unsigned int varargs : 1;    /* FUNC */
    unsigned int flag_enum : 1;  /* ENUM: every value a disjoint bit set */
    unsigned int qual;           /* QUAL: CQ_* */
    struct ctype *target;  /* PTR, ARRAY element, TYPEDEF, QUAL, FUNC
                              result, ENUM underlying integer */
    uint64_t count;        /* ARRAY elements */
    struct cmember *members; /* STRUCT, UNION, read on demand */
    unsigned int nmembers;
    struct cenumerator *enums;
    unsigned int nenums;
    struct ctype **params; /* FUNC */
    unsigned int nparams;
    struct ctype *ptr_to;  /* the pointer to this type, once made */
    struct ctype *next;    /* every type of the table, for freeing */
    Dwarf_Die die;         /* where it came from (valid when has_die) */
    int has_die;
    struct ctypes *owner;
};

/* Find the complete definition of the struct, union or enum TAG (a
 * DW_TAG_*) named NAME when the entry at hand is a declaration: 0 with
 * *DIE, -1 when there is none. */
typedef int (*ctype_resolve_fn)(void *arg, int tag, const char *name,
                                Dwarf_Die *die);

struct ctypes *ctypes_create(ctype_resolve_fn resolve, void *arg);
void ctypes_free(struct ctypes *ts);

/* The type of the type entry DIE (a DW_TAG_*_type, typedef, structure,
 * ...), or of the entry DIE's DW_AT_type when DIE is not a type (void
 * when it has none).  Never NULL. */
struct ctype *ctype_of_die(struct ctypes *ts, Dwarf_Die *die);
/* The type of DIE's DW_AT_type (void when absent). */
struct ctype *ctype_of_attr(struct ctypes *ts, Dwarf_Die *die);
/* The function type of DW_TAG_subprogram DIE ("int (int, char **)"). */
struct ctype *ctype_function(struct ctypes *ts, Dwarf_Die *die);

/* Types an expression makes. */
enum ctype_builtin {
    CB_VOID,
    CB_INT,
    CB_UINT,
    CB_LONG,
    CB_ULONG,
    CB_LLONG,
    CB_ULLONG,
    CB_CHAR,
    CB_SCHAR,
    CB_UCHAR,
    CB_SHORT,
    CB_USHORT,
    CB_BOOL,
    CB_FLOAT,
    CB_DOUBLE,
    CB_LDOUBLE,
    CB_COUNT
};
struct ctype *ctype_builtin(struct ctypes *ts, enum ctype_builtin b);
/* The builtin spelt as NAME ("unsigned int", "long", "char", ...):
 * NULL when NAME is none. */
struct ctype *ctype_builtin_named(struct ctypes *ts, const char *name);
struct ctype *ctype_pointer(struct ctypes *ts, struct ctype *target);
struct ctype *ctype_array(struct ctypes *ts, struct ctype *elem,
                          uint64_t count);
/* A function returning RESULT whose parameters are not known ("()"). */
struct ctype *ctype_func_returning(struct ctypes *ts, struct ctype *result);
struct ctype *ctype_qualified(struct ctypes *ts, struct ctype *t,
                              unsigned int qual);

/* T without typedefs and qualifiers. */
struct ctype *ctype_strip(struct ctype *t);
/* T without qualifiers (typedefs kept). */
struct ctype *ctype_unqual(struct ctype *t);
/* The size of T in bytes (through typedefs and qualifiers). */
uint64_t ctype_size(struct ctype *t);
/* Read the members of a struct or union (or the definition of a
 * declaration); 0, or -1 when it stays incomplete. */
int ctype_complete(struct ctype *t);
int ctype_is_integral(struct ctype *t); /* int, char, bool, enum */
int ctype_is_arith(struct ctype *t);    /* integral or float */
int ctype_is_scalar(struct ctype *t);   /* arith or pointer */
/* A char type (char, signed char, unsigned char, through typedefs)? */
int ctype_is_char(struct ctype *t);

/* T's name as gdb writes it ("struct node *", "int [4]"); the caller
 * frees it. */
char *ctype_name(struct ctype *t);
/* T declared with name NAME ("int (*fn)(int)", "char name[16]"). */
char *ctype_decl(struct ctype *t, const char *name);
/* ptype's text of T: aggregates spelt out with their members. */
char *ctype_ptype(struct ctype *t);

/* The member NAME of struct or union T, searched through anonymous
 * members: 0 with its offset and bit position from the start of T and
 * the member itself, -1 when there is none. */
int ctype_member(struct ctype *t, const char *name, uint64_t *offset,
                 const struct cmember **m);

/* The name of enumerator VALUE of enum T, or NULL. */
const char *ctype_enum_name(struct ctype *t, int64_t value);

#endif /* NOOSA_CTYPES_H */
