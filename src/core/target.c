/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * target.c - the monitored program under ptrace.
 *
 * The program is forked, seized with PTRACE_SEIZE (so PTRACE_INTERRUPT and
 * PTRACE_LISTEN work) before it execs, and every thread it creates is
 * traced.  Wait status is collected per thread with waitpid(WNOHANG |
 * __WALL) whenever the SIGCHLD self-pipe says something happened.  Each
 * thread is in one of a few states (running, stopped by us, waiting on a
 * fault, in a group-stop); the program as a whole is "stopped" when no
 * thread runs.  This module decides nothing about faults: it reports them
 * and waits for the caller.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target.h"
#include "xmalloc.h"

extern char **environ;

enum thread_state {
    TH_RUNNING,
    TH_STOPPED, /* stopped by the monitor; resumed by target_continue */
    TH_FAULT,   /* in a signal-delivery-stop for a fatal signal */
    TH_GROUP,   /* in a group-stop, listening */
    TH_BREAK    /* stopped at a breakpoint (target_break_insert), until
                   target_break_go */
};

struct target_thread {
    pid_t tid;
    enum thread_state state;
    int pending_sig; /* a signal to deliver when resumed */
    int want_stop;   /* target_stop_thread() asked it to stop */
    int mid_call;    /* stopped inside a system call that has not
                        returned (a clone or fork event kept by an
                        interrupt): no call may be made in it */
    uint64_t at_bp;  /* TH_BREAK: the breakpoint's address */
    int paused;      /* stopped by target_pause() */
};

/* A breakpoint at a probe site, and the byte it replaced; one removed is
 * kept (live 0) so that a hit that was on its way is still known. */
struct target_bp {
    uint64_t addr;
    unsigned char orig;
    unsigned char emul; /* bytes of the nop, or TARGET_EMUL_RET */
    unsigned char live;
};

/* Code noosa replaced (a probe handled in the program), and what was
 * there. */
struct target_patch {
    uint64_t addr;
    unsigned int len;
    unsigned char orig[32];
};

/* A 16-bit counter of the program noosa added DELTA to. */
struct target_cnt {
    uint64_t addr;
    int delta;
};

/* Events collected by one reap at most (it goes on at the next poll);
 * the queue itself grows as needed: an event given back (target_unread)
 * or collected is never dropped, or a thread would wait at a fault
 * nobody was told of. */
#define TARGET_QUEUE 1024

struct target {
    pid_t pid;
    int alive;
    int attached;     /* seized while it ran (target_attach): let go at
                         the end, never killed */
    pid_t inject_tid; /* the thread running a call of target_inject() */
    int inject_done;  /* its SIGSEGV (the call returned to 0) came */
    char *exec_path;  /* the program of the last exec (TARGET_EV_EXEC) */
    struct target_thread *threads;
    unsigned int nthreads;
    unsigned int athreads;

    int interrupting; /* waiting for every thread to stop */
    int breaking;     /* the stop is for a breakpoint hit */
    struct target_event brk_ev;

    uint64_t bp_addr; /* armed breakpoint, 0 if none */
    long bp_word;     /* the word it replaced */

    struct target_event *queue; /* a ring of qcap */
    unsigned int qhead, qlen, qcap;

    int reap_more;     /* the last reap stopped early */
    uint64_t last_reap; /* CLOCK_MONOTONIC ns of the last full reap */
    unsigned long wakes_seen; /* target_wakes at the last full reap */
    /* wait statuses of our threads that another target collected (its
     * target_free() reaps any child), handled at the next reap */
    struct target_status {
        pid_t tid;
        int status;
    } *stash;
    unsigned int nstash;

    /* Processes the program created: traced by the kernel's doing until
     * their first stop is collected and they are detached. */
    pid_t *children;
    unsigned int nchildren;
    unsigned int achildren;
    int keep_children; /* target_keep_children(): they wait at their
                          first stop for target_adopt() or
                          target_release_child() */
    int hold_forks;    /* target_hold_forks(): a thread that forked
                          waits at its fork stop */
    pid_t *vforked;    /* those of them made by vfork (sharing memory) */
    unsigned int nvforked;

    /* what noosa changed in the program <design#probes>: breakpoints at
     * probe sites (sorted by address) and counters, and the children
     * made by vfork that are watched until they execute or end (they
     * share the breakpoints) */
    struct target_bp *bps;
    unsigned int nbps, abps;
    struct target_cnt *cnts;
    unsigned int ncnts;
    struct target_patch *patches;
    unsigned int npatches;
    pid_t *vkids;
    unsigned int nvkids;
    int memfd; /* /proc/PID/mem once used, else -1 (reopened after an
                  exec: the file stays with the image it was opened on) */
};

static int target_bp_hit(struct target *t, struct target_thread *th);
static void target_child_go(struct target *t, pid_t child);
static void target_watch_vkids(struct target *t);
static void target_undo_in(const struct target *t, pid_t pid);
static void target_forget_changes(struct target *t);
static void target_collect(struct target *t);
static void target_vkids_go(struct target *t);
static long target_now_ms(void);
static int target_take_vforked(struct target *t, pid_t child);
static int target_emulate(pid_t tid, const struct target_bp *bp, int memfd);
static struct target_bp *target_bp_find(const struct target *t,
                                        uint64_t addr);

/*
 * The SIGCHLD self-pipe.  Created with the first target, read-only after;
 * the handler only writes a byte to it.  It is shared by every target: a
 * reap that empties it counts a wake-up in target_wakes, so that every
 * other target reaps at its next poll too (several processes are
 * monitored at once).
 */
