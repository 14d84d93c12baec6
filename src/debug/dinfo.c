/* SPDX-License-Identifier: MIT */
/*
 * dinfo.c - a running program's debug information through libdwfl, and
 * the index of its names.  The index holds, for every compilation unit
 * of every module with DWARF, the entries directly under the unit that
 * have a name: variables and functions that are defined there, struct,
 * union and enum definitions, typedefs and base types.  Reading the
 * units' top level is all it costs (no line tables, no function bodies,
 * no types spelt out), and it is built once, when a name is first looked
 * up (<design#debug-lazy>).
 */
#include "config.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctypes.h"
#include "dinfo.h"
#include "xmalloc.h"

enum ientry_kind {
    IE_VAR,
    IE_FUNC,
    IE_TYPE /* struct, union, enum, typedef, base: told apart by tag */
};

struct ientry {
    const char *name;  /* in the module's string section */
    Dwarf_Die die;
    Dwfl_Module *mod;
    Dwarf_Addr bias;
    unsigned int rank;     /* the module's: 0 for the executable */
    unsigned char kind;    /* enum ientry_kind */
    unsigned char external;
    int tag;
    size_t seq;            /* order of indexing: of equals, the first wins */
    struct ientry *next;   /* same bucket */
};

/* A module's symbols by address (for pointers' <symbol+offset>). */
struct msym {
    uint64_t addr, size;
    const char *name;
    int global;
    int func;
};

struct msyms {
    Dwfl_Module *mod;
    struct msym *s;
    size_t n;
};

struct dinfo {
    pid_t pid;
    Dwfl *dwfl;
    dinfo_read_fn read;
    void *arg;
    struct ctypes *types;
    char exe[4096];

    int indexed;
    struct ientry **buckets;
    size_t nbuckets;
    struct ientry *pool; /* entries, in blocks */
    size_t pool_used, pool_cap;
    struct ientry **blocks;
    size_t nblocks;
    size_t names, units;
    uint64_t index_ns;

    struct msyms *msyms; /* by module, read when first needed */
    size_t nmsyms;
};

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static int resolve(void *arg, int tag, const char *name, Dwarf_Die *die)
{
    struct dsym s;

    if (dinfo_type_named(arg, tag, name, NULL, &s) != 0)
        return -1;
    *die = s.die;
    return 0;
}

static void msyms_clear(struct dinfo *d)
{
    for (size_t i = 0; i < d->nmsyms; i++)
        free(d->msyms[i].s);
    free(d->msyms);
    d->msyms = NULL;
    d->nmsyms = 0;
}

static void index_clear(struct dinfo *d)
{
    msyms_clear(d);
    for (size_t i = 0; i < d->nblocks; i++)
        free(d->blocks[i]);
    free(d->blocks);
    free(d->buckets);
    d->blocks = NULL;
    d->nblocks = 0;
    d->buckets = NULL;
    d->nbuckets = 0;
    d->pool = NULL;
    d->pool_used = d->pool_cap = 0;
    d->indexed = 0;
    d->names = d->units = 0;
}

int dinfo_refresh(struct dinfo *d, char **cause)
{
    int rc;

    index_clear(d);
    dwfl_report_begin(d->dwfl);
    rc = dwfl_linux_proc_report(d->dwfl, d->pid);
    dwfl_report_end(d->dwfl, NULL, NULL);
    if (rc != 0) {
        xcause(cause, "cannot read the mappings of process %d: %s",
               (int)d->pid, rc > 0 ? strerror(rc) : dwfl_errmsg(-1));
        return -1;
    }
    return 0;
}

struct dinfo *dinfo_open(pid_t pid, dinfo_read_fn read, void *arg,
                         char **cause)
{
    struct dinfo *d = xcalloc(1, sizeof *d);
    char link[64];
    ssize_t n;

    d->pid = pid;
    d->read = read;
    d->arg = arg;
    snprintf(link, sizeof link, "/proc/%d/exe", (int)pid);
    n = readlink(link, d->exe, sizeof d->exe - 1);
    d->exe[n > 0 ? n : 0] = '\0';
    d->dwfl = dwfl_begin(&callbacks);
    if (d->dwfl == NULL) {
        xcause(cause, "libdwfl: %s", dwfl_errmsg(-1));
        free(d);
        return NULL;
    }
    if (dinfo_refresh(d, cause) != 0) {
        dinfo_free(d);
        return NULL;
    }
    d->types = ctypes_create(resolve, d);
    return d;
}

