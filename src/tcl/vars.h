/* SPDX-License-Identifier: MIT */
/*
 * vars.h - the Tcl variables of handlers and monitors kept by a replay's
 * checkpoints (<design#checkpoints>); see vars.c.
 */
#ifndef NOOSA_VARS_H
#define NOOSA_VARS_H

struct interp;
struct vars;

/* Join the checkpoints of IN's root. */
struct vars *vars_create(struct interp *in);
void vars_free(struct vars *v);
/* The session's state changed (a replay stopped, ended, went on). */
void vars_status(struct vars *v);

#endif /* NOOSA_VARS_H */
