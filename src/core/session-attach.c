/* SPDX-License-Identifier: MIT */
/*
 * session-attach.c - attach to a running program and let programs go
 * <design#attach>: its runtime made to open a channel that noosa fills in,
 * through calls injected in a stopped thread (attach_runtime(), also how a
 * followed child or an exec's image is attached to); detach, with its
 * quiet periods tried until no thread is inside the runtime; and the
 * programs noosa started and let go, reaped as they end and their ends
 * told.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "loop.h"
#include "protocol.h"
#include "region.h"
#include "probes.h"
#include "session-int.h"
#include "symbols.h"
#include "xmalloc.h"

/* Attaching to a running program <protocol#attach>: how long each call
 * made in one of its threads may take (how long they may take to stop is
 * SESSION_ATTACH_STOP_MS). */
#define SESSION_ATTACH_CALL_MS 20000
/* Detaching: how long the program runs with every event off before the
 * runtime lets go of the region, so that no thread is inside it; and how
 * many times it is given that while a thread still is. */
#define SESSION_DETACH_QUIET_MS 10
#define SESSION_DETACH_TRIES 100

int session_attached(const struct session *s)
{
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL && target_alive(t) && target_is_attached(t))
            return 1;
    }
    return s->nprocs == 0 && s->target != NULL && target_alive(s->target) &&
           target_is_attached(s->target);
}

/* While a call runs in the program: take what the channel has (its
 * interface, acknowledged as it comes). */
static void attach_pump(void *arg)
{
    drain(arg, SESSION_BATCH);
}

/* Call FN(A0, A1, A2) in the stopped thread TID. */
static int attach_call(struct session *s, pid_t tid, uint64_t fn, uint64_t a0,
                       uint64_t a1, uint64_t a2, int pump, uint64_t *ret,
                       char **cause)
{
    const uint64_t args[3] = {a0, a1, a2};

    return target_inject(s->target, tid, fn, args, pump ? attach_pump : NULL,
                         s, SESSION_ATTACH_CALL_MS, ret, cause);
}

/* Close descriptor FD of the program (made by dapto_attach_open and not
 * handed over), through its own close(). */
static void attach_close(struct session *s, struct symbols *sym, pid_t tid,
                         int fd)
{
    uint64_t fn, ret;

    if (symbols_address(sym, "close", &fn, NULL) == 0)
        attach_call(s, tid, fn, (uint64_t)fd, 0, 0, 0, &ret, NULL);
}