void dinfo_free(struct dinfo *d)
{
    if (d == NULL)
        return;
    index_clear(d);
    ctypes_free(d->types);
    if (d->dwfl != NULL)
        dwfl_end(d->dwfl);
    free(d);
}

pid_t dinfo_pid(const struct dinfo *d)
{
    return d->pid;
}

struct ctypes *dinfo_types(struct dinfo *d)
{
    return d->types;
}

Dwfl *dinfo_dwfl(struct dinfo *d)
{
    return d->dwfl;
}

int dinfo_read(struct dinfo *d, uint64_t addr, void *buf, size_t len)
{
    return d != NULL && d->read(d->arg, addr, buf, len) == len ? 0 : -1;
}

size_t dinfo_read_some(struct dinfo *d, uint64_t addr, void *buf,
                       size_t len)
{
    return d != NULL ? d->read(d->arg, addr, buf, len) : 0;
}

int dinfo_cu(struct dinfo *d, uint64_t addr, Dwarf_Die *cu, Dwarf_Addr *bias,
             Dwfl_Module **mod)
{
    Dwarf_Die *die;
    Dwfl_Module *m = dwfl_addrmodule(d->dwfl, addr);

    if (m == NULL)
        return -1;
    die = dwfl_module_addrdie(m, addr, bias);
    if (die == NULL)
        return -1;
    *cu = *die;
    if (mod != NULL)
        *mod = m;
    return 0;
}

/* The index. */

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static size_t hash_name(const char *s)
{
    size_t h = 5381;

    while (*s != '\0')
        h = h * 33 ^ (unsigned char)*s++;
    return h;
}

static struct ientry *new_entry(struct dinfo *d)
{
    if (d->pool_used == d->pool_cap) {
        d->pool_cap = 4096;
        d->pool = xcalloc(d->pool_cap, sizeof *d->pool);
        d->pool_used = 0;
        d->blocks = xreallocarray(d->blocks, d->nblocks + 1,
                                  sizeof *d->blocks);
        d->blocks[d->nblocks++] = d->pool;
    }
    return &d->pool[d->pool_used++];
}

static void add_entry(struct dinfo *d, struct ientry *e)
{
    size_t i;

    if ((d->names + 1) * 2 > d->nbuckets) {
        size_t old = d->nbuckets, k;
        struct ientry **ob = d->buckets;

        d->nbuckets = old == 0 ? 4096 : old * 2;
        d->buckets = xcalloc(d->nbuckets, sizeof *d->buckets);
        for (k = 0; k < old; k++) {
            struct ientry *x = ob[k], *next;

            for (; x != NULL; x = next) {
                next = x->next;
                i = hash_name(x->name) & (d->nbuckets - 1);
                x->next = d->buckets[i];
                d->buckets[i] = x;
            }
        }
        free(ob);
    }
    i = hash_name(e->name) & (d->nbuckets - 1);
    e->seq = d->names;
    e->next = d->buckets[i];
    d->buckets[i] = e;
    d->names++;
}

static int flag_of(Dwarf_Die *die, unsigned int at)
{
    Dwarf_Attribute a;
    bool v = 0;

    if (dwarf_attr(die, at, &a) == NULL)
        return 0;
    dwarf_formflag(&a, &v);
    return v;
}

