/* SPDX-License-Identifier: MIT */
/*
 * session.c - a monitored program through its runs, driven by the front
 * end's loop.
 *
 * While the program runs, the session watches the target's descriptor and
 * the channel's; after every wake-up of the loop it takes what the channel
 * has (a bounded amount, so the front end stays responsive) and hands each
 * item to its hook.  An event whose thread waits is resumed unless the hook
 * keeps it; then the session stops reading the channel until the program
 * goes on, so that the order of events is kept and nothing is lost (other
 * threads wait for room in the ring, by design).  When the program ends,
 * every record it wrote is delivered before the end is reported.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "dapto.h"
#include "loop.h"
#include "protocol.h"
#include "region.h"
#include "session.h"
#include "symbols.h"
#include "xmalloc.h"

/* Items taken from the channel in one turn of the loop, and function
 * records taken by the direct path (much cheaper) at most meanwhile. */
#define SESSION_BATCH 4096
#define SESSION_DIRECT_BATCH 65536
/* How long the describe pass may take. */
#define SESSION_DESCRIBE_MS 20000
/* Attaching to a running program <protocol#attach>: how long its threads
 * may take to stop, and each call made in one of them. */
#define SESSION_ATTACH_STOP_MS 5000
#define SESSION_ATTACH_CALL_MS 20000
/* Detaching: how long the program runs with every event off before the
 * runtime lets go of the region, so that no thread is inside it; and how
 * many times it is given that while a thread still is. */
#define SESSION_DETACH_QUIET_MS 10
#define SESSION_DETACH_TRIES 100

/*
 * A process of the run <design#processes>.  The current process's target,
 * channel, told_status and attach_end live in struct session itself while
 * it is current, and here while it is not: select_proc() swaps them.  So
 * everything that speaks of "the program" (operations, states, filters,
 * detach) speaks of the current process, and a run of one process never
 * swaps anything.  Processes stay until the next run (an ended one keeps
 * its channel for its registry).
 */
struct sproc {
    struct session_process info; /* pid, parent, fate */
    struct target *target;
    struct channel *channel;
    int told_status;
    uint64_t attach_end;
    int joined;           /* it joined a run under way (not its first) */
    int end_pending;      /* it ended while another one was stopped at */
    struct target_event end; /* then how (status, signo) */
    int done;             /* it ended, with STATUS or killed by SIGNO */
    int status, signo;
    int fault_pending;    /* a fault came while another was stopped at */
    struct target_event fault;
};

struct session {
    struct loop *loop;
    struct session_hooks hooks;
    struct session_opts opts;
    char **argv;

    /* the current process (see struct sproc) */
    struct target *target;
    struct channel *channel; /* of the current or last run, or describe */
    enum session_state state;
    enum session_why why;
    int stop;      /* mailbox the program is stopped at (AT_EVENT) */
    int dispatching; /* mailbox of the event being handed to the hook */
    struct target_event fault;
    int watching;  /* descriptors are in the loop */
    int reading;   /* the channel is read (not stopped at an event) */
    int told_status; /* channel status already reported for this run */
    int told_none;   /* "no monitoring interface" said (once a session) */

    int ended;
    int end_status;
    int end_signo;
    int killed;    /* the last run ended by session_kill() */

    struct session_source source; /* next != NULL: a recording */
    uint64_t seq;  /* the number of the last item of the source given */
    int direct;    /* session_direct() is on */
    int counting;  /* session_counting() is on */
    /* the program's terminal set by session_set_tty(), or -1 and NULL:
     * changed only by that call, between runs or during one (for the
     * next) */
    int tty_fd;
    char *tty_path;
    /* a program attached to while it ran (session_attach) */
    int attaching;       /* calls in it are under way: never keep a stop */
    uint64_t attach_end; /* its runtime's dapto_attach_end */
    /* processes the program creates <protocol#fork> */
    enum session_follow follow;
    int following;  /* moving from a parent to its child */
    struct sproc **procs; /* of this run, oldest first */
    unsigned int nprocs, aprocs;
    struct sproc *cur;       /* whose target and channel are above */
    struct sproc *stop_proc; /* the one stopped at (AT_EVENT, FAULT) */
    int multi;      /* more than one process was monitored in this run */
    int hush;       /* state changes are steps: not told (changed()) */
    int detaching;  /* detach_proc(): an end is taken at once */
    int described;  /* the one process is the describe pass's (kept for
                       its registry, not one of a run) */
};

static int replay_run(struct session *s);
static void replay_stop(struct session *s, enum session_why why);
static void replay_ended(struct session *s, int killed);

static void free_argv(char **argv)
{
    size_t i;

    if (argv == NULL)
        return;
    for (i = 0; argv[i] != NULL; i++)
        free(argv[i]);
    free(argv);
}

static char **copy_argv(char *const *argv)
{
    size_t n = 0, i;
    char **copy;

    while (argv != NULL && argv[n] != NULL)
        n++;
    copy = xcalloc(n + 1, sizeof *copy);
    for (i = 0; i < n; i++)
        copy[i] = xstrdup(argv[i]);
    return copy;
}

struct session *session_create(struct loop *loop,
                               const struct session_hooks *hooks,
                               const struct session_opts *opts)
{
    struct session *s = xcalloc(1, sizeof *s);

    s->loop = loop;
    s->hooks = *hooks;
    s->opts = *opts;
    s->stop = -1;
    s->dispatching = -1;
    s->argv = xcalloc(1, sizeof *s->argv);
    s->tty_fd = -1;
    s->follow = SESSION_FOLLOW_BOTH;
    return s;
}

/* Processes <design#processes>. */

/* P's target and channel, wherever they are now. */
static struct target *ptarget(const struct session *s, const struct sproc *p)
{
    return p == s->cur ? s->target : p->target;
}

static struct channel *pchannel(const struct session *s,
                                const struct sproc *p)
{
    return p == s->cur ? s->channel : p->channel;
}

static int plive(const struct session *s, const struct sproc *p)
{
    struct target *t = ptarget(s, p);

    return t != NULL && target_alive(t);
}

/* Make P (NULL: none) the current process. */
static void select_proc(struct session *s, struct sproc *p)
{
    if (p == s->cur)
        return;
    if (s->cur != NULL) {
        s->cur->target = s->target;
        s->cur->channel = s->channel;
        s->cur->told_status = s->told_status;
        s->cur->attach_end = s->attach_end;
    }
    s->cur = p;
    s->target = p != NULL ? p->target : NULL;
    s->channel = p != NULL ? p->channel : NULL;
    s->told_status = p != NULL ? p->told_status : 0;
    s->attach_end = p != NULL ? p->attach_end : 0;
    if (s->hooks.process != NULL)
        s->hooks.process(s->hooks.arg);
}

static struct sproc *proc_find(const struct session *s, pid_t pid)
{
    for (unsigned int i = 0; i < s->nprocs; i++)
        if (s->procs[i]->info.pid == pid)
            return s->procs[i];
    return NULL;
}

/* A new process of the run (not current). */
static struct sproc *proc_new(struct session *s, pid_t pid, pid_t parent,
                              const char *fate)
{
    struct sproc *p = xcalloc(1, sizeof *p);

    p->info.pid = pid;
    p->info.parent = parent;
    p->info.fate = fate;
    if (s->nprocs == s->aprocs) {
        s->aprocs = s->aprocs == 0 ? 8 : 2 * s->aprocs;
        s->procs = xreallocarray(s->procs, s->aprocs, sizeof *s->procs);
    }
    s->procs[s->nprocs++] = p;
    return p;
}

/* How many processes are live, other than P (NULL: all of them). */
static unsigned int live_others(const struct session *s, const struct sproc *p)
{
    unsigned int n = 0;

    for (unsigned int i = 0; i < s->nprocs; i++)
        n += s->procs[i] != p && plive(s, s->procs[i]);
    return n;
}

/* The process commands speak of when none is being read: the one
 * stopped at, else the oldest live one, else the current one. */
static void select_focus(struct session *s)
{
    if (s->stop_proc != NULL) {
        select_proc(s, s->stop_proc);
        return;
    }
    if (s->cur != NULL && plive(s, s->cur) && s->cur == s->procs[0])
        return;
    for (unsigned int i = 0; i < s->nprocs; i++)
        if (plive(s, s->procs[i])) {
            select_proc(s, s->procs[i]);
            return;
        }
}

