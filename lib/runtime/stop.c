/* SPDX-License-Identifier: MIT */
/*
 * stop.c - synchronous stops <protocol#stop>: the emitting thread takes a
 * mailbox, commits its event, and waits there serving the monitor's
 * operation requests, each under a recovery point, until it is resumed.
 *
 * The recovery point: while an operation runs, handlers for the fatal
 * signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) are installed
 * process-wide, with the thread on an alternate signal stack; a signal in
 * that thread ends the operation with siglongjmp and DAPTO_OP_CRASHED.  A
 * fatal signal in any other thread meanwhile goes to the handler that was
 * there before.  The previous handlers come back when the last operation
 * running ends.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "futex.h"
#include "rtlog.h"
#include "runtime.h"
#include "stop.h"

/* How long a stopped thread spins before sleeping, with spare CPUs: in
 * pauses, about 50 us (a pause takes 24 ns on our AMD VMs, up to twice
 * that on Intel's since Skylake), not by a clock: noosa unwinds a thread
 * stopped at an event while it spins here, and one caught inside the C
 * library's clock_gettime(), in the vDSO, whose unwinding information
 * libunwind does not read from the process, gave a broken stack (no frame
 * of the program: `display` at a stop failed about 1 run in 40 under
 * load, tests/debug/display.sh). */
#define STOP_SPIN_PAUSES 2048

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NFAULT (sizeof fault_signals / sizeof fault_signals[0])

/* The handlers in place before ours, saved when the first operation
 * starts, restored when the last one ends; under handlers_lock. */
static struct sigaction saved_handlers[NFAULT];
static unsigned int handlers_users;
static uint32_t handlers_lock;

struct recovery {
    sigjmp_buf env;
    int signo;
    void *addr;
    int interrupted; /* by the monitor, through stop_interrupt() */
};

/* The recovery point of the operation this thread runs, or NULL. */
static RT_TLS __thread struct recovery *recovery;

/* A fatal signal not meant for a recovery point: do what would have been
 * done without us. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *old = NULL;
    struct sigaction dfl;
    unsigned int k;

    for (k = 0; k < NFAULT; k++)
        if (fault_signals[k] == sig)
            old = &saved_handlers[k];
    if (old != NULL && (old->sa_flags & SA_SIGINFO) != 0 &&
        old->sa_sigaction != NULL) {
        old->sa_sigaction(sig, si, uc);
        return;
    }
    if (old != NULL && old->sa_handler == SIG_IGN)
        return;
    if (old != NULL && old->sa_handler != SIG_DFL) {
        old->sa_handler(sig);
        return;
    }
    /* Default action: reinstate it; a fault recurs on return, a sent
     * signal is sent again. */
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    if (si == NULL || si->si_code <= 0)
        raise(sig);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    struct recovery *r = recovery;

    if (r == NULL) {
        chain(sig, si, uc);
        return;
    }
    recovery = NULL;
    r->signo = sig;
    r->addr = (si != NULL && si->si_code > 0 && sig != SIGABRT) ? si->si_addr
                                                                : NULL;
    siglongjmp(r->env, 1);
}

void stop_interrupt(void)
{
    struct recovery *r = recovery;

    /* (the monitor calls this only while op_active is 1) */
    if (r == NULL)
        abort();
    recovery = NULL;
    r->interrupted = 1;
    siglongjmp(r->env, 1);
}

static void handlers_take(void)
{
    struct sigaction sa;
    unsigned int k;

    spin_lock(&handlers_lock);
    if (handlers_users++ == 0) {
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        for (k = 0; k < NFAULT; k++)
            sigaction(fault_signals[k], &sa, &saved_handlers[k]);
    }
    spin_unlock(&handlers_lock);
}

static void handlers_give(void)
{
    unsigned int k;

    spin_lock(&handlers_lock);
    if (--handlers_users == 0)
        for (k = 0; k < NFAULT; k++)
            sigaction(fault_signals[k], &saved_handlers[k], NULL);
    spin_unlock(&handlers_lock);
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGABRT:
        return "SIGABRT";
    default:
        return "a signal";
    }
}

/* The operation with code OP and its aspect, or NULL. */
static const struct dapto_operation *find_op(uint32_t op)
{
    const struct dapto_aspect *a;

    for (a = rt_aspects(); a != NULL;
         a = __atomic_load_n(&a->next, __ATOMIC_ACQUIRE))
        if (op >= a->op_base && op - a->op_base < a->nops)
            return &a->ops[op - a->op_base];
    return NULL;
}

static const char *kind_name(unsigned int kind)
{
    switch (kind) {
    case DAPTO_K_INT:
        return "an int";
    case DAPTO_K_LONG:
        return "a long";
    case DAPTO_K_DOUBLE:
        return "a double";
    case DAPTO_K_STR:
        return "a string";
    case DAPTO_K_PTR:
        return "a pointer";
    default:
        return "a value";
    }
}