static int target_pipe[2] = {-1, -1};
static unsigned long target_wakes;

/* The live targets, so that a status collected by one for another's
 * thread reaches it: changed only as targets are made and freed. */
static struct target **target_all;
static unsigned int target_nall;

static void target_sigchld(int sig)
{
    int saved = errno;
    char c = 0;

    (void)sig;
    if (write(target_pipe[1], &c, 1) < 0) {
        /* full: a wake-up is already pending */
    }
    errno = saved;
}

static int target_setup_pipe(char **cause)
{
    struct sigaction sa;

    if (target_pipe[0] != -1)
        return 0;
    if (pipe2(target_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        xcause(cause, "pipe: %s", strerror(errno));
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = target_sigchld;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGCHLD, &sa, NULL) != 0) {
        xcause(cause, "sigaction: %s", strerror(errno));
        return -1;
    }
    return 0;
}

const char *target_signal_name(int signo, char *buf, size_t size)
{
    const char *abbrev = sigabbrev_np(signo);

    if (abbrev != NULL)
        snprintf(buf, size, "SIG%s", abbrev);
    else
        snprintf(buf, size, "signal %d", signo);
    return buf;
}

static int target_fatal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
           sig == SIGILL || sig == SIGABRT;
}

static struct target_thread *target_thread(struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].tid == tid)
            return &t->threads[i];
    }
    return NULL;
}

static struct target_thread *target_add_thread(struct target *t, pid_t tid,
                                               enum thread_state state)
{
    struct target_thread *th = target_thread(t, tid);

    if (th != NULL)
        return th;
    if (t->nthreads == t->athreads) {
        t->athreads = t->athreads == 0 ? 8 : t->athreads * 2;
        t->threads = xreallocarray(t->threads, t->athreads,
                                   sizeof *t->threads);
    }
    th = &t->threads[t->nthreads++];
    th->tid = tid;
    th->state = state;
    th->pending_sig = 0;
    th->want_stop = 0;
    th->mid_call = 0;
    return th;
}

static void target_remove_thread(struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].tid == tid) {
            t->threads[i] = t->threads[--t->nthreads];
            return;
        }
    }
}

/* Room for one more event in T's queue. */
static void target_queue_room(struct target *t)
{
    unsigned int cap = t->qcap == 0 ? TARGET_QUEUE : 2 * t->qcap;
    struct target_event *q;

    if (t->qlen < t->qcap)
        return;
    q = xreallocarray(NULL, cap, sizeof *q);
    for (unsigned int i = 0; i < t->qlen; i++)
        q[i] = t->queue[(t->qhead + i) % t->qcap];
    free(t->queue);
    t->queue = q;
    t->qhead = 0;
    t->qcap = cap;
}

static void target_push(struct target *t, const struct target_event *ev)
{
    target_queue_room(t);
    t->queue[(t->qhead + t->qlen) % t->qcap] = *ev;
    t->qlen++;
}

static void target_register(struct target *t)
{
    target_all = xreallocarray(target_all, target_nall + 1,
                               sizeof *target_all);
    target_all[target_nall++] = t;
}

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
    int woken = 0;

    while (target_pipe[0] != -1 && read(target_pipe[0], buf, sizeof buf) > 0)
        woken = 1;
    if (woken)
        target_wakes++; /* (for the targets, whose reap it was too) */
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

static void target_unregister(struct target *t)
{
    for (unsigned int i = 0; i < target_nall; i++)
        if (target_all[i] == t) {
            target_all[i] = target_all[--target_nall];
            break;
        }
    if (target_nall == 0) {
        free(target_all);
        target_all = NULL;
    }
}

/* The thread group of thread TID, from the kernel, or 0. */
static pid_t target_tgid(pid_t tid)
{
    char path[64], line[128];
    pid_t tgid = 0;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
    if ((f = fopen(path, "re")) == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "Tgid: %d", &tgid) == 1)
            break;
    fclose(f);
    return tgid;
}

/* Status STATUS of thread TID, collected by T: hand it to the target it
 * belongs to (1), or 0 when it is none of the others'. */
static int target_route(const struct target *t, pid_t tid, int status)
{
    pid_t tgid = 0;

    for (int pass = 0; pass < 2; pass++) {
        for (unsigned int i = 0; i < target_nall; i++) {
            struct target *o = target_all[i];

            if (o == t || !o->alive ||
                (pass == 0 ? target_thread(o, tid) == NULL
                           : o->pid != tgid))
                continue;
            o->stash = xreallocarray(o->stash, o->nstash + 1,
                                     sizeof *o->stash);
            o->stash[o->nstash].tid = tid;
            o->stash[o->nstash++].status = status;
            o->reap_more = 1;
            return 1;
        }
        /* a thread whose creation its target has not seen yet */
        if (pass == 0 && (tgid = target_tgid(tid)) == 0)
            break;
    }
    return 0;
}

void target_unread(struct target *t, const struct target_event *ev)
{
    target_queue_room(t);
    t->qhead = (t->qhead + t->qcap - 1) % t->qcap;
    t->queue[t->qhead] = *ev;
    t->qlen++;
}

