/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * target-call.c - functions of the program called in one of its stopped
 * threads <design#target>: a call frame set up (target_call), or a call
 * made and waited for with the registers put back after (target_inject).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "target-int.h"
#include "xmalloc.h"

#if defined(__x86_64__)
int target_call(struct target *t, pid_t tid, uint64_t fn, uint64_t arg0,
                uint64_t arg1, uint64_t stack_top, char **cause)
{
    struct user_regs_struct regs;
    uint64_t sp, zero = 0;

    if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0) {
        xcause(cause, "cannot read the registers of thread %d: %s", (int)tid,
               strerror(errno));
        return -1;
    }
    /* A call frame below the red zone (or at the top of the stack given):
     * aligned to 16 before the call, the return address (0: FN never
     * returns) pushed. */
    if (stack_top == 0)
        sp = ((regs.rsp - 128 - 256) & ~(uint64_t)15) - 8;
    else
        sp = (stack_top & ~(uint64_t)15) - 8;
    if (target_write(t, sp, &zero, sizeof zero, NULL) != 0) {
        xcause(cause, "the stack of thread %d cannot take a frame", (int)tid);
        return -2;
    }
    regs.rsp = sp;
    regs.rip = fn;
    regs.rdi = arg0;
    regs.rsi = arg1;
    regs.orig_rax = (uint64_t)-1; /* no system call to restart */
    regs.eflags &= ~(uint64_t)0x400; /* the direction flag, clear at calls */
    target_forget_regs(t, tid);
    if (ptrace(PTRACE_SETREGS, tid, 0, &regs) != 0) {
        xcause(cause, "cannot set the registers of thread %d: %s", (int)tid,
               strerror(errno));
        return -1;
    }
    return 0;
}
#else
int target_call(struct target *t, pid_t tid, uint64_t fn, uint64_t arg0,
                uint64_t arg1, uint64_t stack_top, char **cause)
{
    (void)t;
    (void)fn;
    (void)arg0;
    (void)arg1;
    (void)stack_top;
    xcause(cause, "making thread %d call a function is not supported on "
           "this architecture", (int)tid);
    return -1;
}
#endif

#if defined(__x86_64__)
/* The whole floating-point and vector state of a stopped thread (x87,
 * SSE, AVX, AVX-512: what XSAVE holds), for target_inject(): the function
 * it calls is C, free to use every vector register, and the thread may
 * have been stopped in the middle of code that keeps values there (a
 * memset between two stores of its pattern).  The kernel says how many
 * bytes it wrote; the buffer is large enough for every state it has. */
struct target_xstate {
    struct iovec iov;
    int how; /* 0: none saved, 1: NT_X86_XSTATE, 2: NT_PRFPREG (x87, SSE) */
    _Alignas(64) unsigned char buf[16384];
};

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif
#ifndef NT_PRFPREG
#define NT_PRFPREG 2
#endif

static void target_xstate_save(pid_t tid, struct target_xstate *x)
{
    x->iov.iov_base = x->buf;
    x->iov.iov_len = sizeof x->buf;
    x->how = 0;
    if (ptrace(PTRACE_GETREGSET, tid, (void *)(uintptr_t)NT_X86_XSTATE,
               &x->iov) == 0) {
        x->how = 1;
        return;
    }
    x->iov.iov_len = sizeof(struct user_fpregs_struct);
    if (ptrace(PTRACE_GETREGSET, tid, (void *)(uintptr_t)NT_PRFPREG,
               &x->iov) == 0)
        x->how = 2;
}

/* Put back what target_xstate_save() took: 0, or -1 with errno. */
static int target_xstate_restore(pid_t tid, struct target_xstate *x)
{
    if (x->how == 0)
        return 0;
    return ptrace(PTRACE_SETREGSET, tid,
                  (void *)(uintptr_t)(x->how == 1 ? NT_X86_XSTATE : NT_PRFPREG),
                  &x->iov) == 0
               ? 0
               : -1;
}

