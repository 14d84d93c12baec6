/* SPDX-License-Identifier: MIT */
/*
 * session-run.c - run control: start the program (a run, or the describe
 * pass that learns its interface and kills it), let it go on after a stop
 * (continue, or convert a fault), interrupt it and kill it, in a run of
 * one process or of several; and the redirections of a run's standard
 * descriptors.  A recording played instead of a program is
 * session-replay.c's; a program attached to, session-attach.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "clock.h"
#include "dapto.h"
#include "loop.h"
#include "probes.h"
#include "session-int.h"
#include "symbols.h"
#include "xmalloc.h"

/* How long the describe pass may take. */
#define SESSION_DESCRIBE_MS 20000

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
void discard(struct session *s)
{
    unwatch_all(s);
    procs_free(s);
    s->state = SESSION_IDLE;
}

/* The entry point of process PID's program (its auxiliary vector's
 * AT_ENTRY): 0, or -1. */
static int entry_point(pid_t pid, uint64_t *entry)
{
    char path[64];
    uint64_t av[2];
    int fd, rc = -1;

    snprintf(path, sizeof path, "/proc/%d/auxv", (int)pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while (read(fd, av, sizeof av) == (ssize_t)sizeof av && av[0] != AT_NULL)
        if (av[0] == AT_ENTRY) {
            *entry = av[1];
            rc = 0;
            break;
        }
    close(fd);
    return rc;
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
    target_hold_forks(s->target, 0);
    s->described = 1;
    rc = 1;
    sym = symbols_open(target_pid(s->target), cause);
    if (sym == NULL)
        goto out_kill;
    if (symbols_address(sym, "main", &main_addr, cause) != 0) {
        /* (stripped) its probes at least: the libraries it needs are
         * there at its entry point */
        uint64_t entry;

        symbols_free(sym);
        if (entry_point(target_pid(s->target), &entry) == 0 &&
            target_run_to(s->target, entry, NULL) == 0 &&
            target_wait(s->target, &ev, SESSION_DESCRIBE_MS) &&
            ev.kind == TARGET_EV_BREAK) {
            probes_describe(s);
            if (probes_count(s->cur->probes) > 0) {
                /* (what it has is known: the probes) */
                free(*cause);
                *cause = NULL;
                rc = 0;
            }
        }
        goto out_kill;
    }
    if (target_run_to(s->target, main_addr, cause) != 0) {
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
    if (done && target_alive(s->target))
        probes_describe(s);
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
    if (ending_refused(s, cause) != 0)
        return -1;
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
    /* (its probes, as it waits at its exec: their aspects are handed on
     * before it runs) */
    probes_begin(s);
    if (target_continue(s->target, cause) != 0) {
        discard(s);
        return -1;
    }
    changed(s);
    return 0;
}

void session_wait(struct session *s)
{
    while (s->state == SESSION_RUNNING)
        loop_once(s->loop, -1);
}

/* Whether every live process is stopped. */
int all_stopped(const struct session *s)
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

/* session_continue() in a run of several processes <design#processes>:
 * the process stopped at goes on, and every other one stopped. */
static int continue_all(struct session *s, char **cause)
{
    if (s->stop_proc != NULL)
        select_proc(s, s->stop_proc);
    switch (s->why) {
    case SESSION_AT_EVENT:
        if (resume_stop(s, s->stop, s->stop_tid, cause) != 0)
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
    probes_pending(s);
    return 0;
}

int session_continue(struct session *s, char **cause)
{
    if (s->state != SESSION_STOPPED) {
        xcause(cause, s->state == SESSION_RUNNING ? "the program is already "
                                                    "running"
                      : s->source.next != NULL
                          ? "the recording is not being played (run plays "
                            "it)"
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
        if (resume_stop(s, s->stop, s->stop_tid, cause) != 0)
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
    probes_pending(s);
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
    return 0;
}

int session_interrupt(struct session *s, char **cause)
{
    if (ending_refused(s, cause) != 0)
        return -1;
    if (s->state != SESSION_RUNNING) {
        xcause(cause, s->state != SESSION_IDLE ? "the program is already "
                                                 "stopped"
                      : s->source.next != NULL ? "the recording is not being "
                                                 "played (run plays it)"
                                               : "the program is not running");
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

    if (ending_refused(s, cause) != 0)
        return -1;
    if (s->source.next != NULL && s->state != SESSION_IDLE) {
        replay_ended(s, 1);
        return 0;
    }
    if (s->state == SESSION_IDLE ||
        (s->target == NULL && live_others(s, NULL) == 0)) {
        xcause(cause, s->source.next != NULL ? "the recording is not being "
                                               "played (run plays it)"
                                             : "the program is not running");
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
    while (s->target != NULL && target_alive(s->target)) {
        if (!target_wait(s->target, &ev, -1))
            continue;
        if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED)
            on_target_event(s, &ev);
    }
    return 0;
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