size_t stop_check_args(const struct dapto_operation *op,
                       const unsigned char *p, size_t len, char *msg,
                       size_t msgsize)
{
    const unsigned char *end = p + len;
    unsigned int i, tag, want;
    size_t n;
    uint32_t slen;

    for (i = 0; i < op->nparams; i++) {
        want = op->params[i].kind;
        if (p >= end)
            return rtlog_format(msg, msgsize,
                                "%s takes %u arguments, %u given", op->name,
                                (unsigned int)op->nparams, i);
        tag = *p & ~DAPTO_K_TRUNC;
        switch (tag) {
        case DAPTO_K_INT:
            n = 4;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_DOUBLE:
        case DAPTO_K_PTR:
            n = 8;
            break;
        case DAPTO_K_UNKNOWN:
            n = 0;
            break;
        case DAPTO_K_STR:
            if (end - p < 5)
                goto malformed;
            memcpy(&slen, p + 1, 4);
            if ((size_t)(end - p - 5) < (size_t)slen + 1 || p[5 + slen] != '\0')
                goto malformed;
            n = 4 + (size_t)slen + 1;
            break;
        default:
            goto malformed;
        }
        if ((size_t)(end - p - 1) < n)
            goto malformed;
        if (want >= DAPTO_K_INT && want <= DAPTO_K_PTR && tag != want)
            return rtlog_format(msg, msgsize,
                                "argument %u (%s) of %s: expected %s", i + 1,
                                op->params[i].name, op->name, kind_name(want));
        p += 1 + n;
    }
    if (p != end)
        return rtlog_format(msg, msgsize, "%s takes %u arguments, more given",
                            op->name, (unsigned int)op->nparams);
    return 0;

malformed:
    return rtlog_format(msg, msgsize, "argument %u of %s is malformed", i + 1,
                        op->name);
}

/* Run operation OP (found) with arguments ARGS (LEN bytes, a private
 * copy) under a recovery point; results and outcome go into MB. */
static void run_op(struct dapto_mailbox *mb, const struct dapto_operation *op,
                   unsigned char *args, uint32_t len, unsigned char *altstack)
{
    struct recovery rp;
    struct dapto_in in;
    struct dapto_out out;
    stack_t ss, old_ss;
    volatile int have_ss = 0;

    memset(&in, 0, sizeof in);
    in.p = args;
    in.end = args + len;
    memset(&out, 0, sizeof out);
    out.base = out.p = mb->data;
    out.end = mb->data + DAPTO_MBOX_DATA;

    ss.ss_sp = altstack;
    ss.ss_size = RT_ALTSTACK;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, &old_ss) == 0)
        have_ss = 1;
    handlers_take();
    rp.interrupted = 0;
    if (sigsetjmp(rp.env, 1) == 0) {
        recovery = &rp;
        rt_in_op = 1;
        __atomic_store_n(&mb->op_active, 1, __ATOMIC_SEQ_CST);
        op->fn(&in, &out);
        __atomic_store_n(&mb->op_active, 0, __ATOMIC_SEQ_CST);
        recovery = NULL;
        rt_in_op = 0;
        handlers_give();
    } else if (rp.interrupted) {
        /* The monitor made this thread call stop_interrupt(). */
        mb->op_active = 0;
        rt_in_op = 0;
        handlers_give();
        mb->status = DAPTO_OP_INTERRUPTED;
        mb->res_len = 0;
        rtlog_format(mb->message, sizeof mb->message,
                     "operation %s was interrupted by the monitor", op->name);
        if (have_ss)
            sigaltstack(&old_ss, NULL);
        return;
    } else {
        /* Back from a fatal signal: on_fault cleared recovery. */
        mb->op_active = 0;
        rt_in_op = 0;
        handlers_give();
        mb->status = DAPTO_OP_CRASHED;
        mb->signo = rp.signo;
        mb->fault_addr = (uint64_t)(uintptr_t)rp.addr;
        mb->res_len = 0;
        rtlog_format(mb->message, sizeof mb->message,
                     "operation %s crashed with %s (signal %d) at %p",
                     op->name, signal_name(rp.signo), rp.signo, rp.addr);
        if (have_ss)
            sigaltstack(&old_ss, NULL);
        return;
    }
    if (have_ss)
        sigaltstack(&old_ss, NULL);
    if (in.failed) {
        mb->status = DAPTO_OP_ARGS;
        mb->res_len = 0;
        rtlog_format(mb->message, sizeof mb->message, "%s: %s", op->name,
                     in.message);
    } else if (out.truncated) {
        mb->status = DAPTO_OP_OVERFLOW;
        mb->res_len = (uint32_t)(out.p - mb->data);
        rtlog_format(mb->message, sizeof mb->message,
                     "%s: the results do not fit in %u bytes", op->name,
                     DAPTO_MBOX_DATA);
    } else {
        mb->status = DAPTO_OP_OK;
        mb->res_len = (uint32_t)(out.p - mb->data);
    }
}

