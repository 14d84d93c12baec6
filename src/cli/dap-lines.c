/* SPDX-License-Identifier: MIT */
/*
 * dap-lines.c - the lines of the program that emit events (see dap.h),
 * for breakpoints on source lines <design#dap-lines>.
 *
 * An event is emitted where the program calls its stub _dapto_EVENT(), a
 * static inline function of the generated header.  Where the compiler
 * inlined a call, the debug information has an inlined subroutine of that
 * name whose call file and line are the caller's; where it did not (-O0),
 * the compilation unit has the stub as a function of its own, and the
 * calls of it are direct calls (x86-64: E8 and a 32-bit displacement) in
 * the unit's code, whose addresses the line table maps to lines.  Both
 * are read here, from the executable's file (or its separate debug
 * file) through libdw; nothing runs.
 */
#include "config.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dap.h"
#include "xmalloc.h"

struct dap_lines {
    struct dap_site *sites; /* by file, then line, then event */
    size_t n, cap;
    const char **dirs;      /* the units' directories */
    size_t ndirs, dirs_cap;
    char **strings;         /* files and events, owned */
    size_t nstrings, strings_cap;
};

/* A stub out of line: its address and event. */
struct stub {
    uint64_t addr;
    const char *event;
};

struct reading {
    struct dap_lines *l;
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t nfiles;
    const char *comp_dir;
    struct stub *stubs;   /* of this unit */
    size_t nstubs, stubs_cap;
};

/* A string kept in L (equal strings are kept once, the last few looked
 * at first: a unit names few files). */
static const char *keep(struct dap_lines *l, const char *s)
{
    for (size_t i = l->nstrings; i > 0 && i + 16 > l->nstrings; i--)
        if (strcmp(l->strings[i - 1], s) == 0)
            return l->strings[i - 1];
    l->strings = xgrow(l->strings, l->nstrings, &l->strings_cap,
                       sizeof *l->strings);
    l->strings[l->nstrings] = xstrdup(s);
    return l->strings[l->nstrings++];
}

/* PATH made absolute against DIR (when relative) and without "." and
 * ".." steps; the caller frees it. */
static char *normal_path(const char *path, const char *dir)
{
    char *full = path[0] == '/' || dir == NULL
                     ? xstrdup(path)
                     : xasprintf("%s/%s", dir, path);
    char *out = xmalloc(strlen(full) + 2), *p = full, *o = out;

    while (*p != '\0') {
        char *e = strchr(p, '/');
        size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

        if (n == 0 || (n == 1 && p[0] == '.')) {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (o > out && *--o != '/')
                ;
        } else {
            if (o > out || full[0] == '/')
                *o++ = '/';
            memcpy(o, p, n);
            o += n;
        }
        p += n + (e != NULL);
    }
    if (o == out && full[0] == '/')
        *o++ = '/';
    *o = '\0';
    free(full);
    return out;
}

static void add_site(struct reading *r, const char *file, int line,
                     const char *event)
{
    struct dap_lines *l = r->l;
    char *norm;

    if (file == NULL || line <= 0)
        return;
    norm = normal_path(file, r->comp_dir);
    l->sites = xgrow(l->sites, l->n, &l->cap, sizeof *l->sites);
    l->sites[l->n].file = keep(l, norm);
    l->sites[l->n].line = line;
    l->sites[l->n].event = keep(l, event);
    l->n++;
    free(norm);
}

/* The event whose stub DIE is (directly or through its abstract
 * origin), or NULL. */
static const char *stub_event(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name;

    if (dwarf_attr_integrate(die, DW_AT_name, &attr) == NULL)
        return NULL;
    name = dwarf_formstring(&attr);
    if (name == NULL || strncmp(name, "_dapto_", 7) != 0 || name[7] == '\0')
        return NULL;
    return name + 7;
}

