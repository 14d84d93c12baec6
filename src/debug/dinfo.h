/* SPDX-License-Identifier: MIT */
/*
 * dinfo.h - the debug information of a running program: its executable
 * and libraries as mapped now (libdwfl over /proc/PID/maps), their DWARF
 * and ELF symbols, the C types (ctype.h), and an index of the names
 * that are visible from everywhere (global and file-static variables,
 * functions, struct, union and enum tags, typedefs).
 *
 * Nothing is read before it is asked for: opening costs the mappings,
 * the index is built at the first look-up of a name that no frame holds
 * (<design#debug-lazy>), and a module's DWARF is read when an address or
 * a name leads to it.  The program's memory is read through the reader
 * the caller gives.  Nothing here prints.
 */
#ifndef NOOSA_DINFO_H
#define NOOSA_DINFO_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ctypes;

/* Reads LEN bytes at ADDR of the program into BUF: returns how many it
 * could read from the start (LEN when all). */
typedef size_t (*dinfo_read_fn)(void *arg, uint64_t addr, void *buf,
                                size_t len);

struct dinfo;

/* A name found in the index, or a frame's variable. */
struct dsym {
    Dwarf_Die die;
    Dwarf_Addr bias;   /* of its module: DWARF addresses + BIAS */
    Dwfl_Module *mod;
};

/* Open the debug information of process PID (its mappings only).
 * Returns NULL with *cause. */
struct dinfo *dinfo_open(pid_t pid, dinfo_read_fn read, void *arg,
                         char **cause);
void dinfo_free(struct dinfo *d);
/* Read the mappings again (libraries loaded since); the index is built
 * again when next needed. */
int dinfo_refresh(struct dinfo *d, char **cause);

pid_t dinfo_pid(const struct dinfo *d);
struct ctypes *dinfo_types(struct dinfo *d);
Dwfl *dinfo_dwfl(struct dinfo *d);

/* Read LEN bytes at ADDR: 0, or -1 when not all of it is readable (or D
 * is NULL: no program, as in a recording). */
int dinfo_read(struct dinfo *d, uint64_t addr, void *buf, size_t len);
/* Read up to LEN bytes at ADDR: how many were readable from the start. */
size_t dinfo_read_some(struct dinfo *d, uint64_t addr, void *buf,
                       size_t len);

/* The compilation unit covering ADDR (a run-time address): 0 with *CU
 * and *BIAS (and *MOD), -1 when there is no debug information there. */
int dinfo_cu(struct dinfo *d, uint64_t addr, Dwarf_Die *cu, Dwarf_Addr *bias,
             Dwfl_Module **mod);

/* The global or file-static variable or function NAME, preferring the
 * compilation unit PREFER (may be NULL) for statics, then the
 * executable, then libraries in the order they are mapped: 0 with *S,
 * -1 when the debug information has none. */
int dinfo_global(struct dinfo *d, const char *name, Dwarf_Die *prefer,
                 struct dsym *s);
/* The definition of struct (DW_TAG_structure_type), union or enum tag
 * NAME, or typedef NAME (DW_TAG_typedef), or base type: 0 with *S. */
int dinfo_type_named(struct dinfo *d, int tag, const char *name,
                     Dwarf_Die *prefer, struct dsym *s);

/* The ELF symbol covering ADDR (an object or function): its name and
 * *OFFSET into it, or NULL. */
const char *dinfo_symbol_at(struct dinfo *d, uint64_t addr,
                            uint64_t *offset);
/* The ELF symbol NAME (for a program without debug information): 0
 * with its address and whether it is a function. */
int dinfo_symbol_named(struct dinfo *d, const char *name, uint64_t *addr,
                       int *is_func);

/* Whether the program's executable has DWARF. */
int dinfo_exe_has_dwarf(struct dinfo *d);

/* What building the index cost: names indexed, compilation units read,
 * and nanoseconds (0 while it is not built). */
void dinfo_index_stats(const struct dinfo *d, size_t *names, size_t *units,
                       uint64_t *ns);

#endif /* NOOSA_DINFO_H */