static void unwatch(struct session *s);
static void unwatch_all(struct session *s);
static void watch_loose(struct session *s);

/* Kill (if need be), reap and free the program of this run; the channel,
 * kept for its registry, no longer reaches it. */
static void forget_target(struct session *s)
{
    if (s->channel != NULL)
        channel_attach(s->channel, NULL);
    target_free(s->target);
    s->target = NULL;
}

/* Let the program of this run go on untraced and forget it; one noosa
 * started is its child still, reaped (and its end told) as it ends. */
static void let_target_go(struct session *s)
{
    target_detach(s->target);
    forget_target(s);
    watch_loose(s);
}

/* Forget every process: those alive are killed, or let go when attached
 * to (after session_detach()). */
static void procs_free(struct session *s)
{
    /* every one is killed before any is reaped, so that no reap waits
     * on a process still running */
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL && target_alive(t) && !target_is_attached(t))
            target_kill(t);
    }
    for (unsigned int i = 0; i < s->nprocs; i++) {
        select_proc(s, s->procs[i]);
        forget_target(s);
        channel_free(s->channel);
        s->channel = NULL;
    }
    select_proc(s, NULL);
    for (unsigned int i = 0; i < s->nprocs; i++)
        free(s->procs[i]);
    s->nprocs = 0;
    s->stop_proc = NULL;
    s->multi = 0;
}

void session_free(struct session *s)
{
    if (s == NULL)
        return;
    /* a program attached to goes on without us, as after detach */
    if (session_attached(s))
        session_detach(s, NULL);
    unwatch_all(s);
    s->hooks.process = NULL;
    procs_free(s);
    free_argv(s->argv);
    if (s->tty_fd >= 0)
        close(s->tty_fd);
    free(s->tty_path);
    free(s->procs);
    free(s);
}

void session_set_trail_events(struct session *s, unsigned int n)
{
    s->opts.trail_events = n;
}

int session_set_tty(struct session *s, const char *path, char **cause)
{
    int fd = -1;

    if (path != NULL) {
        fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            xcause(cause, "cannot open %s: %s", path, strerror(errno));
            return -1;
        }
        if (!isatty(fd)) {
            xcause(cause, "%s is not a terminal", path);
            close(fd);
            return -1;
        }
    }
    if (s->tty_fd >= 0)
        close(s->tty_fd);
    free(s->tty_path);
    s->tty_fd = fd;
    s->tty_path = path != NULL ? xstrdup(path) : NULL;
    return 0;
}

const char *session_tty(const struct session *s)
{
    return s->tty_path;
}

void session_set_program(struct session *s, char *const *argv)
{
    free_argv(s->argv);
    s->argv = copy_argv(argv);
}

char *const *session_argv(const struct session *s)
{
    return s->argv;
}

void session_set_args(struct session *s, char *const *args)
{
    size_t n = 0, i;
    char **argv;

    while (args[n] != NULL)
        n++;
    argv = xcalloc(n + 2, sizeof *argv);
    argv[0] = xstrdup(s->argv[0] != NULL ? s->argv[0] : "");
    for (i = 0; i < n; i++)
        argv[i + 1] = xstrdup(args[i]);
    free_argv(s->argv);
    s->argv = argv;
}

static void message(struct session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void message(struct session *s, const char *fmt, ...)
{
    va_list ap;
    char *text;

    va_start(ap, fmt);
    text = xvasprintf(fmt, ap);
    va_end(ap);
    if (s->hooks.message != NULL)
        s->hooks.message(s->hooks.arg, text);
    free(text);
}

static void changed(struct session *s)
{
    if (s->hooks.state != NULL && !s->hush)
        s->hooks.state(s->hooks.arg);
}

/* Report, once a run, that the program's runtime will not talk to us. */
static void tell_status(struct session *s)
{
    if (s->told_status || s->channel == NULL)
        return;
    switch (channel_status(s->channel)) {
    case CHANNEL_UNMONITORED:
        message(s, "the program's runtime speaks channel protocol %s; this "
                "noosa speaks %d.%d.%d: the program runs unmonitored",
                channel_runtime_version(s->channel), DAPTO_PROTO_MAJOR,
                DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
        s->told_status = 1;
        break;
    default:
        break;
    }
}

static void no_interface(struct session *s)
{
    if (!s->told_status && !s->told_none && s->channel != NULL &&
        channel_status(s->channel) == CHANNEL_WAITING) {
        message(s, "the program has no monitoring interface (it does not "
                "use the dapto runtime)");
        s->told_status = 1;
        s->told_none = 1;
    }
}

static void watch_channels(struct session *s, int on);

/* Hand one item to the hook; resume a waiting thread unless kept.
 * Returns 1 when the program stays stopped at the item. */
static int deliver(struct session *s, const struct reader_item *item)
{
    int keep = 0;
    char *cause = NULL;

    s->dispatching = item->stop;
    if (s->hooks.item != NULL)
        keep = s->hooks.item(s->hooks.arg, item);
    s->dispatching = -1;
    /* a corrupt channel: the hook has said so (and may have stopped or
     * killed the program); nothing waits for us from now on */
    if (s->channel != NULL && channel_status(s->channel) == CHANNEL_BROKEN)
        channel_let_go(s->channel);
    if (item->stop < 0)
        return 0;
    if (keep && !s->attaching &&
        (s->source.next != NULL ||
         (s->target != NULL && target_alive(s->target)))) {
        s->state = SESSION_STOPPED;
        s->why = SESSION_AT_EVENT;
        s->stop = item->stop;
        s->stop_proc = s->cur;
        s->reading = 0;
        watch_channels(s, 0);
        changed(s);
        return 1;
    }
    if (s->target == NULL || !target_alive(s->target))
        return 0; /* (the records of a program that has ended) */
    if (channel_resume(s->channel, item->stop, &cause) != 0) {
        message(s, "cannot resume the program: %s", cause);
        free(cause);
    }
    return 0;
}

/* Take up to MAX items from the channel (0: no limit).  Returns 1 when
 * more may be waiting. */
static int drain(struct session *s, unsigned int max)
{
    struct reader_item item;
    unsigned int n = 0;
    uint64_t direct;

    if (s->channel == NULL)
        return 0;
    direct = channel_direct_count(s->channel);
    while (s->reading && s->channel != NULL && (max == 0 || n < max) &&
           (max == 0 || channel_direct_count(s->channel) - direct <
                            SESSION_DIRECT_BATCH) &&
           channel_next(s->channel, &item)) {
        n++;
        tell_status(s);
        /* the channel's error item for a version mismatch says what
         * tell_status() just said */
        if (item.kind == READER_ERROR &&
            channel_status(s->channel) == CHANNEL_UNMONITORED)
            continue;
        if (deliver(s, &item))
            return 0;
    }
    tell_status(s);
    return s->reading && s->channel != NULL && max != 0 &&
           (n == max ||
            channel_direct_count(s->channel) - direct >= SESSION_DIRECT_BATCH);
}

/* Say what became of process PID (created by PARENT, 0 if none). */
static void proc_note(struct session *s, pid_t pid, pid_t parent,
                      const char *fate)
{
    struct sproc *p = proc_find(s, pid);

    if (p != NULL)
        p->info.fate = fate;
    else
        proc_new(s, pid, parent, fate);
}

/* A new run or attach: the processes of the last one are forgotten, and
 * T with channel CH (both taken; CH may be NULL) is the first of this
 * one. */
static void procs_begin(struct session *s, struct target *t,
                        struct channel *ch)
{
    procs_free(s);
    s->described = 0;
    select_proc(s, proc_new(s, target_pid(t), 0, "monitored"));
    s->target = t;
    s->channel = ch;
    target_keep_children(t, s->follow != SESSION_FOLLOW_PARENT);
}

void session_set_follow(struct session *s, enum session_follow follow)
{
    s->follow = follow;
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL)
            target_keep_children(t, follow != SESSION_FOLLOW_PARENT);
    }
}

enum session_follow session_follow(const struct session *s)
{
    return s->follow;
}