/* Find PROG the way execvp would; returns a new string or NULL. */
static char *target_find(const char *prog, char **cause)
{
    struct stat st;
    const char *path, *p;
    char *cand;
    int err = ENOENT;

    if (*prog == '\0') {
        xcause(cause, "no program given");
        return NULL;
    }
    if (strchr(prog, '/') != NULL) {
        if (stat(prog, &st) != 0) {
            xcause(cause, "%s: %s", prog, strerror(errno));
            return NULL;
        }
        if (S_ISDIR(st.st_mode)) {
            xcause(cause, "%s: is a directory", prog);
            return NULL;
        }
        if (access(prog, X_OK) != 0) {
            xcause(cause, "%s: not executable (%s)", prog, strerror(errno));
            return NULL;
        }
        return xstrdup(prog);
    }
    path = getenv("PATH");
    if (path == NULL)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path;; p++) {
        const char *colon = strchr(p, ':');
        size_t n = colon == NULL ? strlen(p) : (size_t)(colon - p);

        cand = n == 0 ? xasprintf("./%s", prog)
                      : xasprintf("%.*s/%s", (int)n, p, prog);
        if (stat(cand, &st) == 0 && !S_ISDIR(st.st_mode)) {
            if (access(cand, X_OK) == 0)
                return cand;
            err = EACCES;
        }
        free(cand);
        if (colon == NULL)
            break;
        p = colon;
    }
    if (err == EACCES)
        xcause(cause, "%s: found in PATH but not executable", prog);
    else
        xcause(cause, "%s: command not found", prog);
    return NULL;
}

/* The environment for the program: ours plus EXTRA (which wins). */
static char **target_env(char *const *extra)
{
    size_t n = 0, m = 0, k = 0;
    char **env;

    while (environ[n] != NULL)
        n++;
    while (extra != NULL && extra[m] != NULL)
        m++;
    env = xcalloc(n + m + 1, sizeof *env);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t len = eq == NULL ? strlen(environ[i])
                                : (size_t)(eq - environ[i]) + 1;
        int dup = 0;
        for (size_t j = 0; j < m; j++) {
            if (strncmp(extra[j], environ[i], len) == 0)
                dup = 1;
        }
        if (!dup)
            env[k++] = environ[i];
    }
    for (size_t j = 0; j < m; j++)
        env[k++] = extra[j];
    env[k] = NULL;
    return env;
}

/* In the child: move FD to TARGET without disturbing the others. */
static void target_child_fd(int fd, int target_fd_)
{
    if (fd < 0 || fd == target_fd_) {
        if (fd == target_fd_)
            fcntl(fd, F_SETFD, 0);
        return;
    }
    dup2(fd, target_fd_);
}

static void target_child(const char *path, char *const *argv, char **env,
                         const struct target_opts *o, const int *go,
                         const int *err_pipe)
{
    int err = err_pipe[1];
    char c;
    int e;
    int in = o->fd_in, out = o->fd_out, er = o->fd_err;

    /* Lift the descriptors out of 0..2 first so dup2 does not clobber. */
    if (in >= 0 && in <= 2 && in != 0)
        in = fcntl(in, F_DUPFD_CLOEXEC, 3);
    if (out >= 0 && out <= 2 && out != 1)
        out = fcntl(out, F_DUPFD_CLOEXEC, 3);
    if (er >= 0 && er <= 2 && er != 2)
        er = fcntl(er, F_DUPFD_CLOEXEC, 3);
    target_child_fd(in, 0);
    target_child_fd(out, 1);
    target_child_fd(er, 2);
    /* A terminal of its own (the screen's pty): make it the program's
     * controlling terminal in a session of its own, so that /dev/tty is
     * that terminal, not the monitor's, and the keys typed into it
     * (Ctrl-C, Ctrl-Z) signal the program. */
    if (o->fd_in >= 0 && isatty(0) && setsid() >= 0)
        ioctl(0, TIOCSCTTY, 0);
    for (int i = 0; i < o->nkeep; i++)
        fcntl(o->keep_fds[i], F_SETFD, 0);
    signal(SIGCHLD, SIG_DFL);
    /* Wait until the parent has seized us (it closes its end). */
    close(go[1]);
    close(err_pipe[0]);
    while (read(go[0], &c, 1) < 0 && errno == EINTR)
        ;
    execve(path, argv, env);
    e = errno;
    if (write(err, &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

int target_start(struct target **out, const struct target_opts *opts,
                 char **cause)
{
    struct target *t;
    char *path;
    char **env;
    int go[2], err[2], status, e, n;
    pid_t pid;

    if (opts->argv == NULL || opts->argv[0] == NULL) {
        xcause(cause, "no program given");
        return -1;
    }
    if (target_setup_pipe(cause) != 0)
        return -1;
    path = target_find(opts->argv[0], cause);
    if (path == NULL)
        return -1;
    if (pipe2(go, O_CLOEXEC) != 0)
        goto fail_go;
    if (pipe2(err, O_CLOEXEC) != 0)
        goto fail_err;
    env = target_env(opts->env);

    pid = fork();
    if (pid < 0)
        goto fail_fork;
    if (pid == 0)
        target_child(path, opts->argv, env, opts, go, err);
    free(env);
    close(go[0]);
    close(err[1]);
    if (ptrace(PTRACE_SEIZE, pid, 0,
               PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
                   PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK) != 0) {
        e = errno;
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        close(go[1]);
        close(err[0]);
        xcause(cause, "cannot trace %s: %s", path, strerror(e));
        free(path);
        return -1;
    }
    close(go[1]); /* lets the child exec */

    /* Wait for the exec stop, passing any signal the child gets first. */
    for (;;) {
        if (waitpid(pid, &status, __WALL) < 0) {
            if (errno == EINTR)
                continue;
            e = errno;
            close(err[0]);
            xcause(cause, "waitpid: %s", strerror(e));
            free(path);
            return -1;
        }
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            n = (int)read(err[0], &e, sizeof e);
            close(err[0]);
            if (n == (int)sizeof e)
                xcause(cause, "cannot execute %s: %s", path, strerror(e));
            else if (WIFEXITED(status))
                xcause(cause, "%s exited with status %d before it started",
                       path, WEXITSTATUS(status));
            else
                xcause(cause, "%s died of signal %d before it started", path,
                       WTERMSIG(status));
            free(path);
            return -1;
        }
        if (WIFSTOPPED(status) &&
            status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
            break;
        if (WIFSTOPPED(status) && (status >> 16) == 0)
            ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(status));
        else
            ptrace(PTRACE_CONT, pid, 0, 0);
    }
    close(err[0]);
    free(path);

    t = xcalloc(1, sizeof *t);
    t->memfd = -1;
    t->reap_more = 1;
    t->pid = pid;
    t->alive = 1;
    target_add_thread(t, pid, TH_STOPPED);
    target_register(t);
    *out = t;
    return 0;

fail_fork:
    e = errno;
    free(env);
    close(err[0]);
    close(err[1]);
    close(go[0]);
    close(go[1]);
    errno = e;
    goto fail;
fail_err:
    e = errno;
    close(go[0]);
    close(go[1]);
    errno = e;
fail_go:
fail:
    xcause(cause, "cannot start %s: %s", path, strerror(errno));
    free(path);
    return -1;
}

void target_free(struct target *t)
{
    int status;

    if (t == NULL)
        return;
    target_unregister(t);
    /* Processes the program created are not ours to kill: let go of
     * those still waiting at their first stop. */
    for (unsigned int i = 0; i < t->nchildren; i++) {
        while (waitpid(t->children[i], &status, __WALL) < 0 && errno == EINTR)
            ;
        target_take_vforked(t, t->children[i]);
        target_undo_in(t, t->children[i]);
        ptrace(PTRACE_DETACH, t->children[i], 0, 0);
    }
    if (t->alive && t->attached) {
        /* not ours to kill: stop what runs and let every thread go */
        target_detach(t);
    } else if (t->alive) {
        /* Threads whose creation was not yet collected are ptrace
         * children too, so reap any child until the leader is gone: the
         * leader is reported only after every other thread. */
        kill(t->pid, SIGKILL);
        for (;;) {
            pid_t w = waitpid(-1, &status, __WALL);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            if ((WIFEXITED(status) || WIFSIGNALED(status)) && w == t->pid)
                break;
            /* (another process monitored: its own target handles it) */
            if (w != t->pid && target_route(t, w, status))
                continue;
            /* (a process it created meanwhile, at its first stop) */
            if (WIFSTOPPED(status) && w != t->pid)
                ptrace(PTRACE_DETACH, w, 0, 0);
        }
    }
    target_vkids_go(t);
    target_forget_changes(t);
    free(t->vkids);
    free(t->vforked);
    free(t->queue);
    free(t->stash);
    free(t->threads);
    free(t->children);
    free(t->exec_path);
    free(t);
}

const char *target_exec_path(const struct target *t)
{
    return t->exec_path;
}

pid_t target_pid(const struct target *t)
{
    return t->pid;
}

int target_alive(const struct target *t)
{
    return t->alive;
}

int target_stopped(const struct target *t)
{
    if (!t->alive)
        return 0;
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].state == TH_RUNNING)
            return 0;
    }
    return 1;
}

