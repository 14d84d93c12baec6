/* SPDX-License-Identifier: MIT */
/*
 * session-watch.c - the program followed through the front end's loop:
 * the descriptors and the loop's hook the session adds while a program
 * runs, each process's channel read a batch a turn, and what the targets
 * say (a fault, an interrupt, a fork, an exec, the end of a process)
 * turned into the session's state.  A stop at an event is deliver()'s
 * (session.c); going on again is session-run.c's.
 */
#include "config.h"

#include <poll.h>

#include "loop.h"
#include "session-int.h"
#include "xmalloc.h"

/* Take every record of the current process now, also while another
 * process is stopped at (none of them can then stop it: one stop at a
 * time). */
static void drain_now(struct session *s)
{
    int reading = s->reading, attaching = s->attaching;
    pid_t ending = s->ending;

    s->reading = 1;
    if (s->state == SESSION_STOPPED && s->stop_proc != s->cur)
        s->attaching = 1;
    /* (bounded runs: the records left are taken too; a handler told of
     * them cannot act on the process, which is gone) */
    s->ending = s->cur != NULL ? s->cur->info.pid : -1;
    do
        drain(s, 0);
    while (s->reading && s->channel != NULL && channel_more(s->channel));
    s->ending = ending;
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
void stop_over(struct session *s)
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
void pending_ends(struct session *s)
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

int ending_refused(const struct session *s, char **cause)
{
    if (s->ending == 0)
        return 0;
    if (s->ending > 0)
        xcause(cause, "process %d has ended: these are its last events, "
               "told after its end", (int)s->ending);
    else
        xcause(cause, "the program has ended: these are its last events, "
               "told after its end");
    return -1;
}

/* Whether a fault came while the run was stopped that is not told yet. */
static int held_any(const struct session *s)
{
    for (unsigned int i = 0; i < s->nprocs; i++)
        if (s->procs[i]->nheld > 0)
            return 1;
    return 0;
}

/* What came while the run was stopped is taken now that it goes on
 * <design#processes>: ends first, then the faults, oldest first, each a
 * stop of its own (the loop's turn takes them: one the error policy
 * converts at once lets the next be taken, after what it says). */
void pending(struct session *s)
{
    struct target_event ev;

    if (s->taking)
        return;
    s->taking = 1;
    pending_ends(s);
    for (unsigned int i = 0; i < s->nprocs && s->state == SESSION_RUNNING;) {
        struct sproc *p = s->procs[i];

        if (!take_held(p, &ev)) {
            i++;
            continue;
        }
        select_proc(s, p);
        if (s->target == NULL || !target_alive(s->target))
            p->nheld = 0; /* (its threads went with it) */
        else if (!fault_stop(s, &ev))
            hold_fault(p, &ev, 1); /* it stopped at an event first */
    }
    s->taking = 0;
    select_focus(s);
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
     * channel hands it over in bounded runs; a handler told of those
     * events cannot act on the program any more (ending_refused) */
    s->ending = s->cur != NULL ? s->cur->info.pid : -1;
    do
        drain(s, 0);
    while (s->reading && s->channel != NULL && channel_more(s->channel));
    s->ending = 0;
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

/* Whether process P's channel is read (it is live and monitored). */
static int preading(const struct session *s, const struct sproc *p)
{
    struct channel *ch = pchannel(s, p);

    return ch != NULL && plive(s, p) && channel_status(ch) != CHANNEL_GONE;
}

/* What the other processes wrote before a fault of the current one came
 * is taken first, a batch of each (a stop at an event among it is the
 * run's stop): a thread of a child may fault because its parent waits
 * at an event, whose record noosa has not read yet when the fault's
 * wait status comes. */
static void drain_others(struct session *s)
{
    struct sproc *me = s->cur;

    for (unsigned int i = 0; i < s->nprocs && s->state == SESSION_RUNNING;
         i++) {
        struct sproc *p = s->procs[i];

        if (p == me || !preading(s, p))
            continue;
        select_proc(s, p);
        drain(s, SESSION_BATCH);
    }
    select_proc(s, me);
}

/* Stop at fault EV of the current process, what it and the others wrote
 * before delivered first: 1.  When the run is stopped already, or stops
 * at an event so delivered, 0: one stop at a time <design#processes>,
 * the fault is told when the run goes on (pending()), its thread waiting
 * at it meanwhile. */
int fault_stop(struct session *s, const struct target_event *ev)
{
    if (s->state != SESSION_STOPPED)
        drain(s, 0);
    if (s->state != SESSION_STOPPED && s->nprocs > 1)
        drain_others(s);
    if (s->state == SESSION_STOPPED)
        return 0;
    s->state = SESSION_STOPPED;
    s->why = SESSION_FAULT;
    s->fault = *ev;
    s->stop_proc = s->cur;
    changed(s);
    return 1;
}

void on_target_event(struct session *s, const struct target_event *ev)
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
        if (!fault_stop(s, ev))
            hold_fault(s->cur, ev, 0);
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
    case TARGET_EV_BREAKPOINT:
        probes_breakpoint(s, ev);
        break;
    case TARGET_EV_EXEC:
        /* a program that never took the channel it was started with (no
         * runtime: env, a shell) hands it on to the new image, which
         * takes it as at a start <protocol#activate> */
        if (follow_exec_inherits(s))
            break;
        /* what the old image wrote comes first; its channel is gone
         * with it (and its state bytes: none may be written now) */
        if (s->nprocs > 1)
            drain_now(s);
        else
            drain(s, 0);
        if (s->channel != NULL)
            channel_forget(s->channel);
        /* (its probes went with the old image too) */
        probes_end(s->cur);
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

void on_channel(int fd, short revents, void *arg)
{
    /* The eventfd only wakes the loop; the finish hook reads. */
    (void)fd;
    (void)revents;
    (void)arg;
}

/* A thread let go past a probe's breakpoint a moment ago: a program
 * that hits its probes in a loop stops again within microseconds, and
 * looking for that stop spares noosa a sleep and a
 * wake-up at each hit (on another CPU, what a hit costs the most).  The
 * look lasts up to 200 us: the program's own CPU, idle while it was
 * stopped, takes about that long to wake on our VMs (bench/README).  The
 * look asks the kernel for a wait status with SIGCHLD held
 * (target_spin()): the stop costs no signal.  Returns 1 when a stop
 * came. */
static int probe_spin(struct session *s)
{
    if (!s->probe_spin || s->state != SESSION_RUNNING)
        return 0;
    s->probe_spin = 0;
    return target_spin(200000);
}

static int prepare(void *arg)
{
    struct session *s = arg;
    int n = 0;

    if (probe_spin(s))
        return 0;

    if (targets_behind(s))
        return 0; /* (finish() looks) */
    if (s->state == SESSION_RUNNING && held_any(s))
        return 0; /* (finish() tells them) */
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

    /* hits that came while nothing could be told (a delivery) */
    for (unsigned int i = 0; i < s->nprocs; i++)
        if (s->procs[i]->nbpq > 0 && s->state == SESSION_RUNNING) {
            probes_pending(s);
            break;
        }

    if (s->state == SESSION_RUNNING && held_any(s))
        pending(s);

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
    /* what a target collected before anything woke the loop for it (an
     * interrupt that found the program ended) */
    if (targets_behind(s)) {
        on_target(-1, 0, s);
        if (!s->watching)
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
void watch(struct session *s)
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
void watch_channels(struct session *s, int on)
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
void unwatch(struct session *s)
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

void unwatch_all(struct session *s)
{
    if (!s->watching)
        return;
    loop_remove(s->loop, target_fd(NULL));
    watch_channels(s, 0);
    loop_remove_hook(s->loop, s);
    s->watching = 0;
    watch_loose(s);
}