const struct session_process *session_process(const struct session *s,
                                              unsigned int i)
{
    return i < s->nprocs && !s->described ? &s->procs[i]->info : NULL;
}

struct channel *session_process_channel(const struct session *s,
                                        unsigned int i)
{
    if (s->nprocs == 0)
        return i == 0 ? s->channel : NULL;
    return i < s->nprocs ? pchannel(s, s->procs[i]) : NULL;
}

unsigned int session_nprocs(const struct session *s)
{
    return s->nprocs;
}

int session_select(struct session *s, unsigned int i)
{
    if (i >= s->nprocs)
        return -1;
    select_proc(s, s->procs[i]);
    return 0;
}

int session_current(const struct session *s)
{
    for (unsigned int i = 0; i < s->nprocs; i++)
        if (s->procs[i] == s->cur)
            return (int)i;
    return -1;
}

int session_multi(const struct session *s)
{
    return s->multi;
}

unsigned int session_live(const struct session *s)
{
    return live_others(s, NULL);
}

int session_joined(const struct session *s)
{
    return s->cur != NULL && s->cur->joined;
}

int session_monitored(const struct session *s, pid_t pid)
{
    struct sproc *p = proc_find(s, pid);

    return p != NULL && plive(s, p) && pchannel(s, p) != NULL &&
           channel_status(pchannel(s, p)) == CHANNEL_ACTIVE;
}

static void follow_fork(struct session *s, const struct target_event *ev);
static void follow_exec(struct session *s);
static int all_stopped(const struct session *s);

/* Take every record of the current process now, also while another
 * process is stopped at (none of them can then stop it: one stop at a
 * time). */
static void drain_now(struct session *s)
{
    int reading = s->reading, attaching = s->attaching;

    s->reading = 1;
    if (s->state == SESSION_STOPPED && s->stop_proc != s->cur)
        s->attaching = 1;
    /* (bounded runs: the records left are taken too) */
    do
        drain(s, 0);
    while (s->reading && s->channel != NULL && channel_more(s->channel));
    s->reading = reading;
    s->attaching = attaching;
}

/* Say that process PID ended (in a run of several processes). */
static void say_end(struct session *s, pid_t pid, int status, int signo)
{
    char sig[32];

    if (signo != 0)
        message(s, "Process %d was killed by %s.", (int)pid,
                target_signal_name(signo, sig, sizeof sig));
    else
        message(s, "Process %d exited with status %d.", (int)pid, status);
}

/* The process stopped at is gone (ended, let go): the stop is over and
 * the other processes go on being read. */
static void stop_over(struct session *s)
{
    s->stop_proc = NULL;
    s->stop = -1;
    s->state = SESSION_RUNNING;
    s->reading = 1;
    watch_channels(s, 1);
    changed(s);
}

/* The current process ended while others are live: every record it
 * wrote is delivered, and the run goes on. */
static void proc_ended(struct session *s, int status, int signo)
{
    struct sproc *p = s->cur;

    drain_now(s);
    no_interface(s);
    unwatch(s);
    p->done = 1;
    p->status = status;
    p->signo = signo;
    p->info.fate = signo != 0 ? "killed" : "exited";
    forget_target(s);
    say_end(s, p->info.pid, status, signo);
    if (s->stop_proc == p)
        stop_over(s); /* it was stopped at: the others go on being read */
}

/* Processes that ended while another was stopped at are told now. */
static void pending_ends(struct session *s)
{
    struct sproc *me = s->cur;

    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct sproc *p = s->procs[i];

        if (p == me || !p->end_pending)
            continue;
        p->end_pending = 0;
        select_proc(s, p);
        proc_ended(s, p->end.status, p->end.signo);
    }
    select_proc(s, me);
}

/* The current process ended (exit STATUS, or killed by SIGNO): the run
 * ends with the last one. */
static void ended(struct session *s, int status, int signo)
{
    struct sproc *first = s->procs[0];

    if (live_others(s, s->cur) > 0) {
        proc_ended(s, status, signo);
        return;
    }
    pending_ends(s);
    s->reading = 1;
    /* the program is gone: everything it wrote is in the ring, and the
     * channel hands it over in bounded runs */
    do
        drain(s, 0);
    while (s->reading && s->channel != NULL && channel_more(s->channel));
    no_interface(s);
    unwatch_all(s);
    s->state = SESSION_IDLE;
    s->stop = -1;
    s->stop_proc = NULL;
    s->ended = 1;
    s->cur->done = 1;
    s->cur->status = status;
    s->cur->signo = signo;
    if (s->multi) {
        say_end(s, s->cur->info.pid, status, signo);
        /* the program's end is its first process's, when it was seen */
        if (first != s->cur && first->done) {
            status = first->status;
            signo = first->signo;
        }
    }
    s->end_status = status;
    s->end_signo = signo;
    if (s->target != NULL)
        proc_note(s, target_pid(s->target), 0,
                  s->cur->signo != 0 ? "killed" : "exited");
    forget_target(s);
    changed(s);
}

static void on_target_event(struct session *s, const struct target_event *ev)
{
    switch (ev->kind) {
    case TARGET_EV_EXITED:
    case TARGET_EV_KILLED:
        if (s->state == SESSION_STOPPED && s->stop_proc != s->cur &&
            !s->detaching && live_others(s, s->cur) > 0) {
            /* nothing is delivered while a process is stopped at: its
             * records and its end are told when the others go on */
            s->cur->end_pending = 1;
            s->cur->end = *ev;
            s->cur->end.status = ev->kind == TARGET_EV_EXITED ? ev->status
                                                              : 0;
            s->cur->end.signo = ev->kind == TARGET_EV_KILLED ? ev->signo : 0;
            break;
        }
        if (ev->kind == TARGET_EV_EXITED)
            ended(s, ev->status, 0);
        else
            ended(s, 0, ev->signo);
        break;
    case TARGET_EV_FAULT:
        if (s->state == SESSION_STOPPED && s->stop_proc != NULL &&
            s->stop_proc != s->cur) {
            /* one stop at a time: this one is taken when the process
             * stopped at goes on (its thread waits at the fault) */
            s->cur->fault_pending = 1;
            s->cur->fault = *ev;
            break;
        }
        drain(s, 0);
        s->state = SESSION_STOPPED;
        s->why = SESSION_FAULT;
        s->fault = *ev;
        s->stop_proc = s->cur;
        changed(s);
        break;
    case TARGET_EV_INTERRUPTED:
        drain(s, 0);
        if (s->state == SESSION_STOPPED &&
            (s->why == SESSION_AT_EVENT || s->why == SESSION_FAULT))
            break; /* still stopped there; the others are too now */
        if (s->nprocs > 1 &&
            ((s->state == SESSION_STOPPED &&
              s->why == SESSION_INTERRUPTED) || !all_stopped(s)))
            break; /* said once, when every process is */
        s->state = SESSION_STOPPED;
        s->why = SESSION_INTERRUPTED;
        changed(s);
        break;
    case TARGET_EV_BREAK:
        /* only the describe pass sets breakpoints */
        break;
    case TARGET_EV_FORK:
        follow_fork(s, ev);
        break;
    case TARGET_EV_EXEC:
        /* what the old image wrote comes first; its channel is gone
         * with it (and its state bytes: none may be written now) */
        if (s->nprocs > 1)
            drain_now(s);
        else
            drain(s, 0);
        if (s->channel != NULL)
            channel_forget(s->channel);
        if (s->state == SESSION_STOPPED && s->why == SESSION_AT_EVENT &&
            (s->stop_proc == NULL || s->stop_proc == s->cur)) {
            /* the thread that waited there is gone with the old image */
            s->state = SESSION_RUNNING;
            s->stop = -1;
            s->stop_proc = NULL;
            if (s->nprocs > 1) {
                s->reading = 1;
                watch_channels(s, 1);
            }
            changed(s);
        }
        follow_exec(s);
        break;
    }
}

/* What every process's target has to say (the descriptor is theirs
 * together: each looks). */
