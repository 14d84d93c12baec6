/* SPDX-License-Identifier: MIT */
/*
 * event.c - the event path: the encoder entry points of generated stubs,
 * the built-in events enter/leave/stopped, and delivery of a record to
 * the trail, the ring or a stop, as the event's state says
 * <protocol#states> (the filter's entry before encoding,
 * dapto_event_filter, is rtfilter.c's).  Everything here is async-signal-safe, allocates
 * nothing, uses no stdio and preserves errno.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dapto.h"
#include "intern.h"
#include "rtbuf.h"
#include "rtfilter.h"
#include "runtime.h"
#include "stop.h"

struct dapto_out *dapto_event_begin(struct dapto_out *o, unsigned char *buf,
                                    size_t size,
                                    const struct dapto_aspect *aspect,
                                    unsigned int index)
{
    /* The header goes at the first 8-aligned byte of BUF. */
    unsigned char *b = (unsigned char *)(((uintptr_t)buf + 7) & ~(uintptr_t)7);

    if (size < (size_t)(b - buf) + DAPTO_EVENT_HEADER) {
        /* no room for a header: an event that goes nowhere */
        o->base = o->p = o->end = buf;
        o->count = 0;
        o->truncated = 1;
        o->aspect = NULL;
        o->index = index;
        return o;
    }
    o->base = b;
    o->p = b + DAPTO_EVENT_HEADER;
    /* ... and the record ends on a word of the buffer: the ring copies
     * whole words <ring.h>. */
    o->end = b + ((size_t)(buf + size - b) & ~(size_t)7);
    o->count = 0;
    o->truncated = 0;
    o->aspect = aspect;
    o->index = index;
    return o;
}

int event_post(struct dapto_record *rec)
{
    int rc;

    if (rt_busy) {
        __atomic_fetch_add(&runtime.ring.hdr->lost, 1, __ATOMIC_RELAXED);
        return -1;
    }
    rt_busy = 1;
    rc = ring_put_inline(&runtime.ring, rec);
    rt_busy = 0;
    return rc;
}

/* An event record for the monitor <protocol#tbuf>: the thread's buffer
 * or the ring (rtbuf.h). */
static int event_record(struct dapto_record *rec)
{
    int rc;

    if (rt_busy) {
        __atomic_fetch_add(&runtime.ring.hdr->lost, 1, __ATOMIC_RELAXED);
        return -1;
    }
    rt_busy = 1;
    rc = rt_record(rec);
    rt_busy = 0;
    return rc;
}

void event_deliver(struct dapto_record *rec, unsigned int st)
{
    if (rt_busy) {
        /* A signal handler interrupted this thread inside the ring. */
        __atomic_fetch_add(&runtime.ring.hdr->lost, 1, __ATOMIC_RELAXED);
        return;
    }
    /* <protocol#trail>: the trail keeps what the monitor is not sent;
     * it keeps what it is sent itself (unless the ring may overwrite) */
    if ((st & DAPTO_STATE_TRAIL) &&
        (!(st & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) ||
         runtime.overwrite)) {
        rt_busy = 1;
        trail_put(&runtime.trail, rec);
        rt_busy = 0;
    }
    if ((st & DAPTO_STATE_STOP) && !rt_in_op)
        stop_event(rec);
    else if (st & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP))
        event_record(rec);
}

/* The end of an encoder: REC's header filled in and REC delivered as
 * verdict V says <protocol#states>: state bits, and the record flags a
 * filter decided in bits 16..31 (rtfilter.h); with DAPTO_STATE_FILTER,
 * the filter decides now, on the record. */
static inline __attribute__((always_inline)) void event_end(struct dapto_out *o,
                                                            unsigned int v)
{
    const struct dapto_aspect *a = o->aspect;
    struct dapto_record *rec;
    unsigned int st = v & RTF_VERDICT_STATE &
                      ~(unsigned int)(DAPTO_STATE_PROFILE | DAPTO_STATE_STACK);

    if (st == 0 || a == NULL || o->index >= a->nevents || !rt_is_attached())
        return;
    rec = (struct dapto_record *)(void *)o->base;
    rec->code = (uint16_t)(a->event_base + o->index);
    rec->flags = (uint16_t)((o->truncated ? DAPTO_RECF_TRUNC : 0) | v >> 16);
    rec->tid = rt_thread();
    rec->aux = 0;
    rec->len = (uint32_t)(o->p - o->base - DAPTO_RECORD_HEADER);
    if (st & DAPTO_STATE_FILTER) {
        /* <protocol#filter>: the filter decides where it goes (before
         * the clock is read: an event it drops costs no timestamp) */
        st = rtfilter_event(rec, rec->code, st);
        if (st == 0)
            return;
    }
    rec->time = rt_now();
    if (DAPTO_LIKELY(RT_RING_ONLY(st))) {
        /* the common case, without a call (the monitor keeps what the
         * trail would) */
        rt_busy = 1;
        rt_record(rec);
        rt_busy = 0;
        return;
    }
    event_deliver(rec, st);
}

