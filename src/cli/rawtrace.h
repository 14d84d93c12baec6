/* SPDX-License-Identifier: MIT */
/*
 * rawtrace.h - the raw-trace driver (`noosa --raw-trace`) and the
 * describe pass (`noosa --describe`).
 */
#ifndef NOOSA_RAWTRACE_H
#define NOOSA_RAWTRACE_H

struct noosa_opts;

/* Run the program as O says (its argv, the channel's options in
 * o->session, and the raw trace's own: describe, output, stop_at, sends,
 * interrupt_after_ms); returns noosa's exit status (0 when the program
 * ran, whatever it did; 1 when it could not be run). */
int rawtrace_run(const struct noosa_opts *o);

#endif /* NOOSA_RAWTRACE_H */