/* A descriptor of process PID (number FD there) for us, or -1. */
static int attach_getfd(int pidfd, int fd)
{
#if defined(SYS_pidfd_getfd)
    return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
#else
    (void)pidfd;
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

static int attach_pidfd(pid_t pid)
{
#if defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int session_attach(struct session *s, pid_t pid, char **cause)
{
    struct target *t;

    if (s->state != SESSION_IDLE) {
        xcause(cause, "a program is being monitored already: kill it or "
               "detach from it first");
        return -1;
    }
    discard(s);
    if (target_attach(&t, pid, SESSION_ATTACH_STOP_MS, cause) != 0)
        return -1;
    procs_begin(s, t, NULL);
    if (attach_runtime(s, pid, cause) != 0)
        return -1;
    /* <design#probes>: its probes, which its runtime may handle (it has
     * said hello) */
    probes_begin(s);
    if (s->cur != NULL && s->cur->probes != NULL && s->cur->hello)
        probes_runtime(s->cur->probes);
    return 0;
}

static unsigned int detach_busy(struct session *s, char **where, pid_t *busy,
                                unsigned int max);
static int quiet_try(struct session *s, int k, const pid_t *busy,
                     unsigned int nbusy);

/* The runtime of process PID (s->target, stopped) still had the channel
 * of a monitor that is gone, and has let it go (dapto_attach_open said
 * -ESTALE <protocol#attach>): the program runs a moment, as at a detach,
 * until no thread is inside the runtime (one may be using that region),
 * then it gives the channel back (FN_END, dapto_attach_end), called in
 * *TID, a thread found outside it.  0, or -1 with *CAUSE. */
static int release_stale(struct session *s, pid_t pid, uint64_t fn_end,
                         pid_t *tid, char **cause)
{
    pid_t busy[64];
    unsigned int nbusy = 0;
    char *where = NULL;
    uint64_t ret;

    for (int k = 0;; k++) {
        int stopped = quiet_try(s, k, busy, nbusy);

        if (s->target == NULL || !target_alive(s->target)) {
            xcause(cause, "process %d ended", (int)pid);
            free(where);
            return -1;
        }
        nbusy = stopped ? detach_busy(s, &where, busy, 64) : 0;
        if (stopped && nbusy == 0 &&
            (*tid = target_main_thread(s->target)) != 0)
            break;
        if (k == SESSION_DETACH_TRIES) {
            xcause(cause, "process %d still has the channel of a noosa that "
                   "is gone, and a thread stays inside its runtime (%s): "
                   "attach again later", (int)pid,
                   where != NULL ? where : "no thread could be stopped");
            free(where);
            return -1;
        }
    }
    free(where);
    if (attach_call(s, *tid, fn_end, 0, 0, 0, 0, &ret, cause) != 0)
        return -1;
    message(s, "Process %d still had the channel of a noosa that is gone: "
            "it gave it back.", (int)pid);
    return 0;
}

/* The runtime of process PID (s->target, stopped) makes a channel that
 * noosa fills in, and attaches to it <protocol#attach>.  On failure the
 * target is let go and freed. */
int attach_runtime(struct session *s, pid_t pid, char **cause)
{
    struct symbols *sym = NULL;
    struct channel_opts copts;
    uint64_t fn_open, fn_start, fn_end, addr, ret;
    int pidfd = -1, mfd = -1, efd = -1, rmfd, refd;
    pid_t tid;
    char *why = NULL;

    sym = symbols_open(pid, &why);
    if (sym == NULL) {
        xcause(cause, "cannot read the symbols of process %d: %s", (int)pid,
               why);
        free(why);
        goto fail_target;
    }
    if (symbols_address(sym, "dapto_attach_open", &fn_open, NULL) != 0 ||
        symbols_address(sym, "dapto_attach_start", &fn_start, NULL) != 0 ||
        symbols_address(sym, "dapto_attach_end", &fn_end, NULL) != 0) {
        if (symbols_address(sym, "dapto_register", &addr, NULL) == 0 ||
            symbols_address(sym, "dapto_monitored", &addr, NULL) == 0)
            xcause(cause, "process %d has a dapto runtime too old to be "
                   "attached to: it speaks channel protocol %d.%d.%d or "
                   "older, and attaching needs %d.%d.%d (this noosa speaks "
                   "%d.%d.%d)", (int)pid, DAPTO_PROTO_MAJOR,
                   DAPTO_PROTO_MEDIAN, DAPTO_ATTACH_MINOR - 1,
                   DAPTO_PROTO_MAJOR, DAPTO_PROTO_MEDIAN, DAPTO_ATTACH_MINOR,
                   DAPTO_PROTO_MAJOR, DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
        else
            xcause(cause, "process %d is not linked with libdapto: it has no "
                   "monitoring interface to attach to", (int)pid);
        goto fail_symbols;
    }
    tid = target_main_thread(s->target);
    if (tid == 0) {
        xcause(cause, "no thread of process %d can call its runtime now "
               "(stopped by a signal? then kill -CONT %d; or each in the "
               "middle of creating a thread): attach again", (int)pid,
               (int)pid);
        goto fail_symbols;
    }

    /* <protocol#attach>: the program makes the descriptors, we take
     * copies, fill in the region, and the program attaches to it */
    if (attach_call(s, tid, fn_open, 0, 0, 0, 0, &ret, cause) != 0)
        goto fail_symbols;
    if ((int64_t)ret == -ESTALE) {
        /* the channel of a noosa that died attached: given back, then
         * asked again */
        if (release_stale(s, pid, fn_end, &tid, cause) != 0 ||
            attach_call(s, tid, fn_open, 0, 0, 0, 0, &ret, cause) != 0)
            goto fail_symbols;
    }
    if ((int64_t)ret < 0) {
        if ((int64_t)ret == -EBUSY)
            xcause(cause, "process %d is monitored already (its runtime "
                   "has a channel)", (int)pid);
        else
            xcause(cause, "process %d cannot make a channel: %s", (int)pid,
                   strerror((int)-(int64_t)ret));
        goto fail_symbols;
    }
    rmfd = (int)(ret & 0xffffffffu);
    refd = (int)(ret >> 32);
    pidfd = attach_pidfd(pid);
    if (pidfd >= 0) {
        mfd = attach_getfd(pidfd, rmfd);
        if (mfd >= 0)
            efd = attach_getfd(pidfd, refd);
    }
    if (efd < 0) {
        xcause(cause, "cannot take the channel's descriptors from process "
               "%d: %s", (int)pid, strerror(errno));
        goto fail_fds;
    }
    fcntl(mfd, F_SETFD, FD_CLOEXEC);
    fcntl(efd, F_SETFD, FD_CLOEXEC);
    close(pidfd);
    pidfd = -1;
    memset(&copts, 0, sizeof copts);
    copts.ring_size = s->opts.ring_size;
    copts.overwrite = s->opts.overwrite;
    copts.no_tsc = s->opts.no_tsc;
    copts.default_state = DAPTO_STATE_OFF;
    copts.trail_events = s->opts.trail_events;
    if (channel_adopt(&s->channel, &copts, mfd, efd, cause) != 0)
        goto fail_fds;
    mfd = efd = -1;
    /* a process joining a run counts its times from the run's start
     * <design#processes> */
    if (s->cur != NULL && s->cur->joined && s->procs[0] != s->cur &&
        pchannel(s, s->procs[0]) != NULL)
        channel_set_start(s->channel, channel_start(pchannel(s, s->procs[0])));
    /* the program cannot shrink the region under us from now on */
#if defined(F_ADD_SEALS)
    fcntl(channel_region(s->channel)->memfd, F_ADD_SEALS,
          F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
#endif
    channel_attach(s->channel, s->target);
    s->told_status = 1; /* another version is said in *cause */
    s->stop = -1;
    s->reading = 1;
    s->attaching = 1;
    s->attach_end = fn_end;
    s->state = SESSION_STOPPED;
    s->why = SESSION_INTERRUPTED;
    if (attach_call(s, tid, fn_start, (uint64_t)rmfd, (uint64_t)refd,
                    (uint64_t)getpid(), 1, &ret, cause) != 0) {
        s->attaching = 0;
        goto fail_channel;
    }
    drain(s, 0);
    s->attaching = 0;
    if ((int)ret != 1) {
        if (channel_status(s->channel) == CHANNEL_UNMONITORED)
            xcause(cause, "process %d's runtime speaks channel protocol %s; "
                   "this noosa speaks %d.%d.%d: not attached", (int)pid,
                   channel_runtime_version(s->channel), DAPTO_PROTO_MAJOR,
                   DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
        else
            xcause(cause, "the runtime of process %d did not attach (it "
                   "says why on its standard error)", (int)pid);
        s->told_status = 1;
        /* (it closed its descriptors itself) */
        goto fail_session;
    }
    symbols_free(sym);
    s->ended = 0;
    s->killed = 0;
    watch(s);
    changed(s);
    return 0;

fail_fds:
    if (pidfd >= 0)
        close(pidfd);
    if (mfd >= 0)
        close(mfd);
    if (efd >= 0)
        close(efd);
    attach_close(s, sym, tid, rmfd);
    attach_close(s, sym, tid, refd);
    goto fail_symbols;
fail_channel:
    /* the program may be half attached: turn it all off again */
    channel_let_go(s->channel);
    attach_call(s, tid, fn_end, 0, 0, 0, 0, &ret, NULL);
fail_session:
    s->state = SESSION_IDLE;
    s->reading = 0;
fail_symbols:
    symbols_free(sym);
fail_target:
    let_target_go(s);
    channel_free(s->channel);
    s->channel = NULL;
    s->state = SESSION_IDLE;
    return -1;
}

/* How many threads of the stopped program are inside the runtime, their
 * ids in BUSY (up to MAX); *WHERE (replaced) says which is the first and
 * where. */
static unsigned int detach_busy(struct session *s, char **where, pid_t *busy,
                                unsigned int max)
{
    pid_t tids[256];
    unsigned int i, n, nbusy = 0;

    if (s->hooks.inside == NULL)
        return 0;
    n = target_threads(s->target, tids, 256);
    for (i = 0; i < n; i++) {
        char *w = NULL;
        if (s->hooks.inside(s->hooks.arg, tids[i], &w)) {
            if (nbusy > 0) {
                /* (the first is said) */
                if (nbusy < max)
                    busy[nbusy] = tids[i];
                nbusy++;
                free(w);
                continue;
            }
            if (max > 0)
                busy[0] = tids[i];
            nbusy = 1;
            free(*where);
            char path[64], st[256] = "", sc[128] = "";
            FILE *f;

            /* what the kernel says of it: its state and system call */
            snprintf(path, sizeof path, "/proc/%d/task/%d/stat",
                     (int)target_pid(s->target), (int)tids[i]);
            if ((f = fopen(path, "re")) != NULL) {
                char line[512], *p = NULL;

                if (fgets(line, sizeof line, f) != NULL)
                    p = strrchr(line, ')');
                if (p != NULL && p[1] == ' ')
                    snprintf(st, sizeof st, "kernel state %c", p[2]);
                fclose(f);
            }
            snprintf(path, sizeof path, "/proc/%d/task/%d/syscall",
                     (int)target_pid(s->target), (int)tids[i]);
            if ((f = fopen(path, "re")) != NULL) {
                char line[256];
                unsigned long nr = 0, addr = 0;
                uint32_t word = 0xffffffffu;

                if (fgets(line, sizeof line, f) != NULL) {
                    line[strcspn(line, "\n")] = '\0';
                    /* a futex: what the word it waits on holds */
                    if (sscanf(line, "%lu %lx", &nr, &addr) == 2 &&
                        nr == SYS_futex &&
                        target_read(s->target, addr, &word, 4, NULL) == 0)
                        snprintf(sc, sizeof sc, ", system call %.60s, "
                                 "the word holds %u", line, (unsigned)word);
                    else
                        snprintf(sc, sizeof sc, ", system call %.100s", line);
                }
                fclose(f);
            }
            *where = xasprintf("thread %d, %s (%s%s), %s", (int)tids[i],
                               target_thread_state(s->target, tids[i]), st,
                               sc, w != NULL ? w : "in the runtime");
            free(w);
            continue;
        }
        free(w);
    }
    return nbusy;
}

/* Stop every thread of the program and wait until they are (or it
 * ended).  Returns 0 when stopped. */
static int detach_stop(struct session *s)
{
    struct target_event ev;

    if (!target_stopped(s->target) &&
        target_interrupt(s->target, NULL) != 0) {
        /* (it may be ending: take what it says, its exit first) */
        while (s->target != NULL && target_wait(s->target, &ev, 100))
            if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED) {
                on_target_event(s, &ev);
                break;
            }
        return -1;
    }
    while (target_alive(s->target) && !target_stopped(s->target)) {
        if (!target_wait(s->target, &ev, 2000))
            return -1;
        if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED) {
            on_target_event(s, &ev);
            return -1;
        }
    }
    return target_alive(s->target) ? 0 : -1;
}

/* Let the program run for a moment, its threads' stops collected as they
 * come (a thread stopped and left so would not get out of the runtime).
 * -1 when it ended meanwhile (and said so). */
static int detach_quiet(struct session *s)
{
    struct target_event ev;
    struct timespec t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        long ms;

        clock_gettime(CLOCK_MONOTONIC, &t1);
        ms = (t1.tv_sec - t0.tv_sec) * 1000L +
             (t1.tv_nsec - t0.tv_nsec) / 1000000L;
        if (ms >= SESSION_DETACH_QUIET_MS || !target_alive(s->target))
            return 0;
        if (!target_wait(s->target, &ev, (int)(SESSION_DETACH_QUIET_MS - ms)))
            continue;
        /* (anything else is left as detach_stop() leaves it) */
        if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED) {
            on_target_event(s, &ev);
            return -1;
        }
    }
}

/* Try K of letting the program's threads get out of the runtime: it runs
 * a moment (every other try only the NBUSY threads BUSY found inside it
 * last time go on: with the others running, the scheduler may never give
 * one of them its CPU in a quiet period, seven threads spinning on the
 * CPU of one that waits, a thread of SCHED_IDLE), a thread that still
 * waits is woken to find the channel let go, and it is stopped again.
 * Whether it is stopped (not when it ended meanwhile). */
static int quiet_try(struct session *s, int k, const pid_t *busy,
                     unsigned int nbusy)
{
    if (k % 2 == 1 && nbusy > 0 && nbusy <= 64) {
        for (unsigned int b = 0; b < nbusy; b++)
            target_resume_thread(s->target, busy[b], NULL);
    } else {
        target_continue(s->target, NULL);
    }
    if (s->channel != NULL)
        channel_wake_all(s->channel);
    return detach_quiet(s) == 0 && detach_stop(s) == 0;
}

/* Let the live program go on untraced, every event off and nothing of
 * the channel left in it <protocol#attach>; the session is then idle.
 * SAY: say so in the transcript.  1 when it ended meanwhile. */
static int detach_program(struct session *s, int say)
{
    uint64_t ret;
    pid_t pid, tid, busy[64];
    unsigned int nbusy = 0;
    char *why = NULL, *left_on = NULL, *busy_where = NULL;

    pid = target_pid(s->target);
    if (s->attach_end == 0) {
        /* a program noosa started: its runtime's own way out */
        struct symbols *sym = symbols_open(pid, NULL);

        if (sym != NULL)
            symbols_address(sym, "dapto_attach_end", &s->attach_end, NULL);
        symbols_free(sym);
    }
    /* every event off and nothing waits for us <protocol#letgo>; the
     * threads inside the runtime get out of it while the program runs
     * a moment */
    drain(s, 0);
    if (channel_states_off(s->channel, &left_on) > 0)
        message(s, "events on in process %d that noosa had not turned on "
                "(the program wrote their state bytes): %s; turned off",
                (int)pid, left_on);
    free(left_on);
    left_on = NULL;
    channel_let_go(s->channel);
    if (s->state == SESSION_STOPPED && s->why == SESSION_FAULT)
        target_fault_pass(s->target, s->fault.tid, NULL);
    for (int k = 0;; k++) {
        int stopped = quiet_try(s, k, busy, nbusy);

        if (s->target == NULL) {
            free(left_on);
            free(busy_where);
            return 1; /* it ended meanwhile (and said so) */
        }
        /* (a thread to call the runtime in, not one inside a clone) */
        nbusy = stopped ? detach_busy(s, &busy_where, busy, 64) : 0;
        if (stopped && nbusy == 0 && target_main_thread(s->target) != 0)
            break;
        if (stopped) {
            /* an event the program still has on (whatever turned it on)
             * keeps its threads coming back into the runtime */
            char *on = NULL;
            if (channel_states_off(s->channel, &on) > 0) {
                free(left_on);
                left_on = on;
            }
        }
        if (k == SESSION_DETACH_TRIES) {
            /* never unmap under a thread: leave the region there, unused */
            char *mbs = channel_mailboxes_busy(s->channel);

            message(s, "a thread of process %d stays inside the runtime "
                    "(%s%s%s%s%s): its channel is left in it, every event "
                    "off", (int)pid, busy_where != NULL ? busy_where :
                    "no thread could be stopped to call it",
                    left_on != NULL ? "; events found on again after they "
                                      "were turned off: " : "",
                    left_on != NULL ? left_on : "",
                    mbs != NULL ? "; " : "", mbs != NULL ? mbs : "");
            free(mbs);
            goto release;
        }
    }
    if (target_alive(s->target) && s->attach_end == 0) {
        message(s, "process %d's runtime has no way to give its channel "
                "back (older than protocol %d.%d.%d): it is left in it, "
                "every event off", (int)pid, DAPTO_PROTO_MAJOR,
                DAPTO_PROTO_MEDIAN, DAPTO_ATTACH_MINOR);
    } else if (target_alive(s->target)) {
        tid = target_main_thread(s->target);
        if (tid == 0 ||
            attach_call(s, tid, s->attach_end, 0, 0, 0, 0, &ret, &why) != 0) {
            message(s, "could not release the channel in process %d: %s",
                    (int)pid, why != NULL ? why : "no thread stopped");
            free(why);
        }
    }
release:
    free(left_on);
    free(busy_where);
    unwatch(s);
    if (s->target != NULL)
        let_target_go(s);
    channel_forget(s->channel);
    s->state = SESSION_IDLE;
    s->stop = -1;
    s->reading = 0;
    s->attach_end = 0;
    if (say)
        message(s, "Detached from process %d: it goes on unmonitored.",
                (int)pid);
    proc_note(s, pid, 0, "let go, unmonitored");
    changed(s);
    return 0;
}

/* Let the current process go as detach does (detach_program()); in a run
 * of several, the others go on as they were (the stop, when it was this
 * one's, is over).  1 when it ended meanwhile. */
int detach_proc(struct session *s, int say)
{
    struct sproc *p = s->cur;
    struct session_saved v;
    int rc, others = live_others(s, p) > 0;

    save_state(s, &v);
    s->hush += others;
    s->detaching = 1;
    rc = detach_program(s, say);
    s->detaching = 0;
    s->hush -= others;
    if (!others || s->state == SESSION_IDLE) {
        if (s->stop_proc == p)
            s->stop_proc = NULL;
        return rc;
    }
    restore_state(s, &v);
    if (v.stop_proc == p)
        stop_over(s);
    return rc;
}

/* session_detach() in a run of several processes: every one attached
 * to (a program noosa started is killed, never let go). */
static int detach_all(struct session *s, char **cause)
{
    int n = 0, started = 0;

    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t == NULL || !target_alive(t))
            continue;
        if (!target_is_attached(t)) {
            started++;
            continue;
        }
        select_proc(s, s->procs[i]);
        detach_proc(s, 1);
        n++;
    }
    select_focus(s);
    if (n > 0)
        return 0;
    xcause(cause, started > 0 ? "noosa started this program: it can only "
                                "kill it (detach is for programs attached "
                                "to with attach or -p)"
                              : "the program is not running");
    return -1;
}