static void poll_targets(struct session *s)
{
    struct target_event ev;

    for (unsigned int i = 0; i < s->nprocs; i++) {
        if (ptarget(s, s->procs[i]) == NULL)
            continue;
        select_proc(s, s->procs[i]);
        while (s->target != NULL && target_poll(s->target, &ev))
            on_target_event(s, &ev);
    }
    select_focus(s);
}

/* Tell the ends of the programs noosa started and let go (at their exec,
 * or by detach) that were reaped: they are its children still. */
static void report_loose(struct session *s)
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

static void on_target(int fd, short revents, void *arg)
{
    struct session *s = arg;
    struct target_event ev;

    (void)fd;
    (void)revents;
    if (s->nprocs <= 1) {
        while (s->target != NULL && target_poll(s->target, &ev))
            on_target_event(s, &ev);
    } else {
        poll_targets(s);
    }
    report_loose(s);
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

/* Whether a process's target has something to collect that another's
 * poll announced (the descriptor is every target's). */
static int targets_behind(const struct session *s)
{
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL && target_behind(t))
            return 1;
    }
    return 0;
}

static void on_channel(int fd, short revents, void *arg)
{
    /* The eventfd only wakes the loop; the finish hook reads. */
    (void)fd;
    (void)revents;
    (void)arg;
}

/* Whether process P's channel is read (it is live and monitored). */
static int preading(const struct session *s, const struct sproc *p)
{
    struct channel *ch = pchannel(s, p);

    return ch != NULL && plive(s, p) && channel_status(ch) != CHANNEL_GONE;
}

static int prepare(void *arg)
{
    struct session *s = arg;
    int n = 0;

    if (s->nprocs > 1 && targets_behind(s))
        return 0; /* (finish() looks) */
    if (s->nprocs > 1 && s->reading && s->state == SESSION_RUNNING) {
        /* several channels: sleep only when none has anything */
        for (unsigned int i = 0; i < s->nprocs; i++) {
            struct channel *ch = pchannel(s, s->procs[i]);

            if (!preading(s, s->procs[i]))
                continue;
            n++;
            if (!channel_sleep_prepare(ch))
                return 0;
        }
        if (n > 0)
            return 100;
    }
    if (s->channel == NULL || !s->reading || s->state != SESSION_RUNNING)
        return -1;
    /* A program that emits events flat out fills the ring again within
     * microseconds: spinning that long spares it a wake-up call and us a
     * sleep.  The timeout is a backstop for a wake-up lost to the race
     * the protocol allows <protocol#wake>. */
    if (channel_spin(s->channel))
        return 0;
    return channel_sleep_prepare(s->channel) ? 100 : 0;
}

static void finish(void *arg)
{
    struct session *s = arg;

    if (s->nprocs > 1) {
        if (targets_behind(s))
            poll_targets(s);
        /* a batch from each process in turn, while none stops */
        for (unsigned int i = 0; i < s->nprocs; i++) {
            if (pchannel(s, s->procs[i]) == NULL)
                continue;
            select_proc(s, s->procs[i]);
            channel_sleep_finish(s->channel);
            if (s->state == SESSION_RUNNING && preading(s, s->cur))
                drain(s, SESSION_BATCH);
        }
        select_focus(s);
        return;
    }
    if (s->channel == NULL)
        return;
    channel_sleep_finish(s->channel);
    if (s->state == SESSION_RUNNING)
        drain(s, SESSION_BATCH);
}

/* Watch the current process's channel too (the first process: the
 * target and the loop's hook as well). */
static void watch(struct session *s)
{
    if (s->watching) {
        if (s->channel != NULL && s->reading)
            loop_add(s->loop, channel_fd(s->channel), POLLIN, on_channel, s);
        return;
    }
    loop_add(s->loop, target_fd(s->target), POLLIN, on_target, s);
    loop_add(s->loop, channel_fd(s->channel), POLLIN, on_channel, s);
    loop_add_hook(s->loop, prepare, finish, s);
    s->watching = 1;
}

/* Watch every channel read, or none (a process is stopped at). */
static void watch_channels(struct session *s, int on)
{
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct channel *ch = pchannel(s, s->procs[i]);

        if (ch == NULL)
            continue;
        if (on && preading(s, s->procs[i]))
            loop_add(s->loop, channel_fd(ch), POLLIN, on_channel, s);
        else if (!on)
            loop_remove(s->loop, channel_fd(ch));
    }
    if (s->nprocs == 0 && s->channel != NULL && !on)
        loop_remove(s->loop, channel_fd(s->channel));
}

/* Stop watching the current process (every one when it is the last). */
static void unwatch(struct session *s)
{
    if (!s->watching)
        return;
    if (live_others(s, s->cur) > 0) {
        if (s->channel != NULL)
            loop_remove(s->loop, channel_fd(s->channel));
        return;
    }
    unwatch_all(s);
}

static void unwatch_all(struct session *s)
{
    if (!s->watching)
        return;
    loop_remove(s->loop, target_fd(NULL));
    watch_channels(s, 0);
    loop_remove_hook(s->loop, s);
    s->watching = 0;
    watch_loose(s);
}

/* Programs let go that are still our children, when nothing else is
 * watched: reaped, and their ends told, as they end. */
static void watch_loose(struct session *s)
{
    if (!s->watching && target_loose() > 0)
        loop_add(s->loop, target_fd(NULL), POLLIN, on_loose, s);
}

/* Create the channel and start the program stopped at its first
 * instruction. */
static int start(struct session *s, unsigned char default_state, int fd_in,
                 int fd_out, int fd_err, char **cause)
{
    struct channel_opts copts;
    struct target_opts topts;
    struct channel *ch;
    struct target *t;
    char *env[2];
    int fds[2];

    if (s->argv[0] == NULL) {
        xcause(cause, "no program to run");
        return -1;
    }
    memset(&copts, 0, sizeof copts);
    copts.ring_size = s->opts.ring_size;
    copts.overwrite = s->opts.overwrite;
    copts.no_tsc = s->opts.no_tsc;
    copts.default_state = default_state;
    copts.trail_events = s->opts.trail_events;
    if (channel_create(&ch, &copts, cause) != 0)
        return -1;
    env[0] = (char *)channel_env(ch);
    env[1] = NULL;
    channel_fds(ch, fds);
    memset(&topts, 0, sizeof topts);
    topts.argv = s->argv;
    topts.env = env;
    topts.fd_in = fd_in;
    topts.fd_out = fd_out;
    topts.fd_err = fd_err;
    topts.keep_fds = fds;
    topts.nkeep = 2;
    if (target_start(&t, &topts, cause) != 0) {
        channel_free(ch);
        return -1;
    }
    procs_begin(s, t, ch);
    channel_attach(s->channel, s->target);
    s->told_status = 0;
    s->stop = -1;
    return 0;
}

/* Forget the last run's processes and channels. */
static void discard(struct session *s)
{
    unwatch_all(s);
    procs_free(s);
    s->state = SESSION_IDLE;
}

int session_describe(struct session *s, char **cause)
{
    struct symbols *sym;
    uint64_t main_addr, deadline;
    struct target_event ev;
    struct reader_item item;
    int devnull, rc = -1, done = 0;

    /* From here on a failure is only a failure to describe (1). */

    if (s->state != SESSION_IDLE) {
        xcause(cause, "the program is running");
        return -1;
    }
    discard(s);
    devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) {
        xcause(cause, "/dev/null: %s", strerror(errno));
        return -1;
    }
    if (start(s, DAPTO_STATE_OFF, devnull, devnull, devnull, cause) != 0)
        goto out;
    target_keep_children(s->target, 0);
    s->described = 1;
    rc = 1;
    sym = symbols_open(target_pid(s->target), cause);
    if (sym == NULL)
        goto out_kill;
    if (symbols_address(sym, "main", &main_addr, cause) != 0 ||
        target_run_to(s->target, main_addr, cause) != 0) {
        symbols_free(sym);
        goto out_kill;
    }
    symbols_free(sym);

    deadline = clock_monotonic_ns() + (uint64_t)SESSION_DESCRIBE_MS * 1000000;
    while (!done) {
        while (channel_next(s->channel, &item)) {
            if (s->hooks.item != NULL && item.kind == READER_ASPECT)
                s->hooks.item(s->hooks.arg, &item);
            if (item.stop >= 0)
                channel_resume(s->channel, item.stop, NULL);
        }
        while (!done && target_poll(s->target, &ev)) {
            if (ev.kind == TARGET_EV_BREAK || ev.kind == TARGET_EV_EXITED ||
                ev.kind == TARGET_EV_KILLED)
                done = 1;
            else if (ev.kind == TARGET_EV_FAULT)
                target_fault_pass(s->target, ev.tid, NULL);
        }
        if (done)
            break;
        if (clock_monotonic_ns() > deadline) {
            xcause(cause, "the program did not reach main within %d s",
                   SESSION_DESCRIBE_MS / 1000);
            goto out_kill;
        }
        if (channel_sleep_prepare(s->channel)) {
            struct pollfd pfd[2];

            pfd[0].fd = channel_fd(s->channel);
            pfd[0].events = POLLIN;
            pfd[1].fd = target_fd(s->target);
            pfd[1].events = POLLIN;
            poll(pfd, 2, 50);
            channel_sleep_finish(s->channel);
        }
    }
    tell_status(s);
    no_interface(s);
    rc = 0;