static void walk(struct reading *r, Dwarf_Die *die)
{
    Dwarf_Die child;
    int tag = dwarf_tag(die);

    if (tag == DW_TAG_inlined_subroutine) {
        const char *ev = stub_event(die);
        Dwarf_Attribute attr;
        Dwarf_Word file = 0, line = 0;

        if (ev != NULL && r->files != NULL &&
            dwarf_attr(die, DW_AT_call_file, &attr) != NULL &&
            dwarf_formudata(&attr, &file) == 0 &&
            dwarf_attr(die, DW_AT_call_line, &attr) != NULL &&
            dwarf_formudata(&attr, &line) == 0 && file < r->nfiles)
            add_site(r, dwarf_filesrc(r->files, file, NULL, NULL),
                     (int)line, ev);
    } else if (tag == DW_TAG_subprogram) {
        const char *ev = stub_event(die);
        Dwarf_Addr lo;

        if (ev != NULL && dwarf_lowpc(die, &lo) == 0) {
            r->stubs = xgrow(r->stubs, r->nstubs, &r->stubs_cap,
                             sizeof *r->stubs);
            r->stubs[r->nstubs].addr = lo;
            r->stubs[r->nstubs++].event = keep(r->l, ev);
        }
    }
    if (dwarf_child(die, &child) != 0)
        return;
    do
        walk(r, &child);
    while (dwarf_siblingof(&child, &child) == 0);
}

/* The executable bytes of ELF at [LO, HI), or NULL. */
static const unsigned char *code_at(Elf *elf, uint64_t lo, uint64_t hi)
{
    Elf_Scn *scn = NULL;

    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *data;

        if (gelf_getshdr(scn, &sh) == NULL ||
            sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
            lo < sh.sh_addr || hi > sh.sh_addr + sh.sh_size)
            continue;
        data = elf_getdata(scn, NULL);
        if (data == NULL || data->d_buf == NULL || data->d_size < sh.sh_size)
            return NULL;
        return (const unsigned char *)data->d_buf + (lo - sh.sh_addr);
    }
    return NULL;
}

/* The direct calls of the unit's stubs out of line: each range of its
 * code is looked through for E8 and a displacement that lands on one. */
static void calls(struct reading *r, Elf *elf)
{
    Dwarf_Addr base, lo, hi;
    ptrdiff_t off = 0;

    if (r->nstubs == 0 || elf == NULL)
        return;
    while ((off = dwarf_ranges(&r->cu, off, &base, &lo, &hi)) > 0) {
        const unsigned char *code = code_at(elf, lo, hi);

        if (code == NULL)
            continue;
        for (uint64_t a = lo; a + 5 <= hi; a++) {
            const unsigned char *p = code + (a - lo);
            int32_t disp;
            uint64_t to;

            if (p[0] != 0xe8)
                continue;
            memcpy(&disp, p + 1, 4);
            to = a + 5 + (uint64_t)(int64_t)disp;
            for (size_t i = 0; i < r->nstubs; i++) {
                Dwarf_Line *ln;
                int line;

                if (r->stubs[i].addr != to)
                    continue;
                ln = dwarf_getsrc_die(&r->cu, a);
                if (ln != NULL && dwarf_lineno(ln, &line) == 0)
                    add_site(r, dwarf_linesrc(ln, NULL, NULL), line,
                             r->stubs[i].event);
            }
        }
    }
}

static int site_cmp(const void *a, const void *b)
{
    const struct dap_site *x = a, *y = b;
    int c = strcmp(x->file, y->file);

    if (c == 0)
        c = (x->line > y->line) - (x->line < y->line);
    if (c == 0)
        c = strcmp(x->event, y->event);
    return c;
}

static const Dwfl_Callbacks offline = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

struct dap_lines *dap_lines_read(const char *path, char **cause)
{
    struct dap_lines *l;
    struct reading r;
    Dwfl *dwfl;
    Dwfl_Module *mod;
    Dwarf *dw;
    Dwarf_Addr bias;
    Dwarf_CU *cu = NULL;
    Elf *elf;
    size_t i, j;