/* Index the top level of compilation unit CU. */
static void index_unit(struct dinfo *d, Dwfl_Module *mod, Dwarf_Addr bias,
                       unsigned int rank, Dwarf_Die *cu)
{
    Dwarf_Die child;

    if (dwarf_child(cu, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        const char *name;
        struct ientry *e;
        int kind;

        switch (tag) {
        case DW_TAG_variable:
            /* a definition: it has a place (or a value) */
            if (!dwarf_hasattr(&child, DW_AT_location) &&
                !dwarf_hasattr(&child, DW_AT_const_value))
                continue;
            kind = IE_VAR;
            break;
        case DW_TAG_subprogram:
            if (flag_of(&child, DW_AT_declaration) ||
                (!dwarf_hasattr(&child, DW_AT_low_pc) &&
                 !dwarf_hasattr(&child, DW_AT_ranges)))
                continue;
            kind = IE_FUNC;
            break;
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
        case DW_TAG_enumeration_type:
            if (flag_of(&child, DW_AT_declaration))
                continue;
            kind = IE_TYPE;
            break;
        case DW_TAG_typedef:
        case DW_TAG_base_type:
            kind = IE_TYPE;
            break;
        default:
            continue;
        }
        /* (variables defined out of their declaration name it through
         * DW_AT_specification) */
        name = dwarf_diename(&child);
        if (name == NULL) {
            Dwarf_Attribute a;

            if (dwarf_attr_integrate(&child, DW_AT_name, &a) != NULL)
                name = dwarf_formstring(&a);
        }
        if (name == NULL)
            continue;
        e = new_entry(d);
        e->name = name;
        e->die = child;
        e->mod = mod;
        e->bias = bias;
        e->rank = rank;
        e->kind = (unsigned char)kind;
        e->tag = tag;
        e->external = (unsigned char)(flag_of(&child, DW_AT_external) ||
                                      (dwarf_hasattr(&child,
                                                     DW_AT_specification) &&
                                       kind == IE_VAR));
        add_entry(d, e);
    } while (dwarf_siblingof(&child, &child) == 0);
}

struct index_walk {
    struct dinfo *d;
    int main_pass; /* 1: the executable only; 0: the others */
    unsigned int rank;
};

static int is_exe(struct dinfo *d, Dwfl_Module *mod)
{
    const char *file = NULL;

    dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &file, NULL);
    return file != NULL && d->exe[0] != '\0' && strcmp(file, d->exe) == 0;
}

