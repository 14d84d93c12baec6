/* SPDX-License-Identifier: MIT */
/*
 * symnames.h - names of the functions that auto-instrumented code reports
 * by address (-finstrument-functions, see lib/runtime/instrument.c): resolved in
 * the monitor through symbols.h (the program's executable and shared
 * libraries as mapped, so PIE and ASLR do not matter), once per address
 * and run, and filtered by the user's exclusion patterns.
 */
#ifndef NOOSA_SYMNAMES_H
#define NOOSA_SYMNAMES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct symnames;

struct symnames *symnames_create(void);
void symnames_free(struct symnames *sn);

/* A new process PID, alive: forget every address, read its mappings. */
void symnames_reset(struct symnames *sn, pid_t pid);

/* The name of the function at ADDR ("0x..." when no symbol covers it),
 * with its length in *LEN.  The string is the cache's and stays at the
 * same address until the next reset, for every lookup of ADDR.  NULL when
 * the function is excluded. */
const char *symnames_name(struct symnames *sn, uint64_t addr, size_t *len);

/* A number that changes whenever the name of an address may have
 * changed, or whether it is excluded: at a reset and when the patterns
 * change.  Callers that keep names by address check it. */
uint64_t symnames_stamp(const struct symnames *sn);

/* Exclusion patterns (glob, as in `string match`, on the function name):
 * functions that match one are not delivered.  Add PATTERN (1), remove it
 * (0); returns -1 when removing a pattern that is not there. */
int symnames_exclude(struct symnames *sn, const char *pattern, int add);
unsigned int symnames_npatterns(const struct symnames *sn);
const char *symnames_pattern(const struct symnames *sn, unsigned int i);

/* Addresses resolved in this run, and how many of them are excluded. */
size_t symnames_count(const struct symnames *sn, size_t *excluded);

#endif /* NOOSA_SYMNAMES_H */
