/* SPDX-License-Identifier: MIT */
/*
 * dscope.c - a frame's variables and the program's globals by name.
 */
#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes.h"
#include "cvalue.h"
#include "dinfo.h"
#include "dloc.h"
#include "dscope.h"
#include "frames.h"
#include "xmalloc.h"

static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;

    if (dwarf_attr_integrate(die, DW_AT_name, &a) == NULL)
        return NULL;
    return dwarf_formstring(&a);
}

/* The abstract origin of DIE, if it has one. */
static int origin_of(Dwarf_Die *die, Dwarf_Die *origin)
{
    Dwarf_Attribute a;

    return dwarf_attr(die, DW_AT_abstract_origin, &a) != NULL &&
                   dwarf_formref_die(&a, origin) != NULL
               ? 0
               : -1;
}

static int wanted(Dwarf_Die *die, int what)
{
    int tag = dwarf_tag(die);

    if (tag == DW_TAG_formal_parameter)
        return (what & DSCOPE_ARGS) != 0;
    if (tag == DW_TAG_variable)
        return (what & DSCOPE_LOCALS) != 0;
    return 0;
}

/* The abstract origins that a scope's concrete variables stand for. */
struct seen {
    void *addr[256];
    size_t n;
};

/* Call FN for each variable of PARENT that WHAT selects: when ORIGINS,
 * noting the abstract origin each stands for; else skipping those
 * already noted.  Returns 1 when FN asked to stop. */
