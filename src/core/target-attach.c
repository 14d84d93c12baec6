/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * target-attach.c - programs attached to and let go <design#target>: a
 * running process seized thread by thread (and why it cannot be, said
 * before trying), the processes the program creates adopted or released,
 * the program detached with nothing of noosa's left in it, and the
 * processes noosa started and let go reaped as they end.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "target-int.h"
#include "xmalloc.h"

/*
 * Processes noosa started and then let go (target_detach): still its
 * children, they are reaped here when they end, so that none is left a
 * zombie.  Changed as they are let go and reaped.
 */
static pid_t *target_loose_pids;
static unsigned int target_nloose;

/* Those reaped, not yet told (target_loose_ended). */
struct target_end {
    pid_t pid;
    int status, signo;
};
static struct target_end *target_ends;
static unsigned int target_nends;

static void target_loose_add(pid_t pid)
{
    target_loose_pids = xreallocarray(target_loose_pids, target_nloose + 1,
                                      sizeof *target_loose_pids);
    target_loose_pids[target_nloose++] = pid;
}

/* Reap the processes let go that have ended (only their exits: never a
 * stop meant for a target), and forget those no longer our children or
 * whose pid a new target has (reaped elsewhere, the pid used again). */
static void target_loose_reap(void)
{
    for (unsigned int i = 0; i < target_nloose;) {
        pid_t pid = target_loose_pids[i];
        siginfo_t si;
        int gone = 0;

        for (unsigned int k = 0; k < target_nall; k++)
            gone |= target_all[k]->pid == pid;
        memset(&si, 0, sizeof si);
        if (!gone && waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG) == 0) {
            if (si.si_pid == 0) {
                i++;
                continue;
            }
            target_ends = xreallocarray(target_ends, target_nends + 1,
                                        sizeof *target_ends);
            target_ends[target_nends].pid = pid;
            target_ends[target_nends].status =
                si.si_code == CLD_EXITED ? si.si_status : 0;
            target_ends[target_nends].signo =
                si.si_code == CLD_EXITED ? 0 : si.si_status;
            target_nends++;
        }
        target_loose_pids[i] = target_loose_pids[--target_nloose];
    }
    if (target_nloose == 0) {
        free(target_loose_pids);
        target_loose_pids = NULL;
    }
}

unsigned int target_loose(void)
{
    return target_nloose;
}

void target_reap_loose(void)
{
    char buf[64];
    ssize_t n;

    /* (the flag first: a signal after it writes the pipe anew; a read
     * that leaves room emptied the pipe) */
    if (target_signalled && target_pipe[0] != -1) {
        target_signalled = 0;
        while ((n = read(target_pipe[0], buf, sizeof buf)) == sizeof buf)
            ;
        target_wakes++; /* (for the targets, whose reap it was too) */
    }
    if (target_nloose > 0)
        target_loose_reap();
}

int target_loose_ended(pid_t *pid, int *status, int *signo)
{
    if (target_nends == 0)
        return 0;
    *pid = target_ends[0].pid;
    *status = target_ends[0].status;
    *signo = target_ends[0].signo;
    memmove(target_ends, target_ends + 1,
            --target_nends * sizeof *target_ends);
    if (target_nends == 0) {
        free(target_ends);
        target_ends = NULL;
    }
    return 1;
}

/* The field NAME ("TracerPid:", "Uid:") of /proc/PID/status as a number,
 * or -1. */
