/* SPDX-License-Identifier: MIT */
/*
 * dispatch.h - the monitor coordinator: consumers of events (handlers,
 * breakpoints, stepping, traces, profiles, Tcl monitors) say which events
 * they want and how; the dispatcher writes the union of their wishes into
 * the program as event states, so that events nobody wants are never
 * emitted, and hands each event only to the consumers that asked for it,
 * through a table by event code recomputed only when a wish changes.
 *
 * Wishes are kept by event, not code: codes belong to one run, so the
 * table is rebuilt whenever the program describes a new aspect.
 */
#ifndef NOOSA_DISPATCH_H
#define NOOSA_DISPATCH_H

#include "reader.h"
#include "registry.h"

struct session;
struct dispatch;
struct consumer;

/* What a consumer is told about one event. */
struct dispatch_event {
    const struct reader_item *item;
    const struct registry_event *event;
    int waiting;   /* the thread waits: operations may run now */
    int stop;      /* set by a consumer: keep the program stopped */
    char *where;   /* with stop: what stopped it (consumer's xstrdup) */
};

struct consumer_ops {
    const char *name;
    /* The DAPTO_STATE_* bits the consumer wants for EV (0: none). */
    unsigned char (*want)(void *arg, const struct registry_event *ev);
    /* An event the consumer wants. */
    void (*deliver)(void *arg, struct dispatch_event *de);
    /* The consumer was disabled (on = 0) or enabled again; may be NULL. */
    void (*notice)(void *arg, int on);
};

struct dispatch *dispatch_create(struct session *s);
void dispatch_free(struct dispatch *d);

/* Add a consumer (enabled); the dispatcher keeps OPS and ARG. */
struct consumer *dispatch_add(struct dispatch *d,
                              const struct consumer_ops *ops, void *arg);
void dispatch_remove(struct dispatch *d, struct consumer *c);
void dispatch_enable(struct dispatch *d, struct consumer *c, int on);
int dispatch_enabled(const struct consumer *c);
const char *dispatch_name(const struct consumer *c);
/* All consumers, in order of addition (for listings). */
unsigned int dispatch_count(const struct dispatch *d);
struct consumer *dispatch_at(const struct dispatch *d, unsigned int i);
void *dispatch_arg(const struct consumer *c);

/* A consumer's wishes changed: the states and the table are recomputed
 * at the next dispatch_flush() (once, however many changes). */
void dispatch_changed(struct dispatch *d);
/* Recompute if anything changed and write the states into the program.
 * Front ends call it after each command; it is also done before each
 * event is delivered, and never while one is being delivered. */
void dispatch_flush(struct dispatch *d);
/* Recompute now (deferred when called during a delivery). */
void dispatch_sync(struct dispatch *d);

/* Hand an item of the program to the consumers; returns 1 when one of
 * them keeps the program stopped, with *where describing why (caller
 * frees). */
int dispatch_item(struct dispatch *d, const struct reader_item *item,
                  char **where);

/* The state written for event EV in the current run. */
unsigned char dispatch_state(const struct dispatch *d,
                             const struct registry_event *ev);

#endif /* NOOSA_DISPATCH_H */
