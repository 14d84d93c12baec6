/* SPDX-License-Identifier: MIT */
/*
 * runtime.c - registration of monitoring interfaces and the event entry
 * points.  Without a monitor (the only case this version handles) every
 * state byte stays zero, so stubs never call in here; the entry points are
 * still safe to call and do nothing.
 */
#include <pthread.h>
#include <stddef.h>

#include "dapto.h"
#include "protocol.h"

dapto_state_t dapto_builtin_state[DAPTO_EV_BUILTINS];

/* Registered aspects, newest first; guarded by reg_lock. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dapto_aspect *aspects;
static unsigned int next_event = DAPTO_EV_BUILTINS;
static unsigned int next_op;

void dapto_register(struct dapto_aspect *a)
{
    if (a == NULL || a->abi != DAPTO_ABI_VERSION)
        return;
    pthread_mutex_lock(&reg_lock);
    a->event_base = next_event;
    a->op_base = next_op;
    next_event += a->nevents;
    next_op += a->nops;
    a->next = aspects;
    aspects = a;
    pthread_mutex_unlock(&reg_lock);
}

int dapto_monitored(void)
{
    return 0;
}

struct dapto_out *dapto_event_begin(struct dapto_out *o, unsigned char *buf,
                                    size_t size,
                                    const struct dapto_aspect *aspect,
                                    unsigned int index)
{
    o->base = buf;
    o->p = buf + DAPTO_EVENT_HEADER;
    o->end = buf + size;
    o->count = 0;
    o->truncated = 0;
    o->aspect = aspect;
    o->index = index;
    return o;
}

void dapto_event_end(struct dapto_out *o)
{
    (void)o;
}

void dapto_emit_stopped(const char *locale, int error)
{
    (void)locale;
    (void)error;
}

void dapto_emit_enter(const char *name)
{
    (void)name;
}

void dapto_emit_leave(const char *name)
{
    (void)name;
}
