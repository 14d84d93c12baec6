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
#include "rtrail.h"
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

int rt_keep(struct dapto_record *rec)
{
    int rc;

    if (rt_busy)
        return -1; /* (event_deliver() counts it) */
    rt_busy = 1;
    rc = rt_trail_record(rec);
    rt_busy = 0;
    return rc;
}

DAPTO_API DAPTO_NOINLINE void dapto_event_count(const struct dapto_aspect *a, unsigned int index)
{
    /* <protocol#cct>: counted in the thread's call tree, under its
     * current path, by a monitor that reads events there */
    if (a != NULL && index < a->nevents && runtime.named_cct && runtime.q.area != NULL &&
        rt_is_attached())
        rtq_event(&runtime.q, a->event_base + index, rt_thread());
}

void event_deliver(struct dapto_record *rec, unsigned int st)
{
    if (rt_busy) {
        /* A signal handler interrupted this thread inside the ring. */
        __atomic_fetch_add(&runtime.ring.hdr->lost, 1, __ATOMIC_RELAXED);
        return;
    }
    /* <protocol#ttrail>: the thread's own trail keeps every event the
     * trail wants; without one, <protocol#trail>: the shared trail keeps
     * what the monitor is not sent, and the monitor what it is sent
     * (unless the ring may overwrite) */
    if (st & DAPTO_STATE_TRAIL) {
        rt_busy = 1;
        if (rt_trail_record(rec) != 0 &&
            (!(st & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) ||
             runtime.overwrite))
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
                      ~(unsigned int)(DAPTO_STATE_FTRAIL | DAPTO_STATE_STACK);

    if (DAPTO_UNLIKELY(st & DAPTO_STATE_PROFILE)) {
        /* (the built-in enter and leave, which count there, never come
         * here with it) */
        dapto_event_count(a, o->index);
        st &= ~(unsigned int)DAPTO_STATE_PROFILE;
    }
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
    rt_deliver(rec, st);
}

/* The arguments ARGS of event EV at K (dapto.h's dapto_keep_*). */
static void keep_values(struct dapto_keep *k, const struct dapto_event *ev,
                        const union dapto_arg *args)
{
    unsigned int i;

    for (i = 0; i < ev->nparams; i++) {
        switch (ev->params[i].kind) {
        case DAPTO_K_INT:
            dapto_keep_int(k, (int)args[i].i);
            break;
        case DAPTO_K_LONG:
            dapto_keep_long(k, (long)args[i].i);
            break;
        case DAPTO_K_PTR:
            dapto_keep_ptr(k, (const void *)(size_t)args[i].i);
            break;
        case DAPTO_K_DOUBLE:
            dapto_keep_double(k, args[i].d);
            break;
        case DAPTO_K_STR:
            dapto_keep_str(k, args[i].s);
            break;
        default:
            dapto_keep_fixed(k, DAPTO_K_UNKNOWN, k, 0);
            break;
        }
    }
}

/* dapto_event_keep() for a thread without a trail of its own
 * <protocol#ttrail>: the record of the arguments (their values written
 * as into a slot, after a record's header), for the shared trail. */
static __attribute__((noinline)) void keep_record(const struct dapto_event *ev,
                                                  uint32_t code,
                                                  const union dapto_arg *args)
{
    union {
        struct dapto_record rec;
        unsigned char b[DAPTO_EVENT_MAX];
    } u;
    struct dapto_keep k;

    /* (the slot's values start 8 bytes in: the record's, at its header's
     * end) */
    k.slot = u.b + DAPTO_RECORD_HEADER - 8;
    k.at = 8;
    k.end = sizeof u.b - (DAPTO_RECORD_HEADER - 8);
    keep_values(&k, ev, args);
    u.rec.code = (uint16_t)code;
    /* (a value cut or left out leaves no room: maybe cut, then) */
    u.rec.flags = k.end == k.at ? DAPTO_RECF_TRUNC : 0;
    u.rec.tid = rt_thread();
    u.rec.aux = 0;
    u.rec.len = (uint32_t)(k.at - 8);
    rt_deliver(&u.rec, DAPTO_STATE_TRAIL);
}

/* Keep event EV of code CODE from its arguments ARGS in the thread's own
 * trail: 0, or -1 when the thread has none. */
static int keep_args(const struct dapto_event *ev, uint32_t code,
                     const union dapto_arg *args)
{
    struct dapto_keep k;

    if (!rt_keep_begin(&k))
        /* (busy: counted lost) */
        return dapto_trail_self.key & DAPTO_KEEP_BUSY ? 0 : -1;
    keep_values(&k, ev, args);
    dapto_keep_end_code(&k, code);
    return 0;
}

DAPTO_API void dapto_event_keep(const struct dapto_aspect *a, unsigned int index,
                                const union dapto_arg *args)
{
    if (DAPTO_UNLIKELY(a == NULL || index >= a->nevents) || !rt_is_attached())
        return;
    if (keep_args(&a->events[index], a->event_base + index, args) != 0)
        keep_record(&a->events[index], a->event_base + index, args);
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

/* enter/leave in state ST (the program's stack done): counted in the
 * thread's call tree, and NAME by its intern id when it has one
 * <protocol#intern>. */
static void emit_name_as(unsigned int ev, const char *name, unsigned int st)
{
    uint32_t id;

    if (st & DAPTO_STATE_PROFILE) {
        /* <protocol#cct>: the component in the program's call tree, by
         * its intern id (its name crosses once), else by its address */
        if (rt_is_attached() && runtime.q.area != NULL && name != NULL &&
            runtime.named_cct) {
            id = rt_busy || runtime.overwrite ? 0 : intern_lookup(name);
            rtq_function(&runtime.q, ev == DAPTO_EV_ENTER,
                         DAPTO_CCT_NAMED | (id != 0 ? id
                                                    : DAPTO_CCT_ADDR | (uintptr_t)name),
                         rt_thread());
        }
        st &= ~(unsigned int)DAPTO_STATE_PROFILE;
    }
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
        rt_deliver(&u.rec, st);
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
    /* (DAPTO_STATE_FTRAIL is the functions') */
    unsigned int st = dapto_builtin_state[ev] & ~(unsigned int)DAPTO_STATE_FTRAIL;

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
    /* (the program's tree has its own way with a leave that skips
     * frames: not told of these) */
    emit_name_as(DAPTO_EV_LEAVE, (const char *)(uintptr_t)f->key,
                 dapto_builtin_state[DAPTO_EV_LEAVE] &
                     ~(unsigned int)(DAPTO_STATE_PROFILE | DAPTO_STATE_STACK |
                                     DAPTO_STATE_FTRAIL));
}
