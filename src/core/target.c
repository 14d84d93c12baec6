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
 *
 * Its code is a file a role behind target.h, sharing struct target
 * through target-int.h <design#target>.  This file: the threads and their
 * wait statuses, the events they make, and run control (continue,
 * interrupt, a thread stopped or resumed alone, faults passed or
 * discarded, kill).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target-int.h"
#include "xmalloc.h"

/*
 * The SIGCHLD self-pipe.  Created with the first target, read-only after;
 * the handler only notes the signal (target_signalled) and writes a byte
 * to it, so that the pipe is read only when it holds something.  It is
 * shared by every target: a reap that empties it counts a wake-up in
 * target_wakes, so that every other target reaps at its next poll too
 * (several processes are monitored at once).
 */
int target_pipe[2] = {-1, -1};
unsigned long target_wakes;
volatile sig_atomic_t target_signalled;

/* The live targets, so that a status collected by one for another's
 * thread reaches it: changed only as targets are made and freed. */
struct target **target_all;
unsigned int target_nall;

static void target_sigchld(int sig)
{
    int saved = errno;
    char c = 0;

    (void)sig;
    target_signalled = 1;
    if (write(target_pipe[1], &c, 1) < 0) {
        /* full: a wake-up is already pending */
    }
    errno = saved;
}

int target_setup_pipe(char **cause)
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

struct target_thread *target_thread(struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].tid == tid)
            return &t->threads[i];
    }
    return NULL;
}

struct target_thread *target_add_thread(struct target *t, pid_t tid,
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
    memset(th, 0, sizeof *th);
    th->tid = tid;
    th->state = state;
    t->threads_gen++;
    return th;
}

static void target_remove_thread(struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++) {
        if (t->threads[i].tid == tid) {
            t->threads[i] = t->threads[--t->nthreads];
            t->threads_gen++;
            return;
        }
    }
}

/* Thread TID's registers are changed, or it goes on: those its hit kept
 * are not its own any more. */
void target_forget_regs(struct target *t, pid_t tid)
{
#if defined(__x86_64__)
    struct target_thread *th = target_thread(t, tid);

    if (th != NULL)
        th->have_regs = 0;
#else
    (void)t;
    (void)tid;
#endif
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

void target_push(struct target *t, const struct target_event *ev)
{
    target_queue_room(t);
    t->queue[(t->qhead + t->qlen) % t->qcap] = *ev;
    t->qlen++;
}

void target_register(struct target *t)
{
    target_all = xreallocarray(target_all, target_nall + 1,
                               sizeof *target_all);
    target_all[target_nall++] = t;
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

void target_resume(struct target *t, struct target_thread *th)
{
    int sig = th->pending_sig;

    (void)t;
    th->pending_sig = 0;
    th->state = TH_RUNNING;
    th->mid_call = 0;
#if defined(__x86_64__)
    th->have_regs = 0;
#endif
    if (ptrace(PTRACE_CONT, th->tid, 0, sig) != 0 && errno != ESRCH)
        th->state = TH_STOPPED;
}

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
void target_check_stopped(struct target *t)
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
void target_stop_all(struct target *t)
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
    th->have_regs = 0;
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
void target_reap(struct target *t)
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
    /* Each thread is looked at once a pass; another pass only when the
     * threads or the children changed under this one (a thread moved
     * into a place looked at already, a child to let go).  A thread
     * that stops again after this one looked at it raises SIGCHLD
     * anew, and the next reap takes it. */
    while (again && t->alive) {
        unsigned long gen = t->threads_gen;
        unsigned int nchildren = t->nchildren;

        again = target_let_children_go(t);
        for (unsigned int i = 0; i < t->nthreads && t->alive; i++) {
            pid_t tid = t->threads[i].tid;
            pid_t w = waitpid(tid, &status, WNOHANG | __WALL);
            if (w == tid) {
                target_handle(t, tid, status);
            } else if (w < 0 && errno == ECHILD) {
                /* gone without a word (exec by another thread) */
                if (tid != t->pid)
                    target_remove_thread(t, tid);
            }
            if (t->qlen >= TARGET_QUEUE - 2) {
                t->reap_more = 1;
                return;
            }
        }
        if (t->threads_gen != gen || t->nchildren != nchildren)
            again = 1;
    }
}

/* Whether a child or a traced thread of noosa has a wait status, looked
 * at without collecting it. */
static int target_peek(void)
{
    siginfo_t si;

    si.si_pid = 0;
    return waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT |
                                     __WALL) == 0 &&
           si.si_pid != 0;
}

int target_spin(uint64_t ns)
{
    struct timespec zero = {0, 0};
    uint64_t end = target_now_ns() + ns;
    sigset_t chld, old;
    int found = 0;

    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &chld, &old) != 0)
        return 0;
    do {
        if (target_peek()) {
            found = 1;
            break;
        }
        sched_yield();
    } while (target_now_ns() < end);
    /* The signal a status raised meanwhile is taken here: for a status
     * seen, every target reaps at its next poll, as the handler's byte
     * would make them; for one that came too late to be seen (or a
     * child's that is no target's), the handler is run. */
    if (sigtimedwait(&chld, NULL, &zero) == SIGCHLD && !found)
        target_sigchld(SIGCHLD);
    if (found)
        target_wakes++;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return found;
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

long target_now_ms(void)
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
void target_collect(struct target *t)
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
pid_t target_stopped_tid(const struct target *t)
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
#if defined(__x86_64__)
    /* (a thread at a probe: as its hit read them) */
    const struct target_thread *th = target_thread(t, tid);

    if (th != NULL && th->state == TH_BREAK && th->have_regs) {
        *regs = th->regs;
        return 0;
    }
#else
    (void)t;
#endif
    return ptrace(PTRACE_GETREGS, tid, 0, regs) == 0 ? 0 : -1;
}

int target_thread_stopped(const struct target *t, pid_t tid)
{
    for (unsigned int i = 0; i < t->nthreads; i++)
        if (t->threads[i].tid == tid)
            return t->threads[i].state == TH_STOPPED ||
                   t->threads[i].state == TH_FAULT;
    return 0;
}

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
