/* SPDX-License-Identifier: MIT */
/*
 * symbols.h - addresses and names in a running program: its executable
 * and shared libraries as mapped now (PIE and ASLR aware), with file and
 * line when debug information exists.  Built on libdwfl.  Nothing here
 * prints.
 */
#ifndef NOOSA_SYMBOLS_H
#define NOOSA_SYMBOLS_H

#include <stdint.h>
#include <sys/types.h>

struct symbols;

/* What symbols_lookup() found.  The strings belong to the symbols object
 * and stay valid until the next symbols_refresh() or symbols_free(). */
struct symbols_info {
    const char *function; /* NULL when no symbol covers the address */
    uint64_t offset;      /* address - start of the function */
    const char *module;   /* path of the executable or library */
    const char *file;     /* source file, or NULL without debug info */
    int line;
};

/* Read the mappings of process PID.  Returns NULL with *cause on error. */
struct symbols *symbols_open(pid_t pid, char **cause);
void symbols_free(struct symbols *s);

/* Read the mappings again (libraries loaded since). */
int symbols_refresh(struct symbols *s, char **cause);

/* Describe ADDR.  Returns 0, or -1 when no module is mapped there. */
int symbols_lookup(struct symbols *s, uint64_t addr,
                   struct symbols_info *info);

/* The address of function NAME: the executable first, then libraries. */
int symbols_address(struct symbols *s, const char *name, uint64_t *addr,
                    char **cause);

/* The addresses of every function named NAME (static functions of
 * several files, and in several modules): at most MAX into ADDRS, and
 * how many. */
unsigned int symbols_addresses(struct symbols *s, const char *name, uint64_t *addrs,
                               unsigned int max);

#endif /* NOOSA_SYMBOLS_H */