int target_fd(const struct target *t)
{
    (void)t;
    return target_pipe[0];
}

static void target_resume(struct target *t, struct target_thread *th)
{
    int sig = th->pending_sig;

    (void)t;
    th->pending_sig = 0;
    th->state = TH_RUNNING;
    th->mid_call = 0;
    if (ptrace(PTRACE_CONT, th->tid, 0, sig) != 0 && errno != ESRCH)
        th->state = TH_STOPPED;
}

static void target_check_stopped(struct target *t);

/* Thread TH is at an event-stop that is not an interrupt: resume it,
 * unless an interrupt is under way, which this stop may have taken the
 * place of (the thread would then run on, never stopping). */
static void target_go_on(struct target *t, struct target_thread *th)
{
    if (t->interrupting || th->want_stop) {
        th->state = TH_STOPPED;
        th->want_stop = 0;
        th->mid_call = 1; /* its system call returns only when resumed */
        target_check_stopped(t);
        return;
    }
    target_resume(t, th);
}

/* After a thread stopped or left: if an interrupt is complete, report. */
static void target_check_stopped(struct target *t)
{
    if (!t->interrupting || !target_stopped(t))
        return;
    t->interrupting = 0;
    if (t->breaking) {
        t->breaking = 0;
        target_push(t, &t->brk_ev);
    } else {
        struct target_event ev = {.kind = TARGET_EV_INTERRUPTED,
                                  .tid = t->pid};
        target_push(t, &ev);
    }
}

/* Ask every running thread to stop. */
static void target_stop_all(struct target *t)
{
    t->interrupting = 1;
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].state == TH_RUNNING)
            ptrace(PTRACE_INTERRUPT, t->threads[i].tid, 0, 0);
    }
    target_check_stopped(t);
}

#if defined(__x86_64__)
/* A SIGTRAP at our breakpoint: put the instruction back and rewind. */
static int target_hit_break(struct target *t, struct target_thread *th)
{
    struct user_regs_struct regs;

    if (t->bp_addr == 0)
        return 0;
    if (ptrace(PTRACE_GETREGS, th->tid, 0, &regs) != 0)
        return 0;
    if (regs.rip - 1 != t->bp_addr)
        return 0;
    regs.rip = t->bp_addr;
    ptrace(PTRACE_SETREGS, th->tid, 0, &regs);
    ptrace(PTRACE_POKEDATA, th->tid, (void *)(uintptr_t)t->bp_addr,
           (void *)t->bp_word);
    t->brk_ev = (struct target_event){.kind = TARGET_EV_BREAK,
                                      .tid = th->tid,
                                      .addr = t->bp_addr};
    t->bp_addr = 0;
    t->breaking = 1;
    th->state = TH_STOPPED;
    target_stop_all(t);
    return 1;
}
#else
static int target_hit_break(struct target *t, struct target_thread *th)
{
    (void)t;
    (void)th;
    return 0;
}
#endif