/* Answer the request in mailbox MB (number I). */
static void serve(struct dapto_mailbox *mb, uint32_t i)
{
    unsigned char *scratch = runtime.scratch + (size_t)i * RT_SCRATCH;
    const struct dapto_operation *op;
    uint32_t code = mb->op, len = mb->req_len;

    mb->status = DAPTO_OP_OK;
    mb->res_len = 0;
    mb->signo = 0;
    mb->fault_addr = 0;
    mb->message[0] = '\0';
    op = find_op(code);
    if (op == NULL || op->fn == NULL) {
        mb->status = DAPTO_OP_UNKNOWN;
        rtlog_format(mb->message, sizeof mb->message,
                     "no operation with code %u", code);
        return;
    }
    if (len > DAPTO_MBOX_DATA) {
        mb->status = DAPTO_OP_ARGS;
        rtlog_format(mb->message, sizeof mb->message,
                     "%s: %u bytes of arguments is more than the mailbox holds",
                     op->name, len);
        return;
    }
    memcpy(scratch, mb->data, len);
    if (stop_check_args(op, scratch, len, mb->message, sizeof mb->message) != 0) {
        mb->status = DAPTO_OP_ARGS;
        return;
    }
    run_op(mb, op, scratch, len, scratch + DAPTO_MBOX_DATA);
}

/* Wait until MB leaves state S: spin briefly when there are spare CPUs,
 * then sleep on the futex.  A monitor that let the program go
 * <protocol#letgo> counts as a resume. */
static uint32_t wait_change(struct dapto_mailbox *mb, uint32_t s)
{
    uint32_t v;
    unsigned int k;

    if (runtime.ring.spin != 0) {
        cpu_say(&runtime.ring.hdr->program_cpu);
        for (k = 0; k < STOP_SPIN_PAUSES; k++) {
            v = __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE);
            if (v != s)
                return v;
            if (k % 64 == 63 && cpu_yield_pays(&runtime.ring.hdr->monitor_cpu))
                sched_yield(); /* the monitor may need this CPU */
            cpu_relax();
        }
    }
    for (;;) {
        v = __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE);
        if (v != s)
            return v;
        if (ring_let_go(&runtime.ring) || rt_monitor_gone())
            return DAPTO_MB_RESUME;
        futex_wait(&mb->state, s, 1000);
    }
}

/* Take a free mailbox: its number, or -1 after waiting when none is free
 * and the process detached or was let go meanwhile. */
static int claim(void)
{
    uint32_t i, free_state;
    struct timespec ts = {0, 200000};

    for (;;) {
        for (i = 0; i < runtime.region.geom.mbox_count; i++) {
            struct dapto_mailbox *mb = region_mailbox(&runtime.region, i);

            free_state = DAPTO_MB_FREE;
            if (__atomic_compare_exchange_n(&mb->state, &free_state,
                                            DAPTO_MB_CLAIMED, 0,
                                            __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED))
                return (int)i;
        }
        if (!rt_is_attached() || ring_let_go(&runtime.ring))
            return -1;
        nanosleep(&ts, NULL);
    }
}

void stop_event(struct dapto_record *rec)
{
    struct dapto_mailbox *mb;
    uint32_t s;
    int i, saved = errno;

    i = claim();
    if (i < 0) {
        errno = saved;
        return;
    }
    mb = region_mailbox(&runtime.region, (uint32_t)i);
    mb->tid = rec->tid;
    __atomic_store_n(&mb->state, DAPTO_MB_STOPPED, __ATOMIC_RELEASE);
    rec->flags |= DAPTO_RECF_STOP;
    rec->aux = (uint32_t)i;
    event_post(rec);
    ring_wake(&runtime.ring);

    s = DAPTO_MB_STOPPED;
    for (;;) {
        s = wait_change(mb, s);
        if (s == DAPTO_MB_REQUEST) {
            __atomic_store_n(&mb->state, DAPTO_MB_RUNNING, __ATOMIC_RELAXED);
            serve(mb, (uint32_t)i);
            __atomic_store_n(&mb->state, DAPTO_MB_DONE, __ATOMIC_RELEASE);
            ring_wake(&runtime.ring);
            s = DAPTO_MB_DONE;
            continue;
        }
        if (s != DAPTO_MB_RESUME)
            rtlog_error("mailbox %d: the monitor wrote state %u; resuming",
                        i, s);
        break;
    }
    __atomic_store_n(&mb->state, DAPTO_MB_FREE, __ATOMIC_RELEASE);
    errno = saved;
}
