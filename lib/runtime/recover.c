/* SPDX-License-Identifier: MIT */
/*
 * recover.c - recovery points and reported errors <protocol#recover>.
 *
 * Each thread keeps its recovery points in a chain through their own
 * frames (innermost first) and, while it is inside one or reports an
 * error, a slot of the recovery table that the monitor reads: depth,
 * innermost point, the error being reported.  The runtime never converts
 * anything by itself: a fault inside a recovery point is delivered as
 * usual unless the monitor, holding the faulting thread under ptrace,
 * makes it call recover_resume(), which jumps to the innermost point.
 * Nothing here allocates; push, pop and resume are async-signal-safe.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dapto.h"
#include "protocol.h"
#include "rtlog.h"
#include "runtime.h"

_Static_assert(sizeof(((struct dapto_recovery *)0)->mask) >= sizeof(sigset_t),
               "struct dapto_recovery cannot hold a sigset_t");

/* States of a struct dapto_recovery. */
enum {
    RP_ACTIVE = 1, /* in the thread's chain */
    RP_FAILED = 2, /* unlinked by recover_resume: the block failed */
    RP_DONE = 3    /* popped */
};

#define RECOVER_STACK (64u << 10)

static void recover_resume(int signo, uint64_t addr);

/* The table the monitor reads.  Slots are claimed by compare-and-swap of
 * tid and written only by their thread; verdict and stack_busy are also
 * written by the monitor while the thread is stopped. */
static struct dapto_recover_table table = {
    .magic = DAPTO_RECOVER_MAGIC,
    .nslots = DAPTO_RECOVER_SLOTS,
};

/* The stack recover_resume() may run on; see stack_busy. */
static _Alignas(64) unsigned char resume_stack[RECOVER_STACK];

/* The calling thread's innermost recovery point, depth and slot (index
 * + 1, 0 when it holds none). */
static RT_TLS __thread struct dapto_recovery *top;
static RT_TLS __thread unsigned int depth;
static RT_TLS __thread unsigned int slot_plus1;

/* Let the monitor find the table: once attached, rt_recover holds its
 * address <protocol#recover>. */
static void publish(void)
{
    uint64_t a = (uint64_t)(uintptr_t)&table;

    if (!rt_is_attached())
        return;
    if (__atomic_load_n(&runtime.region.hdr->rt_recover, __ATOMIC_RELAXED) != a) {
        table.resume = (uint64_t)(uintptr_t)recover_resume;
        table.stack = (uint64_t)(uintptr_t)resume_stack;
        table.stack_size = RECOVER_STACK;
        __atomic_store_n(&runtime.region.hdr->rt_recover, a, __ATOMIC_RELEASE);
    }
}

/* This thread's slot, claimed if need be; NULL when all are taken (the
 * monitor then cannot see this thread's recovery points). */
static struct dapto_recover_slot *slot_get(void)
{
    uint32_t tid, zero;
    unsigned int i;