int target_inject(struct target *t, pid_t tid, uint64_t fn,
                  const uint64_t args[3], void (*pump)(void *), void *arg,
                  int timeout_ms, uint64_t *ret, char **cause)
{
    struct target_thread *th = target_thread(t, tid);
    struct user_regs_struct saved, regs;
    struct target_xstate *xs;
    uint64_t sp, zero = 0;
    long deadline = target_now_ms() + timeout_ms;
    int saved_sig, rc = -1;

    if (!t->alive || th == NULL || th->state != TH_STOPPED) {
        xcause(cause, "thread %d is not stopped", (int)tid);
        return -1;
    }
    if (th->mid_call) {
        /* its registers do not hold the call's result yet: restoring
         * them would lose it (a clone that seems to fail) */
        xcause(cause, "thread %d is inside a system call", (int)tid);
        return -1;
    }
    if (ptrace(PTRACE_GETREGS, tid, 0, &saved) != 0) {
        xcause(cause, "cannot read the registers of thread %d: %s", (int)tid,
               strerror(errno));
        return -1;
    }
    /* and its vector registers: the call's code clobbers them, and a
     * thread stopped inside memset went on storing what the call left
     * there (a new thread's TLS filled with it) */
    xs = xmalloc(sizeof *xs);
    target_xstate_save(tid, xs);
    if (xs->how == 0) {
        xcause(cause, "cannot read the vector registers of thread %d: %s",
               (int)tid, strerror(errno));
        free(xs);
        return -1;
    }
    /* a call frame below the red zone, aligned, returning to 0 */
    regs = saved;
    sp = ((regs.rsp - 128 - 256) & ~(uint64_t)15) - 8;
    if (target_write(t, sp, &zero, sizeof zero, cause) != 0) {
        free(xs);
        return -1;
    }
    regs.rsp = sp;
    regs.rip = fn;
    regs.rdi = args[0];
    regs.rsi = args[1];
    regs.rdx = args[2];
    regs.rax = 0;
    regs.orig_rax = (uint64_t)-1; /* no system call to restart */
    regs.eflags &= ~(uint64_t)0x400;
    target_forget_regs(t, tid);
    if (ptrace(PTRACE_SETREGS, tid, 0, &regs) != 0) {
        xcause(cause, "cannot set the registers of thread %d: %s", (int)tid,
               strerror(errno));
        free(xs);
        return -1;
    }
    saved_sig = th->pending_sig;
    th->pending_sig = 0;
    t->inject_tid = tid;
    t->inject_done = 0;
    target_resume(t, th);
    for (;;) {
        struct pollfd pfd = {.fd = target_pipe[0], .events = POLLIN};
        long now;

        if (pump != NULL)
            pump(arg);
        t->reap_more = 1;
        target_reap(t);
        if (!t->alive) {
            xcause(cause, "the program ended during the call");
            t->inject_tid = 0;
            free(xs);
            return -1;
        }
        if (t->inject_done)
            break;
        now = target_now_ms();
        if (now >= deadline) {
            /* take the thread back where it is */
            t->inject_tid = 0;
            if (target_stop_thread(t, tid, 2000, NULL) != 0) {
                xcause(cause, "the call in thread %d did not return within "
                       "%d ms and the thread does not stop", (int)tid,
                       timeout_ms);
                free(xs);
                return -1;
            }
            xcause(cause, "the call in thread %d did not return within %d ms",
                   (int)tid, timeout_ms);
            goto restore;
        }
        poll(&pfd, 1, pump != NULL ? 1 : 10);
    }
    t->inject_tid = 0;
    th = target_thread(t, tid);
    if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0) {
        xcause(cause, "cannot read the registers of thread %d: %s", (int)tid,
               strerror(errno));
        goto restore;
    }
    if (regs.rip != 0) {
        xcause(cause, "the call in thread %d crashed at 0x%llx", (int)tid,
               (unsigned long long)regs.rip);
        goto restore;
    }
    *ret = regs.rax;
    rc = 0;
restore:
    target_forget_regs(t, tid);
    th = target_thread(t, tid);
    if (ptrace(PTRACE_SETREGS, tid, 0, &saved) != 0 && rc == 0) {
        xcause(cause, "cannot restore the registers of thread %d: %s",
               (int)tid, strerror(errno));
        rc = -1;
    }
    if (target_xstate_restore(tid, xs) != 0 && rc == 0) {
        xcause(cause, "cannot restore the vector registers of thread %d: %s",
               (int)tid, strerror(errno));
        rc = -1;
    }
    free(xs);
    if (th != NULL)
        th->pending_sig = saved_sig;
    return rc;
}
#else
int target_inject(struct target *t, pid_t tid, uint64_t fn,
                  const uint64_t args[3], void (*pump)(void *), void *arg,
                  int timeout_ms, uint64_t *ret, char **cause)
{
    (void)t;
    (void)fn;
    (void)args;
    (void)pump;
    (void)arg;
    (void)timeout_ms;
    (void)ret;
    xcause(cause, "making thread %d call a function is not supported on "
           "this architecture", (int)tid);
    return -1;
}
#endif