out_kill:
    forget_target(s);
out:
    close(devnull);
    return rc;
}

int session_run(struct session *s, int fd_in, int fd_out, int fd_err,
                char **cause)
{
    if (s->source.next != NULL)
        return replay_run(s);
    if (s->state != SESSION_IDLE && session_kill(s, cause) != 0)
        return -1;
    discard(s);
    if (s->tty_fd >= 0) {
        /* the terminal set with tty, unless redirected for this run */
        fd_in = fd_in >= 0 ? fd_in : s->tty_fd;
        fd_out = fd_out >= 0 ? fd_out : s->tty_fd;
        fd_err = fd_err >= 0 ? fd_err : s->tty_fd;
    }
    if (start(s, DAPTO_STATE_OFF, fd_in >= 0 ? fd_in : s->opts.fd_in,
              fd_out >= 0 ? fd_out : s->opts.fd_out,
              fd_err >= 0 ? fd_err : s->opts.fd_err, cause) != 0)
        return -1;
    s->state = SESSION_RUNNING;
    s->reading = 1;
    s->ended = 0;
    s->killed = 0;
    watch(s);
    if (target_continue(s->target, cause) != 0) {
        discard(s);
        return -1;
    }
    changed(s);
    return 0;
}

/* Whether every live process is stopped. */
static int all_stopped(const struct session *s)
{
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL && target_alive(t) && !target_stopped(t))
            return 0;
    }
    return 1;
}

/* Let every live process stopped by noosa go on. */
static int continue_stopped(struct session *s, char **cause)
{
    int rc = 0;

    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL && target_alive(t) && target_stopped(t) &&
            target_continue(t, rc == 0 ? cause : NULL) != 0)
            rc = -1;
    }
    return rc;
}

/* What came while a process was stopped at is taken now that they all
 * go on: ends first, then the first fault (a stop again). */
static void pending(struct session *s)
{
    pending_ends(s);
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct sproc *p = s->procs[i];

        if (!p->fault_pending || s->state != SESSION_RUNNING)
            continue;
        p->fault_pending = 0;
        select_proc(s, p);
        if (s->target != NULL && target_alive(s->target))
            on_target_event(s, &p->fault);
    }
    select_focus(s);
}

/* session_continue() in a run of several processes <design#processes>:
 * the process stopped at goes on, and every other one stopped. */
static int continue_all(struct session *s, char **cause)
{
    if (s->stop_proc != NULL)
        select_proc(s, s->stop_proc);
    switch (s->why) {
    case SESSION_AT_EVENT:
        if (channel_resume(s->channel, s->stop, cause) != 0)
            return -1;
        s->stop = -1;
        break;
    case SESSION_INTERRUPTED:
        break;
    case SESSION_FAULT:
        if (target_fault_pass(s->target, s->fault.tid, cause) != 0)
            return -1;
        break;
    }
    if (continue_stopped(s, cause) != 0)
        return -1;
    s->state = SESSION_RUNNING;
    s->stop_proc = NULL;
    s->reading = 1;
    watch_channels(s, 1);
    changed(s);
    pending(s);
    return 0;
}

int session_continue(struct session *s, char **cause)
{
    if (s->state != SESSION_STOPPED) {
        xcause(cause, s->state == SESSION_RUNNING
                          ? "the program is already running"
                          : "the program is not running");
        return -1;
    }
    if (s->source.next != NULL) {
        s->state = SESSION_RUNNING;
        s->reading = 1;
        changed(s);
        return 0;
    }
    if (s->nprocs > 1)
        return continue_all(s, cause);
    switch (s->why) {
    case SESSION_AT_EVENT:
        if (channel_resume(s->channel, s->stop, cause) != 0)
            return -1;
        s->stop = -1;
        s->reading = 1;
        loop_add(s->loop, channel_fd(s->channel), POLLIN, on_channel, s);
        /* the other threads may have been interrupted meanwhile */
        if (target_stopped(s->target) &&
            target_continue(s->target, cause) != 0)
            return -1;
        break;
    case SESSION_INTERRUPTED:
        if (target_continue(s->target, cause) != 0)
            return -1;
        break;
    case SESSION_FAULT:
        if (target_fault_pass(s->target, s->fault.tid, cause) != 0)
            return -1;
        /* the other threads were stopped for the error report */
        if (target_continue(s->target, cause) != 0)
            return -1;
        break;
    }
    s->state = SESSION_RUNNING;
    s->stop_proc = NULL;
    changed(s);
    return 0;
}

int session_convert(struct session *s, char **cause)
{
    if (s->state != SESSION_STOPPED || s->why != SESSION_FAULT) {
        xcause(cause, "the program is not stopped at a fault");
        return -1;
    }
    if (s->stop_proc != NULL)
        select_proc(s, s->stop_proc);
    if (target_fault_discard(s->target, s->fault.tid, cause) != 0 ||
        target_continue(s->target, cause) != 0)
        return -1;
    s->state = SESSION_RUNNING;
    s->stop_proc = NULL;
    changed(s);
    if (s->nprocs > 1)
        pending(s);
    return 0;
}

int session_interrupt(struct session *s, char **cause)
{
    if (s->state != SESSION_RUNNING) {
        xcause(cause, s->state == SESSION_IDLE ? "the program is not running"
                                               : "the program is already "
                                                 "stopped");
        return -1;
    }
    if (s->source.next != NULL) {
        replay_stop(s, SESSION_INTERRUPTED);
        return 0;
    }
    if (s->nprocs > 1) {
        /* every process; stopped once they all are */
        int n = 0;

        for (unsigned int i = 0; i < s->nprocs; i++) {
            struct target *t = ptarget(s, s->procs[i]);

            if (t != NULL && target_alive(t) &&
                target_interrupt(t, n == 0 ? cause : NULL) == 0)
                n++;
        }
        return n > 0 ? 0 : -1;
    }
    return target_interrupt(s->target, cause);
}

int session_kill(struct session *s, char **cause)
{
    struct target_event ev;

    if (s->source.next != NULL && s->state != SESSION_IDLE) {
        replay_ended(s, 1);
        return 0;
    }
    if (s->state == SESSION_IDLE ||
        (s->target == NULL && live_others(s, NULL) == 0)) {
        xcause(cause, "the program is not running");
        return -1;
    }
    s->killed = 1;
    if (s->nprocs > 1) {
        /* every process (each killed before any is waited for) */
        for (unsigned int i = 0; i < s->nprocs; i++) {
            struct target *t = ptarget(s, s->procs[i]);

            if (t != NULL && target_alive(t))
                target_kill(t);
        }
        for (unsigned int i = 0; i < s->nprocs && s->state != SESSION_IDLE;
             i++) {
            select_proc(s, s->procs[i]);
            while (s->target != NULL && target_alive(s->target)) {
                if (!target_wait(s->target, &ev, -1))
                    continue;
                if (ev.kind == TARGET_EV_EXITED ||
                    ev.kind == TARGET_EV_KILLED)
                    on_target_event(s, &ev);
            }
        }
        return 0;
    }
    target_kill(s->target);
    while (s->target != NULL) {
        if (!target_wait(s->target, &ev, -1))
            continue;
        if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED)
            on_target_event(s, &ev);
    }
    return 0;
}