/* Handle one wait status of thread TID. */
static void target_handle(struct target *t, pid_t tid, int status)
{
    struct target_thread *th = target_thread(t, tid);
    struct target_event ev;
    int sig, event;

    if (WIFEXITED(status) || WIFSIGNALED(status)) {
        target_remove_thread(t, tid);
        if (tid == t->pid) {
            memset(&ev, 0, sizeof ev);
            ev.tid = tid;
            if (WIFEXITED(status)) {
                ev.kind = TARGET_EV_EXITED;
                ev.status = WEXITSTATUS(status);
            } else {
                ev.kind = TARGET_EV_KILLED;
                ev.signo = WTERMSIG(status);
                ev.core = WCOREDUMP(status) ? 1 : 0;
            }
            t->alive = 0;
            t->interrupting = 0;
            t->nthreads = 0;
            target_push(t, &ev);
        } else {
            target_check_stopped(t);
        }
        return;
    }
    if (!WIFSTOPPED(status))
        return;
    if (th == NULL)
        th = target_add_thread(t, tid, TH_RUNNING);
    sig = WSTOPSIG(status);
    event = status >> 16;

    if (event == PTRACE_EVENT_CLONE) {
        unsigned long child = 0;
        ptrace(PTRACE_GETEVENTMSG, tid, 0, &child);
        /* The new thread reports its own first stop (an event-stop).
         * Adding it may move the table: look the parent up again. */
        target_add_thread(t, (pid_t)child, TH_RUNNING);
        target_go_on(t, target_thread(t, tid));
        return;
    }
    if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK) {
        unsigned long child = 0;
        ptrace(PTRACE_GETEVENTMSG, tid, 0, &child);
        /* The kernel traces the child: let it go at its first stop. */
        if (child != 0) {
            if (t->nchildren == t->achildren) {
                t->achildren = t->achildren == 0 ? 8 : 2 * t->achildren;
                t->children = xreallocarray(t->children, t->achildren,
                                            sizeof *t->children);
            }
            t->children[t->nchildren++] = (pid_t)child;
            if (event == PTRACE_EVENT_VFORK) {
                t->vforked = xreallocarray(t->vforked, t->nvforked + 1,
                                           sizeof *t->vforked);
                t->vforked[t->nvforked++] = (pid_t)child;
            }
        }
        memset(&ev, 0, sizeof ev);
        ev.kind = TARGET_EV_FORK;
        ev.tid = tid;
        ev.status = (int)child;
        ev.code = event == PTRACE_EVENT_VFORK;
        if (t->hold_forks && event == PTRACE_EVENT_FORK && child != 0) {
            /* it waits here, its fork not returned, until the session
             * has taken the fork (it emits nothing meanwhile) */
            struct target_thread *forker = target_thread(t, tid);

            forker->state = TH_STOPPED;
            forker->mid_call = 1;
            ev.held = 1;
            target_push(t, &ev);
            return;
        }
        target_push(t, &ev);
        target_go_on(t, target_thread(t, tid));
        return;
    }
    if (event == PTRACE_EVENT_EXEC) {
        /* A later exec: the thread group is now just this thread, and
         * nothing noosa changed in the old image is left. */
        target_forget_changes(t);
        memset(&ev, 0, sizeof ev);
        ev.kind = TARGET_EV_EXEC;
        ev.tid = tid;
        /* read now: once resumed, the new program may be gone before
         * the event is handled */
        {
            char link[64], path[4096];
            ssize_t n;

            snprintf(link, sizeof link, "/proc/%d/exe", (int)t->pid);
            n = readlink(link, path, sizeof path - 1);
            free(t->exec_path);
            t->exec_path = NULL;
            if (n > 0) {
                path[n] = '\0';
                t->exec_path = xstrdup(path);
            }
        }
        target_push(t, &ev);
        /* (kept stopped: the caller continues it, maybe to main first) */
        th->state = TH_STOPPED;
        th->mid_call = 0;
        return;
    }
    if (event == PTRACE_EVENT_STOP) {
        if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
            sig == SIGTTOU) {
            /* group-stop: stay stopped, as the program would untraced */
            th->state = TH_GROUP;
            ptrace(PTRACE_LISTEN, tid, 0, 0);
            target_check_stopped(t);
            return;
        }
        /* An interrupt, a new thread's first stop, or the end of a
         * group-stop. */
        if (t->interrupting || th->want_stop) {
            th->state = TH_STOPPED;
            th->want_stop = 0;
            target_check_stopped(t);
        } else {
            target_resume(t, th);
        }
        return;
    }
    if (event != 0) {
        target_resume(t, th);
        return;
    }

    /* signal-delivery-stop */
    if (sig == SIGTRAP && (target_bp_hit(t, th) || target_hit_break(t, th)))
        return;
    if (tid == t->inject_tid && sig == SIGSEGV) {
        /* the call of target_inject() returned to address 0 (or
         * crashed: the caller looks) */
        th->state = TH_STOPPED;
        t->inject_done = 1;
        return;
    }
    if (target_fatal(sig)) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        ptrace(PTRACE_GETSIGINFO, tid, 0, &si);
        th->state = TH_FAULT;
        th->pending_sig = sig;
        memset(&ev, 0, sizeof ev);
        ev.kind = TARGET_EV_FAULT;
        ev.tid = tid;
        ev.signo = sig;
        ev.code = si.si_code;
        /* si_addr means something only for a fault the kernel raised */
        ev.addr = si.si_code > 0 ? (uint64_t)(uintptr_t)si.si_addr : 0;
        target_push(t, &ev);
        target_check_stopped(t);
        return;
    }
    if (t->interrupting || th->want_stop) {
        /* keep the signal for when the thread goes on */
        th->pending_sig = sig;
        th->state = TH_STOPPED;
        th->want_stop = 0;
        target_check_stopped(t);
        return;
    }
    th->pending_sig = sig;
    target_resume(t, th);
}

