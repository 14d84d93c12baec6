/* SPDX-License-Identifier: MIT */
/*
 * session-procs.c - the processes of a run <design#processes>: the table
 * of them (struct sproc), which one is current (select_proc() swaps its
 * target and channel into struct session), what became of each, and what
 * the session says of them (session_process(), session_live() ...).
 * Following a fork or an exec into a process is session-follow.c's; the
 * end of one, session-watch.c's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "session-int.h"
#include "xmalloc.h"

/* P's target and channel, wherever they are now. */
struct target *ptarget(const struct session *s, const struct sproc *p)
{
    return p == s->cur ? s->target : p->target;
}

struct channel *pchannel(const struct session *s, const struct sproc *p)
{
    return p == s->cur ? s->channel : p->channel;
}

int plive(const struct session *s, const struct sproc *p)
{
    struct target *t = ptarget(s, p);

    return t != NULL && target_alive(t);
}

/* Make P (NULL: none) the current process. */
void select_proc(struct session *s, struct sproc *p)
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
struct sproc *proc_new(struct session *s, pid_t pid, pid_t parent,
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
unsigned int live_others(const struct session *s, const struct sproc *p)
{
    unsigned int n = 0;

    for (unsigned int i = 0; i < s->nprocs; i++)
        n += s->procs[i] != p && plive(s, s->procs[i]);
    return n;
}

/* The process commands speak of when none is being read: the one
 * stopped at, else the oldest live one, else the current one. */
void select_focus(struct session *s)
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

/* Kill (if need be), reap and free the program of this run; the channel,
 * kept for its registry, no longer reaches it. */
void forget_target(struct session *s)
{
    if (s->channel != NULL)
        channel_attach(s->channel, NULL);
    target_free(s->target);
    s->target = NULL;
}

/* Forget every process: those alive are killed, or let go when attached
 * to (after session_detach()). */
void procs_free(struct session *s)
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
    for (unsigned int i = 0; i < s->nprocs; i++) {
        probes_end(s->procs[i]);
        free(s->procs[i]->held);
        free(s->procs[i]);
    }
    s->nprocs = 0;
    s->stop_proc = NULL;
    s->multi = 0;
}

/* Say what became of process PID (created by PARENT, 0 if none). */
void proc_note(struct session *s, pid_t pid, pid_t parent, const char *fate)
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
void procs_begin(struct session *s, struct target *t, struct channel *ch)
{
    procs_free(s);
    s->described = 0;
    select_proc(s, proc_new(s, target_pid(t), 0, "monitored"));
    s->target = t;
    s->channel = ch;
    target_keep_children(t, s->follow != SESSION_FOLLOW_PARENT);
    target_hold_forks(t, s->follow == SESSION_FOLLOW_CHILD);
}

/* Keep fault EV of P for later (FIRST: before the others, it was the
 * oldest). */
void hold_fault(struct sproc *p, const struct target_event *ev, int first)
{
    if (p->nheld == p->aheld) {
        p->aheld = p->aheld == 0 ? 4 : 2 * p->aheld;
        p->held = xreallocarray(p->held, p->aheld, sizeof *p->held);
    }
    if (first) {
        memmove(&p->held[1], &p->held[0], p->nheld * sizeof *p->held);
        p->held[0] = *ev;
    } else {
        p->held[p->nheld] = *ev;
    }
    p->nheld++;
}

/* Take P's oldest fault kept for later into *EV: 1, or 0 when none is. */
int take_held(struct sproc *p, struct target_event *ev)
{
    if (p->nheld == 0)
        return 0;
    *ev = p->held[0];
    p->nheld--;
    memmove(&p->held[0], &p->held[1], p->nheld * sizeof *p->held);
    return 1;
}

void save_state(const struct session *s, struct session_saved *v)
{
    v->state = s->state;
    v->why = s->why;
    v->stop = s->stop;
    v->reading = s->reading;
    v->stop_proc = s->stop_proc;
    v->fault = s->fault;
}

void restore_state(struct session *s, const struct session_saved *v)
{
    s->state = v->state;
    s->why = v->why;
    s->stop = v->stop;
    s->reading = v->reading;
    s->stop_proc = v->stop_proc;
    s->fault = v->fault;
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
