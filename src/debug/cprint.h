/* SPDX-License-Identifier: MIT */
/*
 * cprint.h - values as gdb prints them: structs as {name = value, ...},
 * arrays with runs of equal elements as <repeats N times> and at most
 * 200 elements, char arrays and char pointers as strings, enums by name,
 * pointers with the symbol they point into, functions with their
 * address and name, <optimized out> where the compiler kept nothing, and
 * the formats /x /d /u /o /t /c /a /z /s.  Memory a pointer leads to
 * (a string) is read here; nothing else is.
 */
#ifndef NOOSA_CPRINT_H
#define NOOSA_CPRINT_H

#include "cvalue.h"

struct cprint_opts {
    char format;            /* 0: natural; else x d u o t c a z s */
    unsigned int print_max; /* elements of an array, chars of a string */
    unsigned int repeats;   /* runs longer than this are <repeats> */
};

/* gdb's defaults: no format, 200 elements, runs of more than 10. */
void cprint_defaults(struct cprint_opts *o);

/* Whether FMT is a format letter print accepts. */
int cprint_format_ok(char fmt);

/* V as print shows it at the top level: "(struct node *) 0x..." for a
 * pointer, the rest as inside an aggregate.  The caller frees it.  An
 * error reading V (that print reports instead of a value) is returned
 * as NULL with *cause. */
char *cprint_top(struct cvalue *v, const struct cprint_opts *o,
                 char **cause);
/* V as an aggregate's member or element shows it. */
char *cprint_value(struct cvalue *v, const struct cprint_opts *o);

/* " <symbol+offset>" for address ADDR, or "" (the caller frees it). */
char *cprint_symbolic(struct dinfo *d, uint64_t addr);

/* The character C (of a char type, value as read) in single quotes, as
 * gdb writes it: 'A', '\n', '\000', '\310'. */
char *cprint_char(int c);

#endif /* NOOSA_CPRINT_H */
