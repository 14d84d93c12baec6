/* SPDX-License-Identifier: MIT */
/*
 * fault-trail.h - the last events before a run-time error
 * <protocol#trail>.  While the trail is wanted, a consumer of the
 * dispatcher asks for DAPTO_STATE_TRAIL on every event, so that the
 * runtime keeps the latest ones in the region even when nobody else
 * listens; after an error they are read back and decoded.
 */
#ifndef NOOSA_FAULT_TRAIL_H
#define NOOSA_FAULT_TRAIL_H

#include <sys/types.h>

struct session;
struct dispatch;
struct sink;
struct fault_trail;

/* Largest number of events shown. */
#define FAULT_TRAIL_MAX 1000

/* Add the trail's consumer to IN's dispatcher, keeping the last N
 * events (0: none, and no event is kept). */
struct fault_trail *fault_trail_create(struct session *s, struct dispatch *d,
                                       struct sink *say, unsigned int n);
void fault_trail_free(struct fault_trail *ft);

/* Keep the last N events from the next event on (0: none). */
void fault_trail_set(struct fault_trail *ft, unsigned int n);
unsigned int fault_trail_get(const struct fault_trail *ft);

/* Keep the entries and exits of -finstrument-functions in the trail too
 * (off by default: they cost a program every call, events cost it only
 * their own). */
void fault_trail_set_functions(struct fault_trail *ft, int on);
int fault_trail_functions(const struct fault_trail *ft);

/* Say the last events of the current run in the transcript, oldest
 * first, one per line after a heading; of those the program kept in
 * threads' own trails <protocol#ttrail>, ordered between threads by the
 * run's coarse clock, the events of thread TID (the error's) last within
 * one of its ticks. */
void fault_trail_say(struct fault_trail *ft, pid_t tid);

#endif /* NOOSA_FAULT_TRAIL_H */