int session_may_stop(const struct session *s)
{
    return s->dispatching >= 0 && !s->attaching &&
           (s->source.next != NULL ||
            (s->target != NULL && target_alive(s->target)));
}

int session_can_send(const struct session *s)
{
    if (s->source.next != NULL)
        return 0;
    return s->dispatching >= 0 ||
           (s->state == SESSION_STOPPED && s->why == SESSION_AT_EVENT);
}

int session_send(struct session *s, const char *op, int argc,
                 const char *const *argv, struct channel_result *res,
                 char **cause)
{
    int stop = s->dispatching >= 0 ? s->dispatching : s->stop;

    if (s->source.next != NULL) {
        xcause(cause, "operations are not available in a recording (%s): "
               "the program is not live", s->source.name);
        return -1;
    }
    if (!session_can_send(s)) {
        xcause(cause, "the program is not stopped at an event%s",
               s->state == SESSION_STOPPED ? " (it was interrupted)" : "");
        return -1;
    }
    return channel_send(s->channel, stop, op, argc, argv, res,
                        s->opts.op_timeout_ms, cause);
}

void session_wait(struct session *s)
{
    while (s->state == SESSION_RUNNING)
        loop_once(s->loop, -1);
}

enum session_state session_state(const struct session *s)
{
    return s->state;
}

struct loop *session_loop(const struct session *s)
{
    return s->loop;
}

enum session_why session_why(const struct session *s)
{
    return s->why;
}

pid_t session_pid(const struct session *s)
{
    if (s->source.next != NULL)
        return s->source.pid;
    return s->target != NULL ? target_pid(s->target) : 0;
}

const struct target_event *session_fault(const struct session *s)
{
    return s->state == SESSION_STOPPED && s->why == SESSION_FAULT ? &s->fault
                                                                  : NULL;
}

int session_ended(const struct session *s, int *status, int *signo)
{
    if (!s->ended)
        return 0;
    *status = s->end_status;
    *signo = s->end_signo;
    return s->killed ? 2 : 1;
}

struct registry *session_registry(const struct session *s)
{
    if (s->source.next != NULL)
        return s->source.registry(s->source.arg);
    return s->channel != NULL ? channel_registry(s->channel) : NULL;
}

struct channel *session_channel(const struct session *s)
{
    return s->channel;
}

struct target *session_target(const struct session *s)
{
    return s->target;
}

void session_direct(struct session *s, int on)
{
    s->direct = on;
    /* (a new run's channel starts without) */
    if (s->channel != NULL)
        channel_direct(s->channel, on ? s->hooks.functions : NULL,
                       s->hooks.arg);
}

void session_counting(struct session *s, int on)
{
    s->counting = on;
}

int session_set_state(struct session *s, unsigned int code,
                      unsigned char state, char **cause)
{
    if (s->channel == NULL || s->target == NULL)
        return 0;
    return channel_set_state(s->channel, code, state, cause);
}

int session_filters(const struct session *s, const char **why)
{
    if (s->channel == NULL || s->target == NULL) {
        if (why != NULL)
            *why = "the program is not running";
        return 0;
    }
    return channel_filters(s->channel, why);
}

int session_set_filter(struct session *s, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause)
{
    if (s->channel == NULL || s->target == NULL) {
        xcause(cause, "the program is not running");
        return -1;
    }
    return channel_set_filter(s->channel, ev, uncond, cl, n, checked, passed,
                              cause);
}

void session_clear_filter(struct session *s, const struct registry_event *ev)
{
    if (s->channel != NULL)
        channel_clear_filter(s->channel, ev->code);
}

uint64_t session_counter(const struct session *s, uint16_t id)
{
    return s->channel != NULL ? channel_counter(s->channel, id) : 0;
}

/* Open FILE for redirection WHICH (0, 1, 2) with FLAGS into FDS. */
static int redirect_open(int fds[3], int which, const char *file, int flags,
                         char **cause)
{
    int fd;

    if (file == NULL || *file == '\0') {
        xcause(cause, "a redirection needs a file name");
        return -1;
    }
    fd = open(file, flags | O_CLOEXEC, 0666);
    if (fd < 0) {
        xcause(cause, "%s: %s", file, strerror(errno));
        return -1;
    }
    if (fds[which] > 2 && fds[which] != fds[(which + 1) % 3] &&
        fds[which] != fds[(which + 2) % 3])
        close(fds[which]);
    fds[which] = fd;
    return 0;
}

void session_redirect_close(int fds[3])
{
    int i;

    for (i = 0; i < 3; i++) {
        if (fds[i] > 2 && (i == 0 || fds[i] != fds[i - 1]))
            close(fds[i]);
    }
    for (i = 0; i < 3; i++)
        fds[i] = -1;
}

int session_redirect(char **args, int fds[3], char **cause)
{
    size_t i, j = 0;

    fds[0] = fds[1] = fds[2] = -1;
    for (i = 0; args[i] != NULL; i++) {
        const char *a = args[i], *file;
        int which, flags;

        if (strcmp(a, "2>&1") == 0) {
            fds[2] = fds[1] >= 0 ? fds[1] : STDOUT_FILENO;
            continue;
        } else if (strncmp(a, "2>", 2) == 0) {
            which = 2, flags = O_WRONLY | O_CREAT | O_TRUNC, file = a + 2;
        } else if (strncmp(a, ">>", 2) == 0) {
            which = 1, flags = O_WRONLY | O_CREAT | O_APPEND, file = a + 2;
        } else if (a[0] == '>') {
            which = 1, flags = O_WRONLY | O_CREAT | O_TRUNC, file = a + 1;
        } else if (a[0] == '<') {
            which = 0, flags = O_RDONLY, file = a + 1;
        } else {
            args[j++] = args[i];
            continue;
        }
        if (*file == '\0')
            file = args[++i];
        if (redirect_open(fds, which, file, flags, cause) != 0) {
            session_redirect_close(fds);
            return -1;
        }
        if (file == NULL)
            break;
    }
    args[j] = NULL;
    return 0;
}

/* Replay <design#replay>: a recording's items through the same hooks.
 * The loop's hook takes a batch at each turn while running, so that a
 * front end stays responsive over millions of events. */

static int replay_prepare(void *arg)
{
    struct session *s = arg;

    return s->state == SESSION_RUNNING ? 0 : -1;
}

/* Function entries and exits taken from the source at a time. */
#define REPLAY_FNS 1024

/* Hand FNS (N of them, numbered from FIRST) to the functions hook, and
 * those it does not take (the direct path was turned off meanwhile) as
 * the built-in enter and leave events, each of which may stop the play.
 * Returns 1 when the session stopped at one of them. */
static int replay_fns(struct session *s, const struct reader_fn *fns,
                      unsigned int n, uint64_t first)
{
    struct registry *reg = s->source.registry(s->source.arg);
    unsigned int taken = 0, i;

    if (s->hooks.functions != NULL)
        taken = s->hooks.functions(s->hooks.arg, fns, n);
    for (i = taken; i < n; i++) {
        struct reader_item item;
        struct decode_value v;

        memset(&item, 0, sizeof item);
        memset(&v, 0, sizeof v);
        item.kind = READER_EVENT;
        item.code = fns[i].enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE;
        item.tid = fns[i].tid;
        item.ns = fns[i].ns;
        item.stop = 0;
        item.event = registry_event(reg, item.code);
        item.nvalues = 1;
        item.values = &v;
        v.kind = DAPTO_K_STR;
        v.interned = 1;
        v.s = fns[i].name;
        v.len = fns[i].len;
        s->seq = first + i;
        if (deliver(s, &item)) {
            /* stopped there: the ones after it are read again next */
            s->source.seek(s->source.arg, first + i + 1);
            s->stop = -1;
            return 1;
        }
    }
    s->seq = first + n - 1;
    return 0;
}

/* Hand EVS (N of them, numbered from FIRST) to the counts hook.  Those
 * it does not take (the consumers changed meanwhile) are read again
 * from the source: returns 0 then, and the next is to be an item. */
