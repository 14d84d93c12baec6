/* SPDX-License-Identifier: MIT */
/*
 * handlers.h - Tcl handlers on events (Noosa's n_install_handler and the
 * `handler` command), and the consumer that runs them.
 *
 * Each event has a list of handlers, run in order (newest first, as in
 * Noosa), each with a name, an enabled flag and a body.  An event is put
 * in the stop state only while one of its enabled handlers needs the
 * program stopped (it calls n_send or n_break, directly or through a
 * procedure, or was added with -stop); otherwise the handlers run on the
 * recorded event while the program goes on.
 */
#ifndef NOOSA_HANDLERS_H
#define NOOSA_HANDLERS_H

struct interp;
struct handlers;

struct handlers *handlers_create(struct interp *in);
void handlers_free(struct handlers *h);
void handlers_init_commands(struct handlers *h);

/* Where the condition of handler NAME of EVENT runs ("in the program: N
 * checked, M passed", "in noosa: WHY"), or NULL when it has none or there
 * is no such handler; caller frees. */
char *handlers_where(struct handlers *hs, const char *event,
                     const char *name);

#endif /* NOOSA_HANDLERS_H */