static uint64_t target_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Let go of the processes the program created once they have stopped
 * for the first time (PTRACE_DETACH needs a stop); returns 1 when one
 * was. */
static int target_let_children_go(struct target *t)
{
    int status, any = 0;
    unsigned int i = 0;

    if (t->keep_children)
        return 0;
    while (i < t->nchildren) {
        pid_t c = t->children[i];
        pid_t w = waitpid(c, &status, WNOHANG | __WALL);

        if (w == c && WIFSTOPPED(status)) {
            target_child_go(t, c);
        } else if (!(w < 0 || (w == c && !WIFSTOPPED(status)))) {
            i++;
            continue;
        }
        /* detached, gone, or not ours */
        t->children[i] = t->children[--t->nchildren];
        any = 1;
    }
    return any;
}

/* Collect every pending wait status of our threads.  Only when SIGCHLD
 * said so, or the last reap stopped early, or as a backstop every 100 ms
 * (the pipe is shared by all targets): a busy channel calls this often. */
static void target_reap(struct target *t)
{
    int again = 1, status;
    uint64_t now = target_now_ns();

    target_reap_loose();
    if (t->wakes_seen == target_wakes && !t->reap_more &&
        now - t->last_reap < 100000000u)
        return;
    t->wakes_seen = target_wakes;
    t->last_reap = now;
    t->reap_more = 0;
    if (t->nvkids > 0)
        target_watch_vkids(t);
    /* what another target collected for us first, in order */
    for (unsigned int i = 0; i < t->nstash && t->alive; i++)
        target_handle(t, t->stash[i].tid, t->stash[i].status);
    t->nstash = 0;
    while (again && t->alive) {
        again = target_let_children_go(t);
        for (unsigned int i = 0; i < t->nthreads && t->alive; i++) {
            pid_t tid = t->threads[i].tid;
            pid_t w = waitpid(tid, &status, WNOHANG | __WALL);
            if (w == tid) {
                target_handle(t, tid, status);
                again = 1;
            } else if (w < 0 && errno == ECHILD) {
                /* gone without a word (exec by another thread) */
                if (tid != t->pid) {
                    target_remove_thread(t, tid);
                    again = 1;
                }
            }
            if (t->qlen >= TARGET_QUEUE - 2) {
                t->reap_more = 1;
                return;
            }
        }
    }
}

int target_behind(const struct target *t)
{
    /* (an event collected already, by target_interrupt() say, waits in
     * the queue with no wake-up left to announce it: its end too) */
    return t->qlen > 0 ||
           (t->alive && (t->wakes_seen != target_wakes || t->nstash > 0));
}

int target_poll(struct target *t, struct target_event *ev)
{
    if (t->qlen == 0)
        target_reap(t);
    if (t->qlen == 0)
        return 0;
    *ev = t->queue[t->qhead];
    t->qhead = (t->qhead + 1) % t->qcap;
    t->qlen--;
    return 1;
}

static long target_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int target_wait(struct target *t, struct target_event *ev, int timeout_ms)
{
    long deadline = timeout_ms < 0 ? -1 : target_now_ms() + timeout_ms;

    for (;;) {
        struct pollfd pfd = {.fd = target_pipe[0], .events = POLLIN};
        int left = 100;

        if (target_poll(t, ev))
            return 1;
        if (!t->alive && t->qlen == 0)
            return 0;
        if (deadline >= 0) {
            long now = target_now_ms();
            if (now >= deadline)
                return 0;
            if (deadline - now < left)
                left = (int)(deadline - now);
        }
        /* The timeout is a backstop against a lost wake-up. */
        poll(&pfd, 1, left);
    }
}

int target_continue(struct target *t, char **cause)
{
    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    t->interrupting = 0;
    t->breaking = 0;
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].state == TH_STOPPED)
            target_resume(t, &t->threads[i]);
    }
    return 0;
}

/* Collect the stops already there before asking for more: an interrupt
 * asked of a thread in a stop nobody collected yet stays pending in the
 * kernel, and stops the thread again at once each time it is continued
 * (until someone looks, it would never run). */
static void target_collect(struct target *t)
{
    t->reap_more = 1;
    target_reap(t);
}

int target_interrupt(struct target *t, char **cause)
{
    if (t->alive)
        target_collect(t);
    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    target_stop_all(t);
    return 0;
}

