/* SPDX-License-Identifier: MIT */
/*
 * trace.h - the event trace, a built-in monitor: every event whose name
 * matches a regular expression is shown in the transcript with its
 * parameters, in Noosa's format (EV p1="v1" p2="v2" ...).  The filter is
 * applied when the coordinator asks what the trace wants, so events it
 * does not match are never emitted for it.
 */
#ifndef NOOSA_TRACE_H
#define NOOSA_TRACE_H

struct interp;
struct trace;

struct trace *trace_create(struct interp *in);
void trace_free(struct trace *t);
void trace_init_commands(struct trace *t);

#endif /* NOOSA_TRACE_H */
