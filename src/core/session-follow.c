/* SPDX-License-Identifier: MIT */
/*
 * session-follow.c - the processes the program creates and the programs
 * it executes <protocol#fork> <protocol#exec>: a fork's child followed
 * (run to its fork point and attached to there), its parent let go, or
 * both; an exec's new image run to its main and attached to, or the
 * process let go where it waits.
 */
#include "config.h"

#include <stdlib.h>

#include "loop.h"
#include "protocol.h"
#include "session-int.h"
#include "symbols.h"
#include "xmalloc.h"

void session_set_follow(struct session *s, enum session_follow follow)
{
    s->follow = follow;
    for (unsigned int i = 0; i < s->nprocs; i++) {
        struct target *t = ptarget(s, s->procs[i]);

        if (t != NULL) {
            target_keep_children(t, follow != SESSION_FOLLOW_PARENT);
            target_hold_forks(t, follow == SESSION_FOLLOW_CHILD);
        }
    }
}

/* The thread that forked (EV), held at its fork for follow-fork child,
 * goes on: its process stays as it was. */
static void fork_go_on(struct session *s, const struct target_event *ev)
{
    if (ev->held && s->target != NULL)
        target_resume_thread(s->target, ev->tid, NULL);
}

enum session_follow session_follow(const struct session *s)
{
    return s->follow;
}

int session_following(const struct session *s)
{
    return s->following;
}

/* Let CHILD go (not followed) and say why; its parent goes on. */
static void follow_not(struct session *s, const struct target_event *ev,
                       pid_t parent, pid_t child, const char *fate,
                       const char *why)
{
    if (s->target != NULL)
        target_release_child(s->target, child);
    fork_go_on(s, ev);
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
void follow_fork(struct session *s, const struct target_event *ev)
{
    pid_t parent = session_pid(s), child = (pid_t)ev->status;
    struct target *ct = NULL;
    struct symbols *sym;
    uint64_t point = 0;
    char *why = NULL;

    if (child <= 0) {
        fork_go_on(s, ev);
        return;
    }
    if (s->follow == SESSION_FOLLOW_PARENT || s->attaching ||
        s->source.next != NULL || s->channel == NULL ||
        channel_status(s->channel) != CHANNEL_ACTIVE) {
        follow_not(s, ev, parent, child, "not followed", NULL);
        return;
    }
    if (ev->code) {
        follow_not(s, ev, parent, child, "not followed (vfork)",
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
        follow_not(s, ev, parent, child, "not followed", w);
        free(w);
        free(why);
        symbols_free(sym);
        return;
    }
    symbols_free(sym);
    if (target_adopt(&ct, s->target, child, SESSION_ATTACH_STOP_MS,
                     &why) != 0) {
        follow_not(s, ev, parent, child, "not followed", why);
        free(why);
        return;
    }

    if (s->follow == SESSION_FOLLOW_BOTH) {
        message(s, "Process %d created process %d: monitoring both.",
                (int)parent, (int)child);
        fork_go_on(s, ev);
        follow_child(s, parent, ct, point);
        return;
    }
    /* the parent goes on unmonitored, as after detach: its events up to
     * the fork were all taken, and the thread that forked has waited at
     * its fork (target_hold_forks), so none after it is told; detach
     * lets it go with the others */
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

int follow_exec_inherits(struct session *s)
{
    const char *p;
    struct symbols *sym;
    uint64_t fn;
    char *why = NULL;
    pid_t pid;
    int runtime;

    if (s->target == NULL || s->channel == NULL || s->nprocs > 1 ||
        target_is_attached(s->target) || s->source.next != NULL ||
        channel_status(s->channel) != CHANNEL_WAITING)
        return 0;
    /* the old image never wrote into the channel, and DAPTO_CHANNEL and
     * its descriptors (not close-on-exec until a runtime makes them so)
     * are still the process's: a runtime in the new image takes them */
    pid = session_pid(s);
    sym = symbols_open(pid, NULL);
    runtime = sym != NULL &&
              symbols_address(sym, "dapto_attach_open", &fn, NULL) == 0;
    symbols_free(sym);
    if (!runtime)
        return 0;
    p = target_exec_path(s->target);
    message(s, "Process %d executed %s: monitoring it with its interface.",
            (int)pid, p != NULL ? p : "another program");
    if (target_continue(s->target, &why) != 0) {
        message(s, "cannot resume process %d: %s", (int)pid, why);
        free(why);
    }
    return 1;
}

/* TARGET_EV_EXEC (the program waits at the exec): a new image linked
 * with libdapto is run to its main and attached to there, as to a
 * running program <protocol#exec>; another is let go (exec_let_go). */
void follow_exec(struct session *s)
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