int target_stop_thread(struct target *t, pid_t tid, int timeout_ms,
                       char **cause)
{
    struct target_thread *th = target_thread(t, tid);
    long deadline = target_now_ms() + timeout_ms;

    if (t->alive && th != NULL) {
        target_collect(t);
        th = target_thread(t, tid);
    }
    if (!t->alive || th == NULL) {
        xcause(cause, "thread %d is not running", (int)tid);
        return -1;
    }
    if (th->state != TH_RUNNING)
        return th->state == TH_STOPPED ? 0 : -1;
    th->want_stop = 1;
    if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0) {
        th->want_stop = 0;
        xcause(cause, "cannot stop thread %d: %s", (int)tid, strerror(errno));
        return -1;
    }
    for (;;) {
        struct pollfd pfd = {.fd = target_pipe[0], .events = POLLIN};
        long now;

        t->reap_more = 1;
        target_reap(t);
        th = target_thread(t, tid);
        if (th == NULL || !t->alive) {
            xcause(cause, "thread %d ended", (int)tid);
            return -1;
        }
        if (th->state == TH_STOPPED)
            return 0;
        if (th->state != TH_RUNNING) {
            th->want_stop = 0;
            xcause(cause, "thread %d stopped for another reason", (int)tid);
            return -1;
        }
        now = target_now_ms();
        if (now >= deadline) {
            xcause(cause, "thread %d did not stop within %d ms", (int)tid,
                   timeout_ms);
            return -1;
        }
        poll(&pfd, 1, (int)(deadline - now < 20 ? deadline - now : 20));
    }
}

int target_resume_thread(struct target *t, pid_t tid, char **cause)
{
    struct target_thread *th = target_thread(t, tid);

    if (th == NULL || th->state != TH_STOPPED) {
        xcause(cause, "thread %d is not stopped", (int)tid);
        return -1;
    }
    target_resume(t, th);
    return 0;
}

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

int target_fault_pass(struct target *t, pid_t tid, char **cause)
{
    struct target_thread *th = target_thread(t, tid);

    if (th == NULL || th->state != TH_FAULT) {
        xcause(cause, "thread %d is not waiting on a fault", (int)tid);
        return -1;
    }
    target_resume(t, th);
    return 0;
}

int target_fault_discard(struct target *t, pid_t tid, char **cause)
{
    struct target_thread *th = target_thread(t, tid);

    if (th == NULL || th->state != TH_FAULT) {
        xcause(cause, "thread %d is not waiting on a fault", (int)tid);
        return -1;
    }
    th->pending_sig = 0;
    target_resume(t, th);
    return 0;
}

int target_kill(struct target *t)
{
    if (!t->alive)
        return -1;
    return kill(t->pid, SIGKILL);
}

/* A thread that is stopped (so ptrace may touch memory), or 0. */
static pid_t target_stopped_tid(const struct target *t)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].state != TH_RUNNING &&
            t->threads[i].state != TH_GROUP)
            return t->threads[i].tid;
    }
    return 0;
}

int target_run_to(struct target *t, uint64_t addr, char **cause)
{
#if defined(__x86_64__)
    pid_t tid = target_stopped_tid(t);
    long word;

    if (!t->alive || !target_stopped(t) || tid == 0) {
        xcause(cause, "the program must be stopped to set a breakpoint");
        return -1;
    }
    if (t->bp_addr != 0) {
        xcause(cause, "a breakpoint is already set");
        return -1;
    }
    errno = 0;
    word = ptrace(PTRACE_PEEKTEXT, tid, (void *)(uintptr_t)addr, 0);
    if (errno != 0) {
        xcause(cause, "cannot read code at 0x%llx: %s",
               (unsigned long long)addr, strerror(errno));
        return -1;
    }
    if (ptrace(PTRACE_POKETEXT, tid, (void *)(uintptr_t)addr,
               (void *)((word & ~0xffL) | 0xcc)) != 0) {
        xcause(cause, "cannot set a breakpoint at 0x%llx: %s",
               (unsigned long long)addr, strerror(errno));
        return -1;
    }
    t->bp_addr = addr;
    t->bp_word = word;
    return target_continue(t, cause);
#else
    (void)t;
    (void)addr;
    xcause(cause, "breakpoints are not supported on this architecture");
    return -1;
#endif
}

/* --- breakpoints at probe sites and counters <design#probes> ------------ */

static struct target_bp *target_bp_find(const struct target *t, uint64_t addr)
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
static void target_undo_in(const struct target *t, pid_t pid)
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
static void target_forget_changes(struct target *t)
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
static int target_emulate(pid_t tid, const struct target_bp *bp, int memfd)
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
static int target_bp_hit(struct target *t, struct target_thread *th)
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
    memset(&ev, 0, sizeof ev);
    ev.kind = TARGET_EV_BREAKPOINT;
    ev.tid = th->tid;
    ev.addr = bp->addr;
    target_push(t, &ev);
    target_check_stopped(t);
    return 1;
}
#else
static int target_emulate(pid_t tid, const struct target_bp *bp, int memfd)
{
    (void)tid;
    (void)bp;
    (void)memfd;
    return -1;
}

static int target_bp_hit(struct target *t, struct target_thread *th)
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

int target_pause(struct target *t, int timeout_ms, char **cause)
{
    long deadline = target_now_ms() + timeout_ms;

    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    target_collect(t);
    for (;;) {
        struct pollfd pfd = {.fd = target_pipe[0], .events = POLLIN};
        int running = 0;

        /* (threads made meanwhile too) */
        for (unsigned int i = 0; i < t->nthreads; i++) {
            struct target_thread *th = &t->threads[i];

            if (th->state != TH_RUNNING)
                continue;
            running = 1;
            if (th->paused && th->want_stop)
                continue;
            th->paused = 1;
            th->want_stop = 1;
            ptrace(PTRACE_INTERRUPT, th->tid, 0, 0);
        }
        if (!running)
            return 0;
        t->reap_more = 1;
        target_reap(t);
        if (!t->alive) {
            xcause(cause, "the program ended");
            return -1;
        }
        if (target_now_ms() >= deadline) {
            xcause(cause, "the program's threads did not stop within %d ms",
                   timeout_ms);
            target_unpause(t);
            return -1;
        }
        poll(&pfd, 1, 1);
    }
}