static long target_status_field(pid_t pid, const char *name)
{
    char path[64], line[256];
    FILE *f;
    long v = -1;
    size_t n = strlen(name);

    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    f = fopen(path, "re");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, name, n) == 0) {
            v = strtol(line + n, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

/* The command name of process PID into BUF, or "?" */
static const char *target_comm(pid_t pid, char *buf, size_t size)
{
    char path[64];
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    snprintf(buf, size, "?");
    f = fopen(path, "re");
    if (f == NULL)
        return buf;
    if (fgets(buf, (int)size, f) != NULL)
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
    return buf;
}

/* Why process PID cannot be attached to, before trying: 0 when nothing
 * is known against it, else -1 with *cause. */
static int target_attach_check(pid_t pid, char **cause)
{
    char path[64], comm[64];
    struct stat st;
    long tracer, tgid;

    snprintf(path, sizeof path, "/proc/%d", (int)pid);
    if (pid <= 0 || stat(path, &st) != 0) {
        xcause(cause, "no process %d", (int)pid);
        return -1;
    }
    if (pid == getpid()) {
        xcause(cause, "process %d is this noosa", (int)pid);
        return -1;
    }
    tgid = target_status_field(pid, "Tgid:");
    if (tgid > 0 && tgid != pid) {
        xcause(cause, "%d is a thread of process %ld: attach to the process",
               (int)pid, tgid);
        return -1;
    }
    tracer = target_status_field(pid, "TracerPid:");
    if (tracer > 0) {
        target_comm((pid_t)tracer, comm, sizeof comm);
        if (strcmp(comm, "noosa") == 0 || strncmp(comm, "lt-noosa", 8) == 0)
            xcause(cause, "process %d is already monitored by another noosa "
                   "(process %ld)", (int)pid, tracer);
        else
            xcause(cause, "process %d is already traced by process %ld (%s): "
                   "only one tracer at a time", (int)pid, tracer, comm);
        return -1;
    }
    return 0;
}

/* The message for a PTRACE_SEIZE of PID that failed with E. */
static void target_seize_failed(pid_t pid, int e, char **cause)
{
    FILE *f;
    int scope = -1;
    char path[64];
    struct stat st;

    if (e != EPERM) {
        xcause(cause, "cannot trace process %d: %s", (int)pid, strerror(e));
        return;
    }
    /* the kernel decides (root, CAP_SYS_PTRACE); this says why it refused */
    snprintf(path, sizeof path, "/proc/%d", (int)pid);
    if (stat(path, &st) == 0 && st.st_uid != geteuid()) {
        xcause(cause, "process %d belongs to another user (uid %u): only "
               "its own user or root may attach to it", (int)pid,
               (unsigned int)st.st_uid);
        return;
    }
    f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
    if (f != NULL) {
        if (fscanf(f, "%d", &scope) != 1)
            scope = -1;
        fclose(f);
    }
    switch (scope) {
    case 1:
        xcause(cause, "ptrace not permitted on process %d: the kernel lets a "
               "process trace only its own descendants (kernel.yama."
               "ptrace_scope is 1); start the program with DAPTO_PTRACER=any "
               "in its environment, or run noosa as root or with "
               "CAP_SYS_PTRACE, or set kernel.yama.ptrace_scope to 0",
               (int)pid);
        break;
    case 2:
        xcause(cause, "ptrace not permitted on process %d: only root may "
               "trace (kernel.yama.ptrace_scope is 2); run noosa as root",
               (int)pid);
        break;
    case 3:
        xcause(cause, "ptrace not permitted on process %d: tracing is "
               "disabled on this system (kernel.yama.ptrace_scope is 3, "
               "until the next boot)", (int)pid);
        break;
    default:
        xcause(cause, "ptrace not permitted on process %d: it is not "
               "dumpable (it runs a set-user-ID program, or made itself "
               "so with prctl) or noosa lacks the privilege; run noosa as "
               "root", (int)pid);
        break;
    }
}

#define TARGET_SEIZE_OPTS                                                  \
    (PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK |       \
     PTRACE_O_TRACEVFORK)

/* Seize every thread of T's process not seized yet, the leader first.
 * Returns the number seized, or -1 with *cause (the leader could not
 * be).  Another thread that cannot be is ending (the kernel refuses an
 * exiting thread with EPERM): it is skipped. */
static int target_seize_threads(struct target *t, char **cause)
{
    char path[64];
    DIR *d;
    struct dirent *de;
    int n = 0;

    if (target_thread(t, t->pid) == NULL) {
        if (ptrace(PTRACE_SEIZE, t->pid, 0, TARGET_SEIZE_OPTS) != 0) {
            if (errno == ESRCH)
                xcause(cause, "no process %d", (int)t->pid);
            else
                target_seize_failed(t->pid, errno, cause);
            return -1;
        }
        target_add_thread(t, t->pid, TH_RUNNING);
        n++;
    }

    snprintf(path, sizeof path, "/proc/%d/task", (int)t->pid);
    d = opendir(path);
    if (d == NULL) {
        xcause(cause, "no process %d", (int)t->pid);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        pid_t tid = (pid_t)atoi(de->d_name);

        if (tid <= 0 || target_thread(t, tid) != NULL)
            continue;
        if (ptrace(PTRACE_SEIZE, tid, 0, TARGET_SEIZE_OPTS) != 0)
            continue; /* ending (ESRCH, or EPERM while it exits) */
        target_add_thread(t, tid, TH_RUNNING);
        n++;
    }
    closedir(d);
    return n;
}

int target_attach(struct target **out, pid_t pid, int timeout_ms,
                  char **cause)
{
    struct target *t;
    struct target_event ev;
    int n, round;

    if (target_setup_pipe(cause) != 0 || target_attach_check(pid, cause) != 0)
        return -1;
    t = xcalloc(1, sizeof *t);
    t->memfd = -1;
    t->reap_more = 1;
    t->pid = pid;
    t->alive = 1;
    t->attached = 1;
    target_register(t);
    /* threads created meanwhile by threads not seized yet: look again
     * until a look finds none (those seized trace their own clones) */
    for (round = 0; round < 100; round++) {
        n = target_seize_threads(t, cause);
        if (n < 0)
            goto fail;
        if (n == 0)
            break;
    }
    target_stop_all(t);
    for (;;) {
        if (!target_wait(t, &ev, timeout_ms)) {
            xcause(cause, t->alive ? "process %d did not stop within %d ms"
                                   : "process %d ended as it was attached to",
                   (int)pid, timeout_ms);
            goto fail;
        }
        if (ev.kind == TARGET_EV_INTERRUPTED)
            break;
        if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED) {
            xcause(cause, "process %d ended as it was attached to", (int)pid);
            goto fail;
        }
        /* (a fault or a fork on the way: the caller sees it next) */
        if (ev.kind == TARGET_EV_FAULT || ev.kind == TARGET_EV_FORK) {
            target_push(t, &ev);
            if (ev.kind == TARGET_EV_FAULT)
                target_stop_all(t);
        }
    }
    *out = t;
    return 0;

fail:
    target_free(t);
    return -1;
}

int target_is_attached(const struct target *t)
{
    return t->attached;
}

void target_keep_children(struct target *t, int keep)
{
    t->keep_children = keep;
}

void target_hold_forks(struct target *t, int hold)
{
    t->hold_forks = hold;
}

/* Take CHILD out of T's children; 0 when it was one. */
static int target_take_child(struct target *t, pid_t child)
{
    for (unsigned int i = 0; i < t->nchildren; i++)
        if (t->children[i] == child) {
            t->children[i] = t->children[--t->nchildren];
            return 0;
        }
    return -1;
}

/* Wait up to TIMEOUT_MS for CHILD's first stop.  1 when stopped there,
 * 0 when it ended, -1 when it did not stop in time. */
static int target_first_stop(pid_t child, int timeout_ms)
{
    long deadline = target_now_ms() + timeout_ms;
    int status;

    for (;;) {
        pid_t w = waitpid(child, &status, WNOHANG | __WALL);

        if (w == child)
            return WIFSTOPPED(status) ? 1 : 0;
        if (w < 0 && errno != EINTR)
            return 0;
        if (target_now_ms() > deadline)
            return -1;
        poll(NULL, 0, 1);
    }
}

void target_release_child(struct target *t, pid_t child)
{
    if (target_take_child(t, child) != 0)
        return;
    if (target_first_stop(child, 2000) == 1)
        target_child_go(t, child);
}

int target_adopt(struct target **out, struct target *parent, pid_t child,
                 int timeout_ms, char **cause)
{
    struct target *t;
    int rc;

    if (target_take_child(parent, child) != 0) {
        xcause(cause, "process %d is not a process the program created",
               (int)child);
        return -1;
    }
    rc = target_first_stop(child, timeout_ms);
    if (rc <= 0) {
        if (rc < 0)
            ptrace(PTRACE_DETACH, child, 0, 0);
        xcause(cause, rc == 0 ? "process %d ended before it could be "
                                "followed"
                              : "process %d did not stop within %d ms",
               (int)child, timeout_ms);
        return -1;
    }
    /* it starts clean: what noosa changed in its parent is not its */
    target_take_vforked(parent, child);
    target_undo_in(parent, child);
    t = xcalloc(1, sizeof *t);
    t->memfd = -1;
    t->reap_more = 1;
    t->pid = child;
    t->alive = 1;
    /* a child of a program noosa started dies with noosa as its parent
     * does (it inherited PTRACE_O_EXITKILL); a child of a program
     * attached to is let go at the end */
    t->attached = parent->attached;
    t->keep_children = parent->keep_children;
    t->hold_forks = parent->hold_forks;
    target_add_thread(t, child, TH_STOPPED);
    target_register(t);
    *out = t;
    return 0;
}

void target_detach(struct target *t)
{
    struct target_event ev;

    if (!t->alive)
        return;
    if (!target_stopped(t))
        target_collect(t);
    if (t->alive && !target_stopped(t)) {
        target_stop_all(t);
        while (t->alive && !target_stopped(t) && target_wait(t, &ev, 2000))
            ;
    }
#if defined(__x86_64__)
    /* nothing of ours is left in it: a breakpoint not reached is undone */
    if (t->bp_addr != 0 && t->alive && t->nthreads > 0) {
        ptrace(PTRACE_POKEDATA, t->threads[0].tid,
               (void *)(uintptr_t)t->bp_addr, (void *)t->bp_word);
        t->bp_addr = 0;
    }
#endif
    /* <design#probes>: the threads at breakpoints are past them, and
     * the breakpoints and counters are undone (the vfork children, which
     * share the memory, are clean with it) */
    for (unsigned int i = 0; i < t->nthreads; i++) {
        struct target_thread *th = &t->threads[i];
        struct target_bp *bp;

        if (th->state == TH_BREAK &&
            (bp = target_bp_find(t, th->at_bp)) != NULL)
            target_emulate(th->tid, bp, t->memfd);
    }
    if (t->alive)
        target_undo_in(t, t->pid);
    target_vkids_go(t);
    for (unsigned int i = 0; i < t->nthreads; i++) {
        struct target_thread *th = &t->threads[i];

        ptrace(PTRACE_DETACH, th->tid, 0,
               th->state == TH_STOPPED || th->state == TH_FAULT
                   ? th->pending_sig
                   : 0);
    }
    t->nthreads = 0;
    t->alive = 0;
    if (!t->attached)
        target_loose_add(t->pid);
}
