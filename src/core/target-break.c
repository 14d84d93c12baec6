/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * target-break.c - what noosa changes in the program's memory
 * <design#probes> <design#target>: breakpoints at probe sites (a hit
 * reported, the instruction replaced carried out), counters and patched
 * code; all undone in a child that does not share the memory and at
 * detach, and the children made by vfork, which share it, watched until
 * they execute or end.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "target-int.h"
#include "xmalloc.h"

struct target_bp *target_bp_find(const struct target *t, uint64_t addr)
{
    unsigned int lo = 0, hi = t->nbps;

    while (lo < hi) {
        unsigned int mid = (lo + hi) / 2;

        if (t->bps[mid].addr == addr)
            return &t->bps[mid];
        if (t->bps[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Whether noosa has changed anything in the program's memory. */
static int target_changed_memory(const struct target *t)
{
    for (unsigned int i = 0; i < t->nbps; i++)
        if (t->bps[i].live)
            return 1;
    return t->ncnts > 0 || t->npatches > 0;
}

/* /proc/PID/mem of process PID, for reading and writing. */
static int target_open_mem(pid_t pid)
{
    char path[64];

    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    return open(path, O_RDWR | O_CLOEXEC);
}

int target_write_code(struct target *t, uint64_t addr, const void *buf,
                      size_t len, char **cause)
{
    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (t->memfd < 0)
        t->memfd = target_open_mem(t->pid);
    if (t->memfd < 0 || pwrite(t->memfd, buf, len, (off_t)addr) !=
                            (ssize_t)len) {
        xcause(cause, "cannot write the code at 0x%llx: %s",
               (unsigned long long)addr, strerror(errno));
        return -1;
    }
    return 0;
}

int target_break_insert(struct target *t, uint64_t addr, unsigned int emul,
                        char **cause)
{
    struct target_bp *bp = target_bp_find(t, addr);
    unsigned char cc = 0xcc, orig;
    unsigned int i;

    if (bp != NULL && bp->live)
        return 0;
    if (bp == NULL) {
        if (target_read(t, addr, &orig, 1, cause) != 0)
            return -1;
        if (orig == 0xcc) {
            xcause(cause, "0x%llx holds a breakpoint instruction already",
                   (unsigned long long)addr);
            return -1;
        }
    } else {
        orig = bp->orig;
    }
    if (target_write_code(t, addr, &cc, 1, cause) != 0)
        return -1;
    if (bp == NULL) {
        if (t->nbps == t->abps) {
            t->abps = t->abps == 0 ? 16 : 2 * t->abps;
            t->bps = xreallocarray(t->bps, t->abps, sizeof *t->bps);
        }
        for (i = t->nbps; i > 0 && t->bps[i - 1].addr > addr; i--)
            t->bps[i] = t->bps[i - 1];
        bp = &t->bps[i];
        t->nbps++;
        bp->addr = addr;
        bp->orig = orig;
    }
    bp->emul = (unsigned char)emul;
    bp->live = 1;
    return 0;
}

int target_break_remove(struct target *t, uint64_t addr, char **cause)
{
    struct target_bp *bp = target_bp_find(t, addr);

    int rc = 0;

    if (bp == NULL || !bp->live)
        return 0;
    /* (a write that fails: the code is unmapped, nothing to undo) */
    if (t->alive && target_write_code(t, addr, &bp->orig, 1, cause) != 0)
        rc = -1;
    bp->live = 0; /* (kept: a hit may be on its way) */
    return rc;
}

int target_counter_add(struct target *t, uint64_t addr, int delta,
                       char **cause)
{
    uint16_t v;
    unsigned int i;

    if (target_read(t, addr, &v, sizeof v, cause) != 0)
        return -1;
    v = (uint16_t)(v + delta);
    if (target_write(t, addr, &v, sizeof v, cause) != 0)
        return -1;
    for (i = 0; i < t->ncnts && t->cnts[i].addr != addr; i++)
        ;
    if (i == t->ncnts) {
        t->cnts = xreallocarray(t->cnts, t->ncnts + 1, sizeof *t->cnts);
        t->cnts[t->ncnts].addr = addr;
        t->cnts[t->ncnts++].delta = 0;
    }
    t->cnts[i].delta += delta;
    if (t->cnts[i].delta == 0)
        t->cnts[i] = t->cnts[--t->ncnts];
    return 0;
}

void target_patch_keep(struct target *t, uint64_t addr,
                       const unsigned char *orig, unsigned int len)
{
    struct target_patch *p;

    if (len > sizeof p->orig)
        return;
    target_patch_forget(t, addr);
    t->patches = xreallocarray(t->patches, t->npatches + 1,
                               sizeof *t->patches);
    p = &t->patches[t->npatches++];
    p->addr = addr;
    p->len = len;
    memcpy(p->orig, orig, len);
}

void target_patch_forget(struct target *t, uint64_t addr)
{
    for (unsigned int i = 0; i < t->npatches; i++)
        if (t->patches[i].addr == addr) {
            t->patches[i] = t->patches[--t->npatches];
            return;
        }
}

void target_counter_forget(struct target *t, uint64_t addr)
{
    for (unsigned int i = 0; i < t->ncnts; i++)
        if (t->cnts[i].addr == addr) {
            t->cnts[i] = t->cnts[--t->ncnts];
            return;
        }
}

/* Undo in process PID (T's program, or a copy of its memory: a child)
 * what noosa changed in T's program. */
void target_undo_in(const struct target *t, pid_t pid)
{
    int fd;

    if (!target_changed_memory(t))
        return;
    fd = target_open_mem(pid);
    if (fd < 0)
        return;
    for (unsigned int i = 0; i < t->nbps; i++) {
        const struct target_bp *bp = &t->bps[i];

        if (bp->live && pwrite(fd, &bp->orig, 1, (off_t)bp->addr) != 1) {
            /* (unmapped since: nothing left to undo there) */
        }
    }
    for (unsigned int i = 0; i < t->npatches; i++) {
        const struct target_patch *p = &t->patches[i];

        if (pwrite(fd, p->orig, p->len, (off_t)p->addr) != (ssize_t)p->len) {
            /* (unmapped since: nothing left to undo there) */
        }
    }
    for (unsigned int i = 0; i < t->ncnts; i++) {
        uint16_t v;

        if (pread(fd, &v, sizeof v, (off_t)t->cnts[i].addr) == sizeof v) {
            v = (uint16_t)(v - t->cnts[i].delta);
            if (pwrite(fd, &v, sizeof v, (off_t)t->cnts[i].addr) !=
                sizeof v) {
                /* (as above) */
            }
        }
    }
    close(fd);
}

/* Forget what noosa changed (the image it was in is gone). */
void target_forget_changes(struct target *t)
{
    free(t->bps);
    t->bps = NULL;
    t->nbps = t->abps = 0;
    free(t->cnts);
    t->cnts = NULL;
    t->ncnts = 0;
    free(t->patches);
    t->patches = NULL;
    t->npatches = 0;
    if (t->memfd >= 0)
        close(t->memfd);
    t->memfd = -1;
}

#if defined(__x86_64__)
/* Carry out in thread TID (stopped just past the breakpoint BP) the
 * instruction BP replaced. */
int target_emulate(pid_t tid, const struct target_bp *bp, int memfd)
{
    struct user_regs_struct regs;

    if (bp->emul == 1)
        return 0; /* a one-byte nop: the thread is past it already */
    if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0)
        return -1;
    if (regs.rip != bp->addr + 1)
        return 0; /* moved since (a call made in it, a conversion) */
    if (bp->emul == TARGET_EMUL_RET) {
        uint64_t ret;
        struct iovec local = {.iov_base = &ret, .iov_len = 8};
        struct iovec remote = {.iov_base = (void *)(uintptr_t)regs.rsp,
                               .iov_len = 8};

        if (process_vm_readv(tid, &local, 1, &remote, 1, 0) != 8 &&
            (memfd < 0 || pread(memfd, &ret, 8, (off_t)regs.rsp) != 8))
            return -1;
        regs.rip = ret;
        regs.rsp += 8;
    } else {
        regs.rip = bp->addr + bp->emul;
    }
    return ptrace(PTRACE_SETREGS, tid, 0, &regs) == 0 ? 0 : -1;
}

/* A SIGTRAP of thread TH: at one of our breakpoints?  A live one makes
 * TH wait (TARGET_EV_BREAKPOINT); one removed is carried out and TH goes
 * on.  0 when it is not ours. */
int target_bp_hit(struct target *t, struct target_thread *th)
{
    struct user_regs_struct regs;
    struct target_bp *bp;
    struct target_event ev;
    siginfo_t si;

    if (t->nbps == 0)
        return 0;
    memset(&si, 0, sizeof si);
    if (ptrace(PTRACE_GETSIGINFO, th->tid, 0, &si) != 0 ||
        si.si_code != SI_KERNEL ||
        ptrace(PTRACE_GETREGS, th->tid, 0, &regs) != 0 ||
        (bp = target_bp_find(t, regs.rip - 1)) == NULL)
        return 0;
    if (!bp->live) {
        target_emulate(th->tid, bp, t->memfd);
        if (t->interrupting || th->want_stop) {
            th->state = TH_STOPPED;
            th->want_stop = 0;
            target_check_stopped(t);
        } else {
            target_resume(t, th);
        }
        return 1;
    }
    th->state = TH_BREAK;
    th->at_bp = bp->addr;
    th->want_stop = 0;
    th->regs = regs; /* (the probe's arguments are read from them) */
    th->have_regs = 1;
    memset(&ev, 0, sizeof ev);
    ev.kind = TARGET_EV_BREAKPOINT;
    ev.tid = th->tid;
    ev.addr = bp->addr;
    target_push(t, &ev);
    target_check_stopped(t);
    return 1;
}
#else
int target_emulate(pid_t tid, const struct target_bp *bp, int memfd)
{
    (void)tid;
    (void)bp;
    (void)memfd;
    return -1;
}

int target_bp_hit(struct target *t, struct target_thread *th)
{
    (void)t;
    (void)th;
    return 0;
}
#endif

int target_break_go(struct target *t, pid_t tid, char **cause)
{
    struct target_thread *th = target_thread(t, tid);
    struct target_bp *bp;

    if (th == NULL || th->state != TH_BREAK) {
        xcause(cause, "thread %d is not at a breakpoint", (int)tid);
        return -1;
    }
    target_forget_regs(t, tid);
    bp = target_bp_find(t, th->at_bp);
    if (bp != NULL && target_emulate(tid, bp, t->memfd) != 0) {
        xcause(cause, "thread %d cannot go on past the breakpoint at "
               "0x%llx", (int)tid, (unsigned long long)th->at_bp);
        return -1;
    }
    th->at_bp = 0;
    if (t->interrupting) {
        /* (an interrupt is under way: it stays stopped with the others) */
        th->state = TH_STOPPED;
        target_check_stopped(t);
        return 0;
    }
    target_resume(t, th);
    return 0;
}

/* Whether CHILD was made by vfork (and forget it). */
int target_take_vforked(struct target *t, pid_t child)
{
    for (unsigned int i = 0; i < t->nvforked; i++)
        if (t->vforked[i] == child) {
            t->vforked[i] = t->vforked[--t->nvforked];
            return 1;
        }
    return 0;
}

/* Let go of CHILD, stopped at its first stop: what noosa changed in its
 * memory is undone first, unless it shares its parent's (vfork): then it
 * is watched until it executes or ends, its hits carried out. */
void target_child_go(struct target *t, pid_t child)
{
    if (target_take_vforked(t, child) && t->alive &&
        target_changed_memory(t)) {
        t->vkids = xreallocarray(t->vkids, t->nvkids + 1, sizeof *t->vkids);
        t->vkids[t->nvkids++] = child;
        ptrace(PTRACE_CONT, child, 0, 0);
        return;
    }
    target_undo_in(t, child);
    ptrace(PTRACE_DETACH, child, 0, 0);
}

/* Let go of the children made by vfork that are watched (the memory they
 * share is clean by now): each is stopped first, as PTRACE_DETACH needs
 * (they were seized as their parent was). */
void target_vkids_go(struct target *t)
{
    for (unsigned int i = 0; i < t->nvkids; i++) {
        pid_t c = t->vkids[i];
        long deadline = target_now_ms() + 1000;
        int status;

        if (ptrace(PTRACE_INTERRUPT, c, 0, 0) != 0)
            continue;
        for (;;) {
            pid_t w = waitpid(c, &status, WNOHANG | __WALL);

            if (w == c && WIFSTOPPED(status)) {
                /* (a signal it was about to get goes with it) */
                ptrace(PTRACE_DETACH, c, 0,
                       status >> 16 == 0 && WSTOPSIG(status) != SIGSTOP &&
                               WSTOPSIG(status) != SIGTRAP
                           ? WSTOPSIG(status)
                           : 0);
                break;
            }
            if (w != 0 || target_now_ms() > deadline)
                break;
            poll(NULL, 0, 1);
        }
    }
    free(t->vkids);
    t->vkids = NULL;
    t->nvkids = 0;
}

/* The children made by vfork that are watched: a hit at a breakpoint is
 * carried out, an exec (a fresh memory) or the end lets them go. */
void target_watch_vkids(struct target *t)
{
    for (unsigned int i = 0; i < t->nvkids;) {
        pid_t c = t->vkids[i];
        int status, sig, go = 0;
        pid_t w = waitpid(c, &status, WNOHANG | __WALL);

        if (w == 0) {
            i++;
            continue;
        }
        if (w == c && WIFSTOPPED(status)) {
            sig = WSTOPSIG(status);
            if (status >> 16 == PTRACE_EVENT_EXEC) {
                go = 1;
            } else if (status >> 16 != 0) {
                ptrace(PTRACE_CONT, c, 0, 0);
            } else {
                struct user_regs_struct regs;
                struct target_bp *bp = NULL;
                siginfo_t si;

                memset(&si, 0, sizeof si);
                if (sig == SIGTRAP &&
                    ptrace(PTRACE_GETSIGINFO, c, 0, &si) == 0 &&
                    si.si_code == SI_KERNEL &&
                    ptrace(PTRACE_GETREGS, c, 0, &regs) == 0)
                    bp = target_bp_find(t, regs.rip - 1);
                if (bp != NULL) {
                    target_emulate(c, bp, t->memfd);
                    sig = 0;
                }
                ptrace(PTRACE_CONT, c, 0, sig == SIGSTOP ? 0 : sig);
            }
            if (!go) {
                i++;
                continue;
            }
            ptrace(PTRACE_DETACH, c, 0, 0);
        }
        /* let go, ended, or not ours any more */
        t->vkids[i] = t->vkids[--t->nvkids];
    }
}