static int index_module(Dwfl_Module *mod, void **userdata, const char *name,
                        Dwarf_Addr start, void *arg)
{
    struct index_walk *w = arg;
    Dwarf_Die *cu = NULL;
    Dwarf_Addr bias;

    (void)userdata;
    (void)name;
    (void)start;
    if (is_exe(w->d, mod) != w->main_pass)
        return DWARF_CB_OK;
    w->rank++;
    while ((cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL) {
        index_unit(w->d, mod, bias, w->main_pass ? 0 : w->rank, cu);
        w->d->units++;
    }
    return DWARF_CB_OK;
}

static void build_index(struct dinfo *d)
{
    struct index_walk w = {.d = d};
    uint64_t t0 = now_ns();

    if (d->indexed)
        return;
    d->indexed = 1;
    w.main_pass = 1;
    dwfl_getmodules(d->dwfl, index_module, &w, 0);
    w.main_pass = 0;
    dwfl_getmodules(d->dwfl, index_module, &w, 0);
    d->index_ns = now_ns() - t0;
}

void dinfo_index_stats(const struct dinfo *d, size_t *names, size_t *units,
                       uint64_t *ns)
{
    *names = d->names;
    *units = d->units;
    *ns = d->indexed ? d->index_ns : 0;
}

/* Whether entry E is in the compilation unit of PREFER. */
static int same_unit(struct ientry *e, Dwarf_Die *prefer)
{
    Dwarf_Die a, b;

    if (prefer == NULL)
        return 0;
    if (dwarf_diecu(&e->die, &a, NULL, NULL) == NULL ||
        dwarf_diecu(prefer, &b, NULL, NULL) == NULL)
        return 0;
    return a.addr == b.addr;
}

/* The best entry named NAME that ACCEPT takes: in PREFER's unit first,
 * then external ones by module rank, then the rest by module rank. */
static struct ientry *find(struct dinfo *d, const char *name,
                           Dwarf_Die *prefer,
                           int (*accept)(struct ientry *, int), int arg)
{
    struct ientry *e, *ext = NULL, *other = NULL;

    build_index(d);
    if (d->nbuckets == 0)
        return NULL;
    for (e = d->buckets[hash_name(name) & (d->nbuckets - 1)]; e != NULL;
         e = e->next) {
        if (strcmp(e->name, name) != 0 || !accept(e, arg))
            continue;
        if (same_unit(e, prefer))
            return e;
        /* the executable's first, then the libraries' in the order they
         * are mapped; of one module, the first indexed */
        if (e->external && (ext == NULL || e->rank < ext->rank ||
                            (e->rank == ext->rank && e->seq < ext->seq)))
            ext = e;
        else if (!e->external &&
                 (other == NULL || e->rank < other->rank ||
                  (e->rank == other->rank && e->seq < other->seq)))
            other = e;
    }
    return ext != NULL ? ext : other;
}

static int accept_object(struct ientry *e, int unused)
{
    (void)unused;
    return e->kind == IE_VAR || e->kind == IE_FUNC;
}

static int accept_tag(struct ientry *e, int tag)
{
    return e->kind == IE_TYPE && e->tag == tag;
}

static void fill(struct ientry *e, struct dsym *s)
{
    s->die = e->die;
    s->bias = e->bias;
    s->mod = e->mod;
}

int dinfo_global(struct dinfo *d, const char *name, Dwarf_Die *prefer,
                 struct dsym *s)
{
    struct ientry *e = find(d, name, prefer, accept_object, 0);

    if (e == NULL)
        return -1;
    fill(e, s);
    return 0;
}

int dinfo_type_named(struct dinfo *d, int tag, const char *name,
                     Dwarf_Die *prefer, struct dsym *s)
{
    struct ientry *e = find(d, name, prefer, accept_tag, tag);

    if (e == NULL)
        return -1;
    fill(e, s);
    return 0;
}

static int msym_cmp(const void *a, const void *b)
{
    const struct msym *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* at one address: the global, then the one with a size, first */
    if (x->global != y->global)
        return y->global - x->global;
    return (y->size != 0) - (x->size != 0);
}

/* MOD's symbols that an address may be said to be in, sorted: objects
 * and functions with a size (functions without one too), as gdb's
 * minimal symbols for <symbol+offset>. */
static struct msyms *msyms_of(struct dinfo *d, Dwfl_Module *mod)
{
    struct msyms *m;
    size_t cap = 0;
    int n, i;

    for (size_t k = 0; k < d->nmsyms; k++)
        if (d->msyms[k].mod == mod)
            return &d->msyms[k];
    d->msyms = xreallocarray(d->msyms, d->nmsyms + 1, sizeof *d->msyms);
    m = &d->msyms[d->nmsyms++];
    memset(m, 0, sizeof *m);
    m->mod = mod;
    n = dwfl_module_getsymtab(mod);
    for (i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL,
                                                   NULL, NULL);
        int type = GELF_ST_TYPE(sym.st_info);

        if (name == NULL || *name == '\0' || sym.st_shndx == SHN_UNDEF ||
            !(type == STT_OBJECT || type == STT_FUNC ||
              type == STT_GNU_IFUNC || type == STT_NOTYPE) ||
            (sym.st_size == 0 && type != STT_FUNC))
            continue;
        m->s = xgrow(m->s, m->n, &cap, sizeof *m->s);
        m->s[m->n].addr = addr;
        m->s[m->n].size = sym.st_size;
        m->s[m->n].name = name;
        m->s[m->n].global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
        m->s[m->n].func = type != STT_OBJECT && type != STT_NOTYPE;
        m->n++;
    }
    if (m->n > 1)
        qsort(m->s, m->n, sizeof *m->s, msym_cmp);
    return m;
}

struct segfind {
    uint64_t addr;
    Dwfl_Module *mod;
};

