/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * symbols.c - address <-> name for a live process, through libdwfl's
 * /proc/PID/maps reporting.  libdwfl applies each module's load bias, so
 * the addresses here are the program's run-time addresses.
 */
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <gelf.h>
#include <string.h>
#include <stdlib.h>

#include "symbols.h"
#include "xmalloc.h"

struct symbols {
    pid_t pid;
    Dwfl *dwfl;
};

static const Dwfl_Callbacks symbols_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

int symbols_refresh(struct symbols *s, char **cause)
{
    int rc;

    dwfl_report_begin(s->dwfl);
    rc = dwfl_linux_proc_report(s->dwfl, s->pid);
    dwfl_report_end(s->dwfl, NULL, NULL);
    if (rc != 0) {
        xcause(cause, "cannot read the mappings of process %d: %s",
               (int)s->pid, rc > 0 ? strerror(rc) : dwfl_errmsg(-1));
        return -1;
    }
    return 0;
}

struct symbols *symbols_open(pid_t pid, char **cause)
{
    struct symbols *s = xcalloc(1, sizeof *s);

    s->pid = pid;
    s->dwfl = dwfl_begin(&symbols_callbacks);
    if (s->dwfl == NULL) {
        xcause(cause, "libdwfl: %s", dwfl_errmsg(-1));
        free(s);
        return NULL;
    }
    if (symbols_refresh(s, cause) != 0) {
        symbols_free(s);
        return NULL;
    }
    return s;
}

void symbols_free(struct symbols *s)
{
    if (s == NULL)
        return;
    if (s->dwfl != NULL)
        dwfl_end(s->dwfl);
    free(s);
}

int symbols_lookup(struct symbols *s, uint64_t addr,
                   struct symbols_info *info)
{
    Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, addr);
    GElf_Off off = 0;
    GElf_Sym sym;
    Dwfl_Line *line;
    const char *name;

    memset(info, 0, sizeof *info);
    if (mod == NULL)
        return -1;
    info->module = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL,
                                    NULL);
    name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
    if (name != NULL) {
        info->function = name;
        info->offset = off;
    }
    line = dwfl_module_getsrc(mod, addr);
    if (line != NULL) {
        int lineno = 0;
        const char *file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL,
                                         NULL);
        if (file != NULL) {
            info->file = file;
            info->line = lineno;
        }
    }
    return 0;
}

struct symbols_find {
    const char *name;
    uint64_t addr;
    int found;
    int main_only; /* first pass: the executable only */
};

static int symbols_find_in(Dwfl_Module *mod, void **userdata,
                           const char *modname, Dwarf_Addr start, void *arg)
{
    struct symbols_find *f = arg;
    int n = dwfl_module_getsymtab(mod);

    (void)userdata;
    (void)modname;
    (void)start;
    if (f->main_only) {
        /* the executable is the module that holds the entry point */
        GElf_Addr bias;
        Elf *elf = dwfl_module_getelf(mod, &bias);
        GElf_Ehdr ehdr;
        if (elf == NULL || gelf_getehdr(elf, &ehdr) == NULL ||
            (ehdr.e_type != ET_EXEC &&
             !(ehdr.e_type == ET_DYN && ehdr.e_entry != 0 &&
               strstr(modname, ".so") == NULL)))
            return DWARF_CB_OK;
    }
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL,
                                                   NULL, NULL);
        if (name == NULL || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF)
            continue;
        if (strcmp(name, f->name) == 0) {
            f->addr = addr;
            f->found = 1;
            return DWARF_CB_ABORT;
        }
    }
    return DWARF_CB_OK;
}

struct symbols_all {
    const char *name;
    uint64_t *addrs;
    unsigned int max, n;
};

static int symbols_all_in(Dwfl_Module *mod, void **userdata, const char *modname,
                          Dwarf_Addr start, void *arg)
{
    struct symbols_all *f = arg;
    int n = dwfl_module_getsymtab(mod);

    (void)userdata;
    (void)modname;
    (void)start;
    for (int i = 1; i < n && f->n < f->max; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL,
                                                   NULL, NULL);
        unsigned int j;

        if (name == NULL || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF || strcmp(name, f->name) != 0)
            continue;
        for (j = 0; j < f->n && f->addrs[j] != addr; j++)
            ;
        if (j == f->n)
            f->addrs[f->n++] = addr;
    }
    return DWARF_CB_OK;
}

unsigned int symbols_addresses(struct symbols *s, const char *name, uint64_t *addrs,
                               unsigned int max)
{
    struct symbols_all f = {.name = name, .addrs = addrs, .max = max};

    dwfl_getmodules(s->dwfl, symbols_all_in, &f, 0);
    return f.n;
}

int symbols_address(struct symbols *s, const char *name, uint64_t *addr,
                    char **cause)
{
    struct symbols_find f = {.name = name, .main_only = 1};

    dwfl_getmodules(s->dwfl, symbols_find_in, &f, 0);
    if (!f.found) {
        f.main_only = 0;
        dwfl_getmodules(s->dwfl, symbols_find_in, &f, 0);
    }
    if (!f.found) {
        xcause(cause, "no function %s in the program or its libraries",
               name);
        return -1;
    }
    *addr = f.addr;
    return 0;
}
