/* SPDX-License-Identifier: MIT */
/*
 * instrument.c - automatic instrumentation: the hooks that code compiled
 * with gcc's or clang's -finstrument-functions calls at the entry and exit
 * of every function.  Linking a program with libdapto is all it takes to
 * get a component stack of its functions, with no change to its source
 * (the idea of the Saint stand-alone instrumenter: the instrumenter is
 * apart from the monitor and needs nothing from it).
 *
 * A hook writes a DAPTO_REC_FNENTER or DAPTO_REC_FNLEAVE record (the
 * function's address and the call site) when the state of the built-in
 * event enter (for entries) or leave (for exits) asks for more than the
 * trail (which keeps functions only with DAPTO_STATE_FTRAIL); the monitor
 * turns addresses into names.  A function record stops the program as an
 * event does, where a breakpoint (or a handler that needs a stop) asks for
 * it on enter or leave; conditions, which read the function's name, are
 * then noosa's to evaluate.  Off, a hook costs
 * a call, one load and one predictable branch.  Like the rest of the event
 * path it allocates nothing, uses no stdio, is async-signal-safe and keeps
 * errno.
 *
 * Not a place for anything else: these functions, and everything they
 * call, must never be instrumented themselves.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dapto.h"
#include "rtfilter.h"
#include "rtrail.h"
#include "runtime.h"

#define NOINSTR __attribute__((no_instrument_function))

DAPTO_API NOINSTR void __cyg_profile_func_enter(void *fn, void *site);
DAPTO_API NOINSTR void __cyg_profile_func_exit(void *fn, void *site);

/* Header, two tagged pointers: 50 bytes, written as 56 (whole words). */
#define FN_RECORD_LEN (2 * (1 + 8))
#define FN_RECORD_SIZE 56

/* The hooks' functions below are named _dapto_ as the runtime's frames are
 * known by name (src/debug/frames.c): the hooks tail-call them, so at a
 * stop at a function record the innermost runtime frame may be any of
 * them, and a backtrace starts at the program's function after it. */

static NOINSTR __attribute__((noinline)) void _dapto_fn_record(unsigned int st, uint16_t code, void *fn,
                              void *site)
{
    union {
        struct dapto_record rec;
        unsigned char b[FN_RECORD_SIZE];
    } u;
    uint64_t f = (uint64_t)(uintptr_t)fn, s = (uint64_t)(uintptr_t)site;
    int saved;

    if (!rt_is_attached())
        return;
    saved = errno;
    u.rec.code = code;
    u.rec.flags = 0;
    u.rec.tid = rt_thread();
    u.rec.aux = 0;
    u.rec.len = FN_RECORD_LEN;
    u.b[DAPTO_RECORD_HEADER] = DAPTO_K_PTR;
    memcpy(u.b + DAPTO_RECORD_HEADER + 1, &f, 8);
    u.b[DAPTO_RECORD_HEADER + 9] = DAPTO_K_PTR;
    memcpy(u.b + DAPTO_RECORD_HEADER + 10, &s, 8);
    memset(u.b + DAPTO_RECORD_HEADER + FN_RECORD_LEN, 0,
           FN_RECORD_SIZE - DAPTO_RECORD_HEADER - FN_RECORD_LEN);
    /* <protocol#filter>: conditions on enter and leave read the name,
     * which a function record does not carry (it has two addresses, the
     * name is noosa's to find): noosa decides for it, so it goes there
     * unfiltered, and waits where a clause (a breakpoint's) might want it
     * to */
    if (st & DAPTO_STATE_FILTER)
        st = (st & ~(unsigned int)DAPTO_STATE_FILTER) | DAPTO_STATE_RECORD |
             rtfilter_bits(code == DAPTO_REC_FNENTER ? DAPTO_EV_ENTER
                                                     : DAPTO_EV_LEAVE);
    rt_deliver(&u.rec, st);
    errno = saved;
}