int session_detach(struct session *s, char **cause)
{
    if (ending_refused(s, cause) != 0)
        return -1;
    if (s->nprocs > 1)
        return detach_all(s, cause);
    if (s->target == NULL || !target_alive(s->target)) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (!target_is_attached(s->target)) {
        xcause(cause, "noosa started this program: it can only kill it "
               "(detach is for programs attached to with attach or -p)");
        return -1;
    }
    detach_proc(s, 1);
    return 0;
}

/* Let the program of this run go on untraced and forget it; one noosa
 * started is its child still, reaped (and its end told) as it ends. */
void let_target_go(struct session *s)
{
    target_detach(s->target);
    forget_target(s);
    watch_loose(s);
}

/* Tell the ends of the programs noosa started and let go (at their exec,
 * or by detach) that were reaped: they are its children still. */
void report_loose(struct session *s)
{
    pid_t pid;
    int status, signo;
    char sig[32];

    while (target_loose_ended(&pid, &status, &signo)) {
        if (signo != 0)
            message(s, "Process %d, let go, was killed by %s.", (int)pid,
                    target_signal_name(signo, sig, sizeof sig));
        else
            message(s, "Process %d, let go, exited with status %d.", (int)pid,
                    status);
    }
}

/* SIGCHLD while no process is watched: a program let go may have ended. */
static void on_loose(int fd, short revents, void *arg)
{
    struct session *s = arg;

    (void)revents;
    target_reap_loose();
    report_loose(s);
    if (!s->watching && target_loose() == 0)
        loop_remove(s->loop, fd);
}

/* Programs let go that are still our children, when nothing else is
 * watched: reaped, and their ends told, as they end. */
void watch_loose(struct session *s)
{
    if (!s->watching && target_loose() > 0)
        loop_add(s->loop, target_fd(NULL), POLLIN, on_loose, s);
}