    if (slot_plus1 != 0)
        return &table.slots[slot_plus1 - 1];
    tid = rt_thread();
    for (i = 0; i < DAPTO_RECOVER_SLOTS; i++) {
        zero = 0;
        if (__atomic_compare_exchange_n(&table.slots[i].tid, &zero, tid, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            slot_plus1 = i + 1;
            publish();
            return &table.slots[i];
        }
    }
    return NULL;
}

/* Give the slot back when the thread no longer needs it. */
static void slot_put(void)
{
    struct dapto_recover_slot *s;

    if (slot_plus1 == 0 || depth != 0)
        return;
    s = &table.slots[slot_plus1 - 1];
    if (s->error != DAPTO_RE_NONE)
        return;
    s->point = 0;
    s->depth = 0;
    s->verdict = 0;
    slot_plus1 = 0;
    __atomic_store_n(&s->tid, 0, __ATOMIC_RELEASE);
}

/* Publish the chain's state in the slot. */
static void slot_sync(void)
{
    struct dapto_recover_slot *s = depth != 0 ? slot_get() : NULL;

    if (s != NULL) {
        s->point = (uint64_t)(uintptr_t)top;
        __atomic_store_n(&s->depth, depth, __ATOMIC_RELEASE);
    } else if (slot_plus1 != 0) {
        table.slots[slot_plus1 - 1].point = 0;
        table.slots[slot_plus1 - 1].depth = 0;
        slot_put();
    }
}

void dapto_recover_push(struct dapto_recovery *rp, const char *file,
                        const char *func, int line)
{
    int saved = errno;

    rp->file = file;
    rp->func = func;
    rp->line = line;
    rp->signo = 0;
    rp->addr = NULL;
    pthread_sigmask(SIG_BLOCK, NULL, (sigset_t *)(void *)rp->mask);
    publish();
    rp->prev = top;
    rp->state = RP_ACTIVE;
    rp->depth = ++depth;
    top = rp;
    slot_sync();
    /* <protocol#relate>: the component stack to come back to */
    rt_rel_try(rp->depth);
    errno = saved;
}

int dapto_recover_pop(struct dapto_recovery *rp)
{
    if (rp->state == RP_FAILED) {
        rp->state = RP_DONE;
        return 1;
    }
    if (rp->state != RP_ACTIVE)
        return 0;
    /* Unlink RP, and with it any inner point left without a pop: those
     * are in frames that are gone, so nothing of theirs is read; RP
     * itself knows what was outside it. */
    top = rp->prev;
    depth = rp->depth - 1;
    rp->state = RP_DONE;
    slot_sync();
    return 0;
}

int dapto_recover_depth(void)
{
    return (int)depth;
}

/*
 * Where the monitor sends a thread whose error it converts: it held the
 * thread at the signal (never delivered), pointed its registers here and
 * let it go.  The thread fails its innermost recovery point.
 */
static void recover_resume(int signo, uint64_t addr)
{
    struct dapto_recovery *rp = top;

    /* A fault inside the runtime's own writing leaves this set. */
    rt_busy = 0;
    __atomic_store_n(&table.stack_busy, 0, __ATOMIC_RELEASE);
    if (rp == NULL) {
        /* The monitor checked the depth; a program that broke its chain
         * gets what it would have got. */
        rtlog_error("no recovery point to resume at; raising signal %d",
                    signo);
        signal(signo, SIG_DFL);
        raise(signo);
        _exit(128 + signo);
    }
    top = rp->prev;
    depth = rp->depth - 1;
    rp->signo = signo;
    rp->addr = (void *)(uintptr_t)addr;
    rp->state = RP_FAILED;
    slot_sync();
    /* <protocol#relate>: the components entered inside the block are
     * left (with their leaves), as the frames that held them are */
    rt_rel_resume(rp->depth);
    pthread_sigmask(SIG_SETMASK, (const sigset_t *)(const void *)rp->mask,
                    NULL);
    longjmp(rp->env, 1);
}

int dapto_error(const char *format, ...)
{
    char msg[DAPTO_ERROR_MESSAGE], line[DAPTO_ERROR_MESSAGE + 128];
    struct dapto_recover_slot *s;
    sigset_t abrt, old;
    va_list ap;
    size_t n;
    int converted = 0;

    va_start(ap, format);
    vsnprintf(msg, sizeof msg, format != NULL ? format : "(null)", ap);
    va_end(ap);
    n = rtlog_format(line, sizeof line, "%s: %s\n",
                     program_invocation_short_name, msg);
    if (write(STDERR_FILENO, line, n) < 0) {
        /* nothing to do about it */
    }

    /* Under a monitor: stop at SIGABRT with the message in our slot; the
     * monitor converts (verdict) or delivers the signal. */
    s = rt_is_attached() ? slot_get() : NULL;
    if (s != NULL) {
        s->verdict = 0;
        s->message = (uint64_t)(uintptr_t)msg;
        __atomic_store_n(&s->error, DAPTO_RE_REPORTED, __ATOMIC_RELEASE);
        sigemptyset(&abrt);
        sigaddset(&abrt, SIGABRT);
        pthread_sigmask(SIG_UNBLOCK, &abrt, &old);
        raise(SIGABRT);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        converted = __atomic_load_n(&s->verdict, __ATOMIC_ACQUIRE) ==
                    DAPTO_VERDICT_CONVERT;
        s->error = DAPTO_RE_NONE;
        s->message = 0;
        s->verdict = 0;
        slot_put();
    }
    if (converted)
        return DAPTO_CONVERTED;
    abort();
}