    if (access(path, R_OK) != 0) {
        xcause(cause, "%s: %s", path, strerror(errno));
        return NULL;
    }
    dwfl = dwfl_begin(&offline);
    if (dwfl == NULL) {
        xcause(cause, "libdwfl: %s", dwfl_errmsg(-1));
        return NULL;
    }
    mod = dwfl_report_offline(dwfl, "", path, -1);
    dwfl_report_end(dwfl, NULL, NULL);
    dw = mod != NULL ? dwfl_module_getdwarf(mod, &bias) : NULL;
    if (dw == NULL) {
        xcause(cause, "%s has no debug information (build it with -g)",
               path);
        dwfl_end(dwfl);
        return NULL;
    }
    elf = dwfl_module_getelf(mod, &bias);
    l = xcalloc(1, sizeof *l);
    memset(&r, 0, sizeof r);
    r.l = l;
    while (dwarf_get_units(dw, cu, &cu, NULL, NULL, &r.cu, NULL) == 0) {
        Dwarf_Attribute attr;

        if (dwarf_tag(&r.cu) != DW_TAG_compile_unit)
            continue;
        r.files = NULL;
        r.nfiles = 0;
        if (dwarf_getsrcfiles(&r.cu, &r.files, &r.nfiles) != 0)
            r.files = NULL;
        r.comp_dir = dwarf_attr(&r.cu, DW_AT_comp_dir, &attr) != NULL
                         ? dwarf_formstring(&attr)
                         : NULL;
        if (r.comp_dir != NULL) {
            size_t k;

            for (k = 0; k < l->ndirs && strcmp(l->dirs[k], r.comp_dir); k++)
                ;
            if (k == l->ndirs) {
                l->dirs = xgrow(l->dirs, l->ndirs, &l->dirs_cap,
                                sizeof *l->dirs);
                l->dirs[l->ndirs++] = keep(l, r.comp_dir);
            }
        }
        r.nstubs = 0;
        walk(&r, &r.cu);
        calls(&r, elf);
    }
    free(r.stubs);
    dwfl_end(dwfl);
    qsort(l->sites, l->n, sizeof *l->sites, site_cmp);
    for (i = j = 0; i < l->n; i++)
        if (j == 0 || site_cmp(&l->sites[j - 1], &l->sites[i]) != 0)
            l->sites[j++] = l->sites[i];
    l->n = j;
    return l;
}

void dap_lines_free(struct dap_lines *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->nstrings; i++)
        free(l->strings[i]);
    free(l->strings);
    free(l->dirs);
    free(l->sites);
    free(l);
}

/* Whether the path ends with "/" SUFFIX (or is SUFFIX). */
static int ends_with(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix);

    return n >= k && strcmp(path + n - k, suffix) == 0 &&
           (n == k || path[n - k - 1] == '/');
}

int dap_lines_same_file(const char *file, const char *path)
{
    char *a, *b, ra[PATH_MAX], rb[PATH_MAX];
    int same;

    if (file == NULL || path == NULL)
        return 0;
    a = normal_path(file, NULL);
    b = normal_path(path, NULL);
    same = strcmp(a, b) == 0;
    if (!same && realpath(a, ra) != NULL && realpath(b, rb) != NULL)
        same = strcmp(ra, rb) == 0;
    /* a relative name (a unit without its directory) matches the end */
    if (!same && a[0] != '/')
        same = ends_with(b, a);
    free(a);
    free(b);
    return same;
}

size_t dap_lines_in(struct dap_lines *l, const char *path,
                    const struct dap_site **sites)
{
    size_t i, first;

    *sites = NULL;
    if (l == NULL)
        return 0;
    for (i = 0; i < l->n; i = first) {
        /* the sites are by file: one comparison a file */
        for (first = i + 1;
             first < l->n &&
             strcmp(l->sites[first].file, l->sites[i].file) == 0;
             first++)
            ;
        if (dap_lines_same_file(l->sites[i].file, path)) {
            *sites = &l->sites[i];
            return first - i;
        }
    }
    return 0;
}

size_t dap_lines_of(struct dap_lines *l, const char *event,
                    const struct dap_site **out, size_t max)
{
    size_t k = 0;

    for (size_t i = 0; l != NULL && i < l->n; i++) {
        if (strcmp(l->sites[i].event, event) != 0)
            continue;
        if (k < max)
            out[k] = &l->sites[i];
        k++;
    }
    return k;
}

char *dap_lines_path(struct dap_lines *l, const char *file)
{
    char *path;

    if (file == NULL)
        return NULL;
    if (file[0] == '/')
        return access(file, R_OK) == 0 ? normal_path(file, NULL) : NULL;
    for (size_t i = 0; l != NULL && i < l->ndirs; i++) {
        path = normal_path(file, l->dirs[i]);
        if (access(path, R_OK) == 0)
            return path;
        free(path);
    }
    return NULL;
}