static int segfind_module(Dwfl_Module *mod, void **userdata,
                          const char *name, Dwarf_Addr start, void *arg)
{
    struct segfind *f = arg;
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    size_t nph, i;

    (void)userdata;
    (void)name;
    (void)start;
    if (elf == NULL || elf_getphdrnum(elf, &nph) != 0)
        return DWARF_CB_OK;
    for (i = 0; i < nph; i++) {
        GElf_Phdr ph;

        if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
            continue;
        if (f->addr >= ph.p_vaddr + bias &&
            f->addr < ph.p_vaddr + bias + ph.p_memsz) {
            f->mod = mod;
            return DWARF_CB_ABORT;
        }
    }
    return DWARF_CB_OK;
}

/* The module whose segments hold ADDR: its .bss past the last page of
 * the file is not in the mappings libdwfl reads, but is the module's. */
static Dwfl_Module *module_at(struct dinfo *d, uint64_t addr)
{
    Dwfl_Module *mod = dwfl_addrmodule(d->dwfl, addr);
    struct segfind f = {.addr = addr};

    if (mod != NULL)
        return mod;
    dwfl_getmodules(d->dwfl, segfind_module, &f, 0);
    return f.mod;
}

const char *dinfo_symbol_at(struct dinfo *d, uint64_t addr,
                            uint64_t *offset)
{
    Dwfl_Module *mod = d != NULL ? module_at(d, addr) : NULL;
    struct msyms *m;
    size_t lo = 0, hi, k;

    if (mod == NULL)
        return NULL;
    m = msyms_of(d, mod);
    hi = m->n;
    /* the last symbol at or below ADDR */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;

        if (m->s[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    k = lo - 1;
    /* the first (preferred) of those at that address */
    while (k > 0 && m->s[k - 1].addr == m->s[k].addr)
        k--;
    /* outside a symbol that has a size: none (as gdb) */
    if (m->s[k].size != 0 && addr - m->s[k].addr >= m->s[k].size)
        return NULL;
    *offset = addr - m->s[k].addr;
    return m->s[k].name;
}

struct symfind {
    struct dinfo *d;
    const char *name;
    uint64_t addr;
    int is_func;
    int found;
    int main_pass;
};

static int symfind_module(Dwfl_Module *mod, void **userdata,
                          const char *modname, Dwarf_Addr start, void *arg)
{
    struct symfind *f = arg;
    struct msyms *m;

    (void)userdata;
    (void)modname;
    (void)start;
    if (is_exe(f->d, mod) != f->main_pass)
        return DWARF_CB_OK;
    m = msyms_of(f->d, mod);
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->s[i].name, f->name) != 0)
            continue;
        f->addr = m->s[i].addr;
        f->is_func = m->s[i].func;
        f->found = 1;
        return DWARF_CB_ABORT;
    }
    return DWARF_CB_OK;
}

int dinfo_symbol_named(struct dinfo *d, const char *name, uint64_t *addr,
                       int *is_func)
{
    struct symfind f = {.d = d, .name = name, .main_pass = 1};

    dwfl_getmodules(d->dwfl, symfind_module, &f, 0);
    if (!f.found) {
        f.main_pass = 0;
        dwfl_getmodules(d->dwfl, symfind_module, &f, 0);
    }
    if (!f.found)
        return -1;
    *addr = f.addr;
    *is_func = f.is_func;
    return 0;
}

static int exe_dwarf_module(Dwfl_Module *mod, void **userdata,
                            const char *name, Dwarf_Addr start, void *arg)
{
    struct dinfo *d = ((struct dinfo **)arg)[0];
    Dwarf_Addr bias;

    (void)userdata;
    (void)name;
    (void)start;
    if (is_exe(d, mod)) {
        ((int *)((struct dinfo **)arg)[1])[0] =
            dwfl_module_getdwarf(mod, &bias) != NULL;
        return DWARF_CB_ABORT;
    }
    return DWARF_CB_OK;
}

int dinfo_exe_has_dwarf(struct dinfo *d)
{
    int yes = 0;
    void *arg[2] = {d, &yes};

    dwfl_getmodules(d->dwfl, exe_dwarf_module, arg, 0);
    return yes;
}