/* A hook whose event is on, in state ST (not the call tree alone): FN
 * counted in the program's own call tree <protocol#cct> when the state
 * says so, and a record CODE when it says more. */
static NOINSTR __attribute__((noinline)) void _dapto_hook_more(unsigned int st, int enter,
                                                        uint16_t code, void *fn, void *site)
{
    if (st & DAPTO_STATE_PROFILE) {
        if (rt_is_attached() && runtime.q.area != NULL)
            rtq_function(&runtime.q, enter, (uint64_t)(uintptr_t)fn, rt_thread());
        st &= ~(unsigned int)DAPTO_STATE_PROFILE;
    }
    /* the trail keeps functions only when asked to (DAPTO_STATE_FTRAIL) */
    if (!(st & DAPTO_STATE_FTRAIL))
        st &= ~(unsigned int)DAPTO_STATE_TRAIL;
    st &= ~(unsigned int)DAPTO_STATE_FTRAIL;
    if (st == 0)
        return;
    _dapto_fn_record(st, code, fn, site);
}

/* A hook whose event is on, in state ST.  Apart from the hooks, so that
 * a hook whose event is off stays a load and a branch; the call tree
 * alone (the time profile in the program) goes straight to it. */
static NOINSTR __attribute__((noinline)) void _dapto_hook_on(unsigned int st, int enter,
                                                      uint16_t code, void *fn, void *site)
{
    if (DAPTO_UNLIKELY(st & DAPTO_STATE_STACK)) {
        /* <protocol#relate>: the thread's component stack first */
        rt_rel_fn(enter, fn);
        st &= ~(unsigned int)DAPTO_STATE_STACK;
        if ((st & ~(unsigned int)DAPTO_STATE_TRAIL) == 0)
            return;
    }
    if (DAPTO_LIKELY((st & ~(unsigned int)DAPTO_STATE_TRAIL) == DAPTO_STATE_PROFILE)) {
        /* (rtq_function finds a detached runtime's area gone) */
        if (DAPTO_LIKELY(rt_tid != 0))
            rtq_function(&runtime.q, enter, (uint64_t)(uintptr_t)fn, rt_tid);
        else
            _dapto_hook_more(st, enter, code, fn, site);
        return;
    }
    _dapto_hook_more(st, enter, code, fn, site);
}

/* The hooks: while nothing but the trail wants enter and leave (the
 * trail of named components, which functions are not kept in unless
 * DAPTO_STATE_FTRAIL says so), a load and a branch. */
DAPTO_API NOINSTR void __cyg_profile_func_enter(void *fn, void *site)
{
    unsigned int st = dapto_builtin_state[DAPTO_EV_ENTER];

    if (DAPTO_LIKELY((st & ~(unsigned int)DAPTO_STATE_TRAIL) == 0))
        return;
    _dapto_hook_on(st, 1, DAPTO_REC_FNENTER, fn, site);
}

DAPTO_API NOINSTR void __cyg_profile_func_exit(void *fn, void *site)
{
    unsigned int st = dapto_builtin_state[DAPTO_EV_LEAVE];

    if (DAPTO_LIKELY((st & ~(unsigned int)DAPTO_STATE_TRAIL) == 0))
        return;
    _dapto_hook_on(st, 0, DAPTO_REC_FNLEAVE, fn, site);
}

/* The exit of FN, which the runtime popped from the thread's component
 * stack at a recovery point <protocol#relate>: counted and recorded as
 * the hook would have. */
NOINSTR void rt_fn_unwound(void *fn)
{
    unsigned int st = dapto_builtin_state[DAPTO_EV_LEAVE] & ~(unsigned int)DAPTO_STATE_STACK;

    if ((st & ~(unsigned int)DAPTO_STATE_TRAIL) != 0)
        _dapto_hook_on(st, 0, DAPTO_REC_FNLEAVE, fn, NULL);
}
