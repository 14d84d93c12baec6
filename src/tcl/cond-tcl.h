/* SPDX-License-Identifier: MIT */
/*
 * cond-tcl.h - Tcl conditions (what follows `if` in `break EV if COND`)
 * read into conditions the program can evaluate (cond.h), for the shapes
 * where the compiled condition means exactly what Tcl's expr means.
 * Anything else is left to Tcl, evaluated in noosa as before.
 */
#ifndef NOOSA_COND_TCL_H
#define NOOSA_COND_TCL_H

#include <stddef.h>
#include <tcl.h>

#include "cond.h"
#include "registry.h"

/*
 * Read TEXT, a Tcl expression over the parameters of EV and n_thread, into
 * a condition (caller frees with cond_free).  Returns NULL with *cause
 * (caller frees) saying why it is not compilable, or not an expression.
 * INTERP parses, and reads numbers by its rules (`string is entier`);
 * nothing of TEXT is evaluated, and its result is left as it was.
 */
struct cond *cond_tcl_parse(Tcl_Interp *interp, const char *text,
                            const struct registry_event *ev, char **cause);

/* cond_tcl_parse then cond_compile into at most SIZE bytes at OUT:
 * the program's length, or -1 with *cause. */
int cond_tcl_compile(Tcl_Interp *interp, const char *text,
                     const struct registry_event *ev, unsigned char *out,
                     size_t size, char **cause);

#endif /* NOOSA_COND_TCL_H */