static int each_var(Dwarf_Die *parent, int what, int depth,
                    int (*fn)(void *, const char *, Dwarf_Die *, int),
                    void *arg, int *count, struct seen *seen, int origins)
{
    Dwarf_Die child;

    if (dwarf_child(parent, &child) != 0)
        return 0;
    do {
        Dwarf_Die o;
        const char *name;
        size_t k;

        if (!wanted(&child, what))
            continue;
        if (origins) {
            if (origin_of(&child, &o) == 0 &&
                seen->n < sizeof seen->addr / sizeof seen->addr[0])
                seen->addr[seen->n++] = o.addr;
        } else {
            for (k = 0; k < seen->n && seen->addr[k] != child.addr; k++)
                ;
            if (k < seen->n)
                continue;
        }
        name = die_name(&child);
        if (name == NULL)
            continue;
        (*count)++;
        if (fn(arg, name, &child, depth) != 0)
            return 1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* The variables of SCOPE that WHAT selects, then those of its abstract
 * origin that no concrete one stands for (gone from the copy: optimized
 * out). */
static int scope_vars(Dwarf_Die *scope, int what, int depth,
                      int (*fn)(void *, const char *, Dwarf_Die *, int),
                      void *arg, int *count)
{
    struct seen seen = {.n = 0};
    Dwarf_Die origin;

    if (each_var(scope, what, depth, fn, arg, count, &seen, 1))
        return 1;
    if (origin_of(scope, &origin) != 0)
        return 0;
    return each_var(&origin, what, depth, fn, arg, count, &seen, 0);
}

int dscope_each(const struct frames *fr, unsigned int f, int what,
                int (*fn)(void *arg, const char *name, Dwarf_Die *die,
                          int depth),
                void *arg)
{
    const struct frame *fp;
    int i, count = 0;

    if (fr == NULL || f >= fr->n)
        return 0;
    fp = &fr->f[f];
    for (i = 0; i < fp->nscopes; i++) {
        int tag = dwarf_tag(&fp->scopes[i]);
        int w = what;

        /* parameters belong to the function, not to its blocks */
        if (tag == DW_TAG_lexical_block)
            w &= ~DSCOPE_ARGS;
        if (w != 0 && scope_vars(&fp->scopes[i], w, i, fn, arg, &count))
            break;
    }
    return count;
}

struct cvalue *dscope_value(struct dinfo *d, const struct frames *fr,
                            unsigned int f, Dwarf_Die *die, Dwarf_Addr bias)
{
    struct ctype *type = ctype_of_attr(dinfo_types(d), die);
    const unsigned char *block;
    size_t block_len;
    struct dloc loc;
    char *cause = NULL;
    struct cvalue *v;

    if (dloc_variable(d, fr, f, die, bias, &loc, &block, &block_len,
                      &cause) != 0) {
        v = cvalue_optout(d, type);
        v->optout = 0;
        v->error = cause;
        return v;
    }
    if (block != NULL)
        return cvalue_bytes(d, type, block, block_len);
    return cvalue_at_loc(d, type, &loc, fr, f);
}

struct find {
    const char *name;
    Dwarf_Die die;
    int found;
};

static int find_one(void *arg, const char *name, Dwarf_Die *die, int depth)
{
    struct find *fd = arg;

    (void)depth;
    if (strcmp(name, fd->name) != 0)
        return 0;
    fd->die = *die;
    fd->found = 1;
    return 1;
}

int dscope_lookup(struct dinfo *d, const struct frames *fr, unsigned int f,
                  const char *name, struct cvalue **out, char **cause)
{
    struct find fd = {.name = name};
    struct dsym s;
    Dwarf_Die *prefer = NULL;
    uint64_t addr;
    int is_func;

    if (fr != NULL && f < fr->n) {
        dscope_each(fr, f, DSCOPE_ARGS | DSCOPE_LOCALS, find_one, &fd);
        if (fd.found) {
            *out = dscope_value(d, fr, f, &fd.die, fr->f[f].bias);
            return 0;
        }
        if (fr->f[f].has_cu)
            prefer = &((struct frame *)&fr->f[f])->cu;
    }
    if (dinfo_global(d, name, prefer, &s) == 0) {
        if (dwarf_tag(&s.die) == DW_TAG_subprogram) {
            Dwarf_Addr entry = 0;

            dwarf_entrypc(&s.die, &entry);
            *out = cvalue_at(d, ctype_function(dinfo_types(d), &s.die),
                             entry + s.bias);
            return 0;
        }
        *out = dscope_value(d, NULL, 0, &s.die, s.bias);
        return 0;
    }
    if (dinfo_symbol_named(d, name, &addr, &is_func) == 0) {
        if (is_func)
            xcause(cause, "'%s' has unknown return type; cast the call to "
                          "its declared return type (the program has no "
                          "debug information for it)",
                   name);
        else
            xcause(cause, "'%s' has unknown type; cast it to its declared "
                          "type, as in {int} &%s (the program has no debug "
                          "information for it)",
                   name, name);
        return -1;
    }
    if (!dinfo_exe_has_dwarf(d))
        xcause(cause, "No symbol \"%s\" in current context (the program "
                      "has no debug information: build it with -g).",
               name);
    else
        xcause(cause, "No symbol \"%s\" in current context.", name);
    return -1;
}

struct find_type {
    const char *name;
    int tag;
    Dwarf_Die die;
    int found;
};

int dscope_type(struct dinfo *d, const struct frames *fr, unsigned int f,
                int tag, const char *name, Dwarf_Die *die)
{
    struct dsym s;
    Dwarf_Die *prefer = NULL;

    /* types local to the frame's blocks */
    if (fr != NULL && f < fr->n) {
        const struct frame *fp = &fr->f[f];

        for (int i = 0; i < fp->nscopes; i++) {
            Dwarf_Die child;

            if (dwarf_child(&fp->scopes[i], &child) != 0)
                continue;
            do {
                const char *n;

                if (dwarf_tag(&child) != tag ||
                    dwarf_hasattr(&child, DW_AT_declaration))
                    continue;
                n = die_name(&child);
                if (n != NULL && strcmp(n, name) == 0) {
                    *die = child;
                    return 0;
                }
            } while (dwarf_siblingof(&child, &child) == 0);
        }
        if (fp->has_cu)
            prefer = &((struct frame *)fp)->cu;
    }
    if (dinfo_type_named(d, tag, name, prefer, &s) != 0)
        return -1;
    *die = s.die;
    return 0;
}