void target_unpause(struct target *t)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        struct target_thread *th = &t->threads[i];

        th->want_stop = 0;
        if (th->paused && th->state == TH_STOPPED && !t->interrupting)
            target_resume(t, th);
        th->paused = 0;
    }
}

int target_regs(struct target *t, pid_t tid, struct user_regs_struct *regs)
{
    (void)t;
    return ptrace(PTRACE_GETREGS, tid, 0, regs) == 0 ? 0 : -1;
}

/* Whether CHILD was made by vfork (and forget it). */
static int target_take_vforked(struct target *t, pid_t child)
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
static void target_child_go(struct target *t, pid_t child)
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
static void target_vkids_go(struct target *t)
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
static void target_watch_vkids(struct target *t)
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

/* Word-by-word access through ptrace, for when process_vm fails; *DONE
 * (when not NULL) says how many bytes were, up to a failure. */
static int target_ptrace_rw(struct target *t, uint64_t addr, void *rbuf,
                            const void *wbuf, size_t len, size_t *donep,
                            char **cause)
{
    pid_t tid = target_stopped_tid(t);
    size_t done = 0;

    if (donep != NULL)
        *donep = 0;

    if (tid == 0) {
        xcause(cause, "cannot access 0x%llx: the program is running and "
               "process_vm access failed", (unsigned long long)addr);
        return -1;
    }
    while (done < len) {
        uint64_t a = (addr + done) & ~(uint64_t)7;
        size_t skip = (size_t)(addr + done - a);
        size_t n = sizeof(long) - skip;
        long word;

        if (n > len - done)
            n = len - done;
        errno = 0;
        word = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)a, 0);
        if (errno != 0) {
            xcause(cause, "cannot read 0x%llx: %s",
                   (unsigned long long)(addr + done), strerror(errno));
            return -1;
        }
        if (rbuf != NULL) {
            memcpy((char *)rbuf + done, (char *)&word + skip, n);
        } else {
            memcpy((char *)&word + skip, (const char *)wbuf + done, n);
            if (ptrace(PTRACE_POKEDATA, tid, (void *)(uintptr_t)a,
                       (void *)word) != 0) {
                xcause(cause, "cannot write 0x%llx: %s",
                       (unsigned long long)(addr + done), strerror(errno));
                return -1;
            }
        }
        done += n;
        if (donep != NULL)
            *donep = done;
    }
    return 0;
}

int target_read(struct target *t, uint64_t addr, void *buf, size_t len,
                char **cause)
{
    struct iovec local = {.iov_base = buf, .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr,
                           .iov_len = len};

    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (process_vm_readv(t->pid, &local, 1, &remote, 1, 0) == (ssize_t)len)
        return 0;
    return target_ptrace_rw(t, addr, buf, NULL, len, NULL, cause);
}

size_t target_read_some(struct target *t, uint64_t addr, void *buf,
                        size_t len)
{
    struct iovec local = {.iov_base = buf, .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr,
                           .iov_len = len};
    ssize_t n;
    size_t done = 0;

    if (!t->alive || len == 0)
        return 0;
    n = process_vm_readv(t->pid, &local, 1, &remote, 1, 0);
    if (n >= 0)
        return (size_t)n;
    /* no process_vm_readv here: word by word while a thread is stopped */
    target_ptrace_rw(t, addr, buf, NULL, len, &done, NULL);
    return done;
}

int target_thread_stopped(const struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++)
        if (t->threads[i].tid == tid)
            return t->threads[i].state == TH_STOPPED ||
                   t->threads[i].state == TH_FAULT;
    return 0;
}

int target_write(struct target *t, uint64_t addr, const void *buf,
                 size_t len, char **cause)
{
    struct iovec local = {.iov_base = (void *)(uintptr_t)buf,
                          .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr,
                           .iov_len = len};

    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (process_vm_writev(t->pid, &local, 1, &remote, 1, 0) == (ssize_t)len)
        return 0;
    return target_ptrace_rw(t, addr, NULL, buf, len, NULL, cause);
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

const char *target_thread_state(const struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        const struct target_thread *th = &t->threads[i];

        if (th->tid != tid)
            continue;
        switch (th->state) {
        case TH_RUNNING:
            return "running";
        case TH_STOPPED:
            return th->mid_call ? "stopped inside a system call" : "stopped";
        case TH_FAULT:
            return "stopped at a fatal signal";
        case TH_GROUP:
            return "in a group-stop";
        case TH_BREAK:
            return "stopped at a probe's breakpoint";
        }
    }
    return "not known";
}

pid_t target_main_thread(const struct target *t)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].tid == t->pid && t->threads[i].state == TH_STOPPED &&
            !t->threads[i].mid_call)
            return t->pid;
    }
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].state == TH_STOPPED && !t->threads[i].mid_call)
            return t->threads[i].tid;
    }
    return 0;
}

int target_pc(struct target *t, pid_t tid, uint64_t *pc)
{
#if defined(__x86_64__)
    struct user_regs_struct regs;

    (void)t;
    if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0)
        return -1;
    *pc = regs.rip;
    return 0;
#else
    (void)t;
    (void)tid;
    (void)pc;
    return -1;
#endif
}

unsigned int target_threads(const struct target *t, pid_t *tids,
                            unsigned int max)
{
    unsigned int i;

    for (i = 0; i < t->nthreads && i < max; i++)
        tids[i] = t->threads[i].tid;
    return i;
}