void dapto_event_end(struct dapto_out *o)
{
    const struct dapto_aspect *a = o->aspect;

    if (a == NULL || o->index >= a->nevents)
        return;
    /* <protocol#states>: the state is read again as the event commits. */
    event_end(o, *a->events[o->index].state);
}

void dapto_event_end_as(struct dapto_out *o, unsigned int v)
{
    event_end(o, v);
}

/* enter/leave in state ST (the program's stack done): NAME by its
 * intern id when it has one <protocol#intern>. */
static void emit_name_as(unsigned int ev, const char *name, unsigned int st)
{
    uint32_t id;

    if (st == 0 || !rt_is_attached())
        return;
    id = rt_busy || runtime.overwrite ? 0 : intern_lookup(name);
    if (id != 0) {
        /* header, tag and id: 37 bytes, padded to 40 */
        union {
            struct dapto_record rec;
            unsigned char b[40];
        } u;

        u.rec.code = (uint16_t)ev;
        u.rec.flags = 0;
        u.rec.tid = rt_thread();
        u.rec.aux = 0;
        u.rec.len = 5;
        u.b[DAPTO_RECORD_HEADER] = DAPTO_K_ISTR;
        memcpy(u.b + DAPTO_RECORD_HEADER + 1, &id, sizeof id);
        if (st & DAPTO_STATE_FILTER) {
            st = rtfilter_event(&u.rec, ev, st);
            if (st == 0)
                return;
        }
        u.rec.time = rt_now();
        if (DAPTO_LIKELY(RT_RING_ONLY(st))) {
            rt_busy = 1;
            rt_record(&u.rec);
            rt_busy = 0;
            return;
        }
        event_deliver(&u.rec, st);
        return;
    }
    {
        DAPTO_EVENT_BEGIN(&rt_builtin, ev);
        DAPTO_RESULT_STR(name);
        DAPTO_EVENT_END();
    }
}

/* enter/leave: the thread's component stack first when the program keeps
 * it <protocol#relate> (an enter is inside its component, a leave no
 * longer), then the event. */
static void emit_name(unsigned int ev, const char *name)
{
    /* <protocol#cct>: the program's call tree is of functions only */
    unsigned int st = dapto_builtin_state[ev] & ~(unsigned int)DAPTO_STATE_PROFILE;

    if (DAPTO_UNLIKELY(st & DAPTO_STATE_STACK)) {
        rt_rel_name(ev == DAPTO_EV_ENTER, name);
        st &= ~(unsigned int)DAPTO_STATE_STACK;
    }
    emit_name_as(ev, name, st);
}

void dapto_emit_enter(const char *name)
{
    emit_name(DAPTO_EV_ENTER, name);
}

void dapto_emit_leave(const char *name)
{
    emit_name(DAPTO_EV_LEAVE, name);
}

void dapto_emit_stopped(const char *locale, int error)
{
    if (dapto_builtin_state[DAPTO_EV_STOPPED] == 0)
        return;
    {
        DAPTO_EVENT_BEGIN(&rt_builtin, DAPTO_EV_STOPPED);
        DAPTO_RESULT_STR(locale);
        DAPTO_RESULT_INT(error);
        DAPTO_EVENT_END();
    }
}

void rt_rel_emit(const struct rtrel_env *e, struct dapto_record *rec, unsigned int def)
{
    const struct dapto_rel_area *h = (const struct dapto_rel_area *)(const void *)e->area;
    unsigned int st;

    if (def >= DAPTO_REL_DERIVED || !rt_is_attached())
        return;
    st = __atomic_load_n(&h->state[def], __ATOMIC_RELAXED) &
         (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP | DAPTO_STATE_FILTER);
    if (st == 0)
        return;
    rec->code = (uint16_t)(DAPTO_DERIVED_BASE + def);
    rec->tid = rt_thread();
    rec->aux = 0;
    if (st & DAPTO_STATE_FILTER) {
        /* <protocol#filter>: questions and conditions on it */
        st = rtfilter_event(rec, rec->code, st);
        if (st == 0)
            return;
    }
    event_deliver(rec, st);
}

void rt_rel_unwound(const struct dapto_rel_frame *f)
{
    if (f->fn) {
        rt_fn_unwound((void *)(uintptr_t)f->key);
        return;
    }
    emit_name_as(DAPTO_EV_LEAVE, (const char *)(uintptr_t)f->key,
                 dapto_builtin_state[DAPTO_EV_LEAVE] &
                     ~(unsigned int)(DAPTO_STATE_PROFILE | DAPTO_STATE_STACK));
}
