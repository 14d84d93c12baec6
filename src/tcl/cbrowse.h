/* SPDX-License-Identifier: MIT */
/*
 * cbrowse.h - C values in the transcript, browsable with no Tcl written
 * (<design#debug-browse>): a value said here becomes a region of the
 * transcript; opening it (open N, or Enter or a click on the screen)
 * shows a struct's members, what a pointer points to (read then, not
 * before), an array a page at a time, each part that can be opened in
 * turn a region of its own, and says so when a pointer leads back to an
 * object already open on the way there (a cycle).  A type that has a
 * browser of its own in Tcl (n_TYPE_open, Eli's convention; TYPE a
 * typedef name of the value) is left to it.
 */
#ifndef NOOSA_CBROWSE_H
#define NOOSA_CBROWSE_H

#include <stdint.h>

struct interp;
struct cbrowse;
struct cvalue;

struct cbrowse *cbrowse_create(struct interp *in);
void cbrowse_free(struct cbrowse *b);

/* Say V in the transcript as TEXT: a region that opens V (or its type's
 * Tcl browser), when V is worth opening; plain text otherwise.  EXPR is
 * how an expression reaches V ("$1", "entry->next"). */
void cbrowse_say(struct cbrowse *b, struct cvalue *v, const char *expr,
                 const char *text);

/* Whether region ID of the transcript is a C value cbrowse opens. */
int cbrowse_owns(struct cbrowse *b, uint64_t id);
/* Open region ID: its contents said in the transcript.  -1 with *cause
 * (the program is not stopped, memory cannot be read). */
int cbrowse_open(struct cbrowse *b, uint64_t id, char **cause);

/* The name of a Tcl browser for V (a typedef name of its type, or of
 * what it points to, with n_NAME_open defined), or NULL. */
const char *cbrowse_tcl_type(struct cbrowse *b, struct cvalue *v);

#endif /* NOOSA_CBROWSE_H */