static int replay_counts(struct session *s, const struct reader_ev *evs,
                         unsigned int n, uint64_t first)
{
    unsigned int taken = 0;

    if (s->hooks.counts != NULL)
        taken = s->hooks.counts(s->hooks.arg, evs, n);
    if (taken > 0)
        s->seq = first + taken - 1;
    if (taken == n)
        return 1;
    s->source.seek(s->source.arg, first + taken);
    return 0;
}

static void replay_finish(void *arg)
{
    struct session *s = arg;
    /* (one loop, one replay) */
    static struct reader_fn fns[REPLAY_FNS];
    static struct reader_ev evs[REPLAY_FNS];
    struct reader_item item;
    unsigned int n = 0, k;
    uint64_t first;
    int counts = 1; /* (0: an item first, after a batch not all taken) */

    while (s->state == SESSION_RUNNING && n < SESSION_DIRECT_BATCH) {
        /* <design#dispatch>: functions in batches, without items */
        if (s->direct && s->source.functions != NULL &&
            (k = s->source.functions(s->source.arg, fns, REPLAY_FNS,
                                     &first)) > 0) {
            n += k;
            if (replay_fns(s, fns, k, first))
                return;
            continue;
        }
        if (counts && s->counting && s->source.counts != NULL &&
            (k = s->source.counts(s->source.arg, evs, REPLAY_FNS, &first)) >
                0) {
            n += k;
            counts = replay_counts(s, evs, k, first);
            continue;
        }
        counts = 1;
        if (!s->source.next(s->source.arg, &item, &s->seq)) {
            replay_ended(s, 0);
            return;
        }
        n++;
        /* every event may stop the replay */
        if (item.kind == READER_EVENT)
            item.stop = 0;
        if (deliver(s, &item)) {
            s->stop = -1;
            return;
        }
        if (n >= SESSION_BATCH && !s->direct)
            break;
    }
}

static void replay_watch(struct session *s, int on)
{
    if (on && !s->watching)
        loop_add_hook(s->loop, replay_prepare, replay_finish, s);
    else if (!on && s->watching)
        loop_remove_hook(s->loop, s);
    s->watching = on;
}

static int replay_run(struct session *s)
{
    s->source.seek(s->source.arg, 0);
    s->seq = 0;
    s->state = SESSION_RUNNING;
    s->reading = 1;
    s->ended = 0;
    s->killed = 0;
    s->stop = -1;
    replay_watch(s, 1);
    changed(s);
    return 0;
}

static void replay_stop(struct session *s, enum session_why why)
{
    s->state = SESSION_STOPPED;
    s->why = why;
    changed(s);
}

static void replay_ended(struct session *s, int killed)
{
    replay_watch(s, 0);
    s->state = SESSION_IDLE;
    s->ended = 1;
    s->killed = killed;
    s->end_status = killed ? 0 : s->source.status;
    s->end_signo = killed ? 9 : s->source.signo;
    changed(s);
}

void session_set_source(struct session *s, const struct session_source *src)
{
    discard(s);
    s->source = *src;
    s->seq = 0;
}

int session_replaying(const struct session *s)
{
    return s->source.next != NULL;
}

uint64_t session_position(const struct session *s)
{
    return s->seq;
}

int session_seek(struct session *s, uint64_t seq, char **cause)
{
    if (s->source.next == NULL) {
        xcause(cause, "only a recording can go back or to an event");
        return -1;
    }
    if (s->state == SESSION_IDLE) {
        s->ended = 0;
        s->killed = 0;
        replay_watch(s, 1);
    }
    s->source.seek(s->source.arg, seq);
    s->seq = seq;
    if (s->state != SESSION_STOPPED)
        replay_stop(s, SESSION_INTERRUPTED);
    return 0;
}

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

static int attach_runtime(struct session *s, pid_t pid, char **cause);

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
    return attach_runtime(s, pid, cause);
}

/* The runtime of process PID (s->target, stopped) makes a channel that
 * noosa fills in, and attaches to it <protocol#attach>.  On failure the
 * target is let go and freed. */
static int attach_runtime(struct session *s, pid_t pid, char **cause)
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

static int detach_program(struct session *s, int say);
static int detach_proc(struct session *s, int say);

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
        int stopped;

        if (k % 2 == 1 && nbusy > 0 && nbusy <= 64) {
            /* every other try, only the threads still inside the
             * runtime go on: with the others running, the scheduler may
             * never give one of them its CPU in a quiet period (seven
             * threads spinning on the CPU of one that waits; a thread of
             * SCHED_IDLE) */
            for (unsigned int b = 0; b < nbusy; b++)
                target_resume_thread(s->target, busy[b], NULL);
        } else {
            target_continue(s->target, NULL);
        }
        /* (a thread that still waits wakes and finds it let go) */
        channel_wake_all(s->channel);
        stopped = detach_quiet(s) == 0 && detach_stop(s) == 0;
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

/* What the session is doing, kept while it attaches to a new process
 * and given back after (the run goes on as it was). */
struct session_saved {
    enum session_state state;
    enum session_why why;
    int stop, reading;
    struct sproc *stop_proc;
    struct target_event fault;
};

static void save_state(const struct session *s, struct session_saved *v)
{
    v->state = s->state;
    v->why = s->why;
    v->stop = s->stop;
    v->reading = s->reading;
    v->stop_proc = s->stop_proc;
    v->fault = s->fault;
}

static void restore_state(struct session *s, const struct session_saved *v)
{
    s->state = v->state;
    s->why = v->why;
    s->stop = v->stop;
    s->reading = v->reading;
    s->stop_proc = v->stop_proc;
    s->fault = v->fault;
}

/* Let the current process go as detach does (detach_program()); in a run
 * of several, the others go on as they were (the stop, when it was this
 * one's, is over).  1 when it ended meanwhile. */
static int detach_proc(struct session *s, int say)
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

/* Let CHILD go (not followed) and say why. */
static void follow_not(struct session *s, pid_t parent, pid_t child,
                       const char *fate, const char *why)
{
    if (s->target != NULL)
        target_release_child(s->target, child);
    proc_note(s, child, parent, fate);
    message(s, "Process %d created process %d, which is not followed%s%s.",
            (int)parent, (int)child, why != NULL ? ": " : "",
            why != NULL ? why : "");
}

/* Monitor process CHILD of PARENT (its target CT, stopped at its first
 * stop) from its runtime's fork point POINT on, as a new process of the
 * run <protocol#fork>; the processes already monitored go on as they
 * were.  The current process is then the one before, when one is live. */
static void follow_child(struct session *s, pid_t parent, struct target *ct,
                         uint64_t point)
{
    pid_t child = target_pid(ct);
    struct sproc *back = s->cur, *cp;
    struct session_saved v;
    struct target_event e;
    char *why = NULL;
    int others = live_others(s, NULL) > 0;

    save_state(s, &v);
    cp = proc_new(s, child, parent, "monitored");
    cp->joined = others;
    s->multi |= others;
    select_proc(s, cp);
    s->target = ct;
    s->hush += others;
    s->following = 1;

    /* the child runs to where its runtime has let go of its parent's
     * channel, with the C library usable again */
    if (target_run_to(ct, point, &why) != 0)
        goto fail;
    for (;;) {
        if (!target_wait(ct, &e, SESSION_ATTACH_STOP_MS)) {
            why = xasprintf("it did not reach its runtime's fork point "
                            "within %d ms", SESSION_ATTACH_STOP_MS);
            goto fail;
        }
        if (e.kind == TARGET_EV_BREAK)
            break;
        if (e.kind == TARGET_EV_EXITED || e.kind == TARGET_EV_KILLED) {
            message(s, "Process %d ended before it could be followed.",
                    (int)child);
            proc_note(s, child, parent, "ended before it was followed");
            target_free(ct);
            s->target = NULL;
            goto out;
        }
        if (e.kind == TARGET_EV_FAULT) {
            why = xasprintf("it received signal %d on its way", e.signo);
            goto fail;
        }
        if (e.kind == TARGET_EV_FORK) /* (not before its fork point) */
            target_release_child(ct, (pid_t)e.status);
    }
    if (attach_runtime(s, child, &why) != 0) {
        /* (attach_runtime let it go) */
        message(s, "Process %d cannot be followed: %s; it goes on "
                "unmonitored.", (int)child, why);
        proc_note(s, child, parent, "let go, unmonitored");
        free(why);
        goto out;
    }
    if (!others) {
        if (session_continue(s, &why) != 0) {
            message(s, "cannot resume process %d: %s", (int)child, why);
            free(why);
        }
        s->following = 0;
        return;
    }
    /* the run goes on as it was, this process with the others (stopped
     * with them when they were interrupted) */
    restore_state(s, &v);
    if (!s->reading)
        loop_remove(s->loop, channel_fd(s->channel));
    if ((s->state == SESSION_RUNNING || s->why != SESSION_INTERRUPTED) &&
        target_continue(ct, &why) != 0) {
        message(s, "cannot resume process %d: %s", (int)child, why);
        free(why);
    }
    goto out;

fail:
    message(s, "Process %d cannot be followed: %s; it goes on unmonitored.",
            (int)child, why);
    proc_note(s, child, parent, "let go, unmonitored");
    free(why);
    target_detach(ct);
    target_free(ct);
    s->target = NULL;
out:
    s->following = 0;
    if (others) {
        restore_state(s, &v);
        s->hush--;
        if (back != NULL && plive(s, back))
            select_proc(s, back);
        return;
    }
    changed(s);
}

/* TARGET_EV_FORK: follow the child, the parent or both <protocol#fork>. */
static void follow_fork(struct session *s, const struct target_event *ev)
{
    pid_t parent = session_pid(s), child = (pid_t)ev->status;
    struct target *ct = NULL;
    struct symbols *sym;
    uint64_t point = 0;
    char *why = NULL;

    if (child <= 0)
        return;
    if (s->follow == SESSION_FOLLOW_PARENT || s->attaching ||
        s->source.next != NULL || s->channel == NULL ||
        channel_status(s->channel) != CHANNEL_ACTIVE) {
        follow_not(s, parent, child, "not followed", NULL);
        return;
    }
    if (ev->code) {
        follow_not(s, parent, child, "not followed (vfork)",
                   "it was created by vfork and shares its parent's memory "
                   "until it executes a program");
        return;
    }
    sym = symbols_open(child, &why);
    if (sym == NULL ||
        symbols_address(sym, "dapto_fork_point", &point, NULL) != 0) {
        char *w = sym == NULL ? xasprintf("cannot read its symbols: %s", why)
                              : xasprintf("its runtime is older than "
                                          "protocol %d.%d.%d and has no "
                                          "dapto_fork_point",
                                          DAPTO_PROTO_MAJOR,
                                          DAPTO_PROTO_MEDIAN,
                                          DAPTO_ATTACH_MINOR);
        follow_not(s, parent, child, "not followed", w);
        free(w);
        free(why);
        symbols_free(sym);
        return;
    }
    symbols_free(sym);
    if (target_adopt(&ct, s->target, child, SESSION_ATTACH_STOP_MS,
                     &why) != 0) {
        follow_not(s, parent, child, "not followed", why);
        free(why);
        return;
    }

    if (s->follow == SESSION_FOLLOW_BOTH) {
        message(s, "Process %d created process %d: monitoring both.",
                (int)parent, (int)child);
        follow_child(s, parent, ct, point);
        return;
    }
    /* the parent goes on unmonitored, as after detach; its events up to
     * the fork were all taken */
    s->following = 1;
    if (detach_proc(s, 0) == 0) {
        proc_note(s, parent, 0, "let go, unmonitored (its child followed)");
        message(s, "Process %d created process %d: following it; process "
                "%d goes on unmonitored.", (int)parent, (int)child,
                (int)parent);
    } else {
        message(s, "Process %d created process %d and exited: following "
                "the child.", (int)parent, (int)child);
    }
    follow_child(s, parent, ct, point);
}

int session_following(const struct session *s)
{
    return s->following;
}

/* The fate of a process let go at its exec <design#processes>. */
static const char exec_fate[] = "let go at the exec, unmonitored";

/* The current process executed PATH, which cannot be monitored: it is
 * let go where it waits (its exec, or the main it was run to), untraced,
 * nothing of noosa left in it; the others go on as they were, and when
 * it was the only one the run ends as after detach. */
static void exec_let_go(struct session *s, const char *path, const char *why)
{
    struct sproc *p = s->cur;
    pid_t pid = target_pid(s->target);
    int others = live_others(s, p) > 0;

    unwatch(s);
    let_target_go(s);
    proc_note(s, pid, 0, exec_fate);
    message(s, "Process %d executed %s%s%s: let go, it goes on unmonitored.",
            (int)pid, path, why != NULL ? ", " : "", why != NULL ? why : "");
    if (others) {
        if (s->stop_proc == p)
            stop_over(s);
        return;
    }
    s->state = SESSION_IDLE;
    s->stop = -1;
    s->stop_proc = NULL;
    s->reading = 0;
    changed(s);
}

/* TARGET_EV_EXEC (the program waits at the exec): a new image linked
 * with libdapto is run to its main and attached to there, as to a
 * running program <protocol#exec>; another is let go (exec_let_go). */
static void follow_exec(struct session *s)
{
    const char *p = target_exec_path(s->target);
    char *path = xstrdup(p != NULL ? p : "another program"), *why = NULL;
    pid_t pid = session_pid(s);
    struct symbols *sym;
    struct target_event e;
    struct session_saved v;
    uint64_t main_addr, fn;
    int at_main = 0, others;

    sym = s->attaching || s->source.next != NULL ? NULL
                                                  : symbols_open(pid, NULL);
    if (sym != NULL && symbols_address(sym, "main", &main_addr, NULL) == 0 &&
        target_run_to(s->target, main_addr, NULL) == 0) {
        /* (its constructors run: the runtime initialises unattached) */
        while (target_wait(s->target, &e, SESSION_ATTACH_STOP_MS)) {
            if (e.kind == TARGET_EV_BREAK) {
                at_main = 1;
                break;
            }
            if (e.kind == TARGET_EV_FORK) {
                target_release_child(s->target, (pid_t)e.status);
                continue;
            }
            /* an exit, a fault: the usual way, after this */
            target_unread(s->target, &e);
            break;
        }
    }
    symbols_free(sym);
    sym = at_main ? symbols_open(pid, NULL) : NULL;
    if (sym == NULL || symbols_address(sym, "dapto_attach_open", &fn,
                                       NULL) != 0) {
        symbols_free(sym);
        if (target_alive(s->target))
            exec_let_go(s, path, "which has no monitoring interface");
        else /* (its end is told next) */
            message(s, "Process %d executed %s: monitoring ended at the "
                    "exec.", (int)pid, path);
        free(path);
        return;
    }
    symbols_free(sym);
    others = live_others(s, s->cur) > 0;
    save_state(s, &v);
    s->hush += others;
    unwatch(s);
    channel_free(s->channel);
    s->channel = NULL;
    s->following = 1;
    /* in a run of several processes, its new interface joins the run */
    s->cur->joined = others;
    if (attach_runtime(s, pid, &why) != 0) {
        /* (attach_runtime let it go) */
        message(s, "Process %d executed %s, whose runtime could not be "
                "attached to: %s; it goes on unmonitored.", (int)pid, path,
                why);
        proc_note(s, pid, 0, exec_fate);
        free(why);
    } else if (others) {
        message(s, "Process %d executed %s: monitoring it with its "
                "interface.", (int)pid, path);
        restore_state(s, &v);
        if (!s->reading)
            loop_remove(s->loop, channel_fd(s->channel));
        if ((s->state == SESSION_RUNNING || s->why != SESSION_INTERRUPTED) &&
            target_continue(s->target, &why) != 0) {
            message(s, "cannot resume process %d: %s", (int)pid, why);
            free(why);
        }
    } else {
        message(s, "Process %d executed %s: monitoring it with its "
                "interface.", (int)pid, path);
        if (session_continue(s, &why) != 0) {
            message(s, "cannot resume process %d: %s", (int)pid, why);
            free(why);
        }
    }
    s->following = 0;
    if (others) {
        restore_state(s, &v);
        s->hush--;
    } else {
        changed(s);
    }
    free(path);
}
