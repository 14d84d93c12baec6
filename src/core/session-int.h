/* SPDX-License-Identifier: MIT */
/*
 * session-int.h - what the files of the session share: the session's
 * state, the processes of its run, and the functions each file gives the
 * others.  Not for anyone else; see session.h.
 *
 * The session is in files by role <design#session>:
 *
 *   session.c         the session itself: created and freed, the program
 *                     and terminal it runs with, what it says, and items
 *                     handed to its hooks (drain, deliver)
 *   session-procs.c   the processes of a run: the table, the current one
 *   session-watch.c   the program followed in the loop: channels read, the
 *                     targets' stops, faults, forks, execs and ends
 *   session-run.c     run control: start (and the describe pass),
 *                     continue, convert, interrupt, kill; redirections
 *   session-attach.c  attach and detach (its quiet-period tries), and the
 *                     programs let go, reaped as they end
 *   session-follow.c  a fork's child or an exec's image followed, or let go
 *   session-replay.c  a recording played as the program
 *   session-probes.c  the processes' USDT probes <design#probes>
 */
#ifndef NOOSA_SESSION_INT_H
#define NOOSA_SESSION_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "session.h"

/* Items taken from the channel in one turn of the loop, and function
 * records taken by the direct path (much cheaper) at most meanwhile. */
#define SESSION_BATCH 4096
#define SESSION_DIRECT_BATCH 65536
/* Attaching to a running program <protocol#attach>, or to a process
 * followed: how long its threads may take to stop. */
#define SESSION_ATTACH_STOP_MS 5000

/* The "mailbox" of a stop at a probe's breakpoint <design#probes>: the
 * thread waits under ptrace (session.stop_tid), not in a mailbox. */
#define STOP_PROBE (1 << 24)

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
    /* its USDT probes <design#probes> (NULL: none looked for), and the
     * threads that hit a breakpoint and wait to be told, in order */
    struct probes *probes;
    struct target_event *bpq;
    unsigned int nbpq, abpq;
    int hello;            /* a hello was handed on (the runtime's, or
                             one for probes alone) */
    /* faults that came while the run was stopped, oldest first: each
     * thread waits at its fault, told as a stop of its own when the run
     * goes on (one stop at a time <design#processes>) */
    struct target_event *held;
    unsigned int nheld, aheld;
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
    int stop;      /* mailbox the program is stopped at (AT_EVENT), or
                      STOP_PROBE */
    pid_t stop_tid; /* with STOP_PROBE, the thread */
    int dispatching; /* mailbox of the event being handed to the hook */
    struct target_event fault;
    int watching;  /* descriptors are in the loop */
    int reading;   /* the channel is read (not stopped at an event) */
    int told_status; /* channel status already reported for this run */
    int told_none;   /* "no monitoring interface" said (once a session) */

    /* The process that ended and whose last events are being told (0:
     * none): commands that would act on it (kill, stop, run, detach)
     * are refused meanwhile rather than wait for a process that is gone
     * (ending_refused()). */
    pid_t ending;
    int ended;
    int end_status;
    int end_signo;
    int killed;    /* the last run ended by session_kill() */

    struct session_source source; /* next != NULL: a recording */
    uint64_t seq;  /* the number of the last item of the source given */
    /* <design#checkpoints> a replay's moves (session-replay.c) */
    struct ckpts *ckpts;
    uint64_t next;   /* the number of the next item the source gives */
    int valid;       /* the consumers' state is that at NEXT */
    unsigned int generation; /* of the source's numbers */
    uint64_t stop_at; /* a move stops at the first event from it on
                         (UINT64_MAX: none) */
    int arrived;     /* the item being handed is that one */
    int quiet;       /* handing the events before GOAL to the
                        consumers that keep a state, nothing said */
    uint64_t goal;
    uint64_t until;  /* the stretch that may hold what they want ends */
    uint64_t mask;   /* what they want (reader_code_bit()) */
    int searching;   /* reverse: noting the stops asked before GOAL */
    uint64_t found;  /* 1 + the last such event, 0 none */
    uint64_t from;   /* where that quiet play began */
    uint64_t origin; /* the event the search began from */
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
    int taking;     /* pending() tells what came while stopped */
    int described;  /* the one process is the describe pass's (kept for
                       its registry, not one of a run) */
    struct probe_hints *hints; /* names and kinds of probes' arguments */
    int no_probes;  /* session_set_probes(0) */
    int probe_spin; /* a thread just went on past a probe's breakpoint */
};

/* What the session is doing, kept while it attaches to a new process
 * and given back after (the run goes on as it was). */
struct session_saved {
    enum session_state state;
    enum session_why why;
    int stop, reading;
    struct sproc *stop_proc;
    struct target_event fault;
};

/* session.c */
void message(struct session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void changed(struct session *s);
void tell_status(struct session *s);
void no_interface(struct session *s);
int deliver(struct session *s, const struct reader_item *item);
int resume_stop(struct session *s, int stop, pid_t tid, char **cause);
int drain(struct session *s, unsigned int max);

/* session-procs.c */
struct target *ptarget(const struct session *s, const struct sproc *p);
struct channel *pchannel(const struct session *s, const struct sproc *p);
int plive(const struct session *s, const struct sproc *p);
void select_proc(struct session *s, struct sproc *p);
struct sproc *proc_new(struct session *s, pid_t pid, pid_t parent,
                       const char *fate);
unsigned int live_others(const struct session *s, const struct sproc *p);
void select_focus(struct session *s);
void forget_target(struct session *s);
void procs_free(struct session *s);
void proc_note(struct session *s, pid_t pid, pid_t parent, const char *fate);
void procs_begin(struct session *s, struct target *t, struct channel *ch);
void hold_fault(struct sproc *p, const struct target_event *ev, int first);
int take_held(struct sproc *p, struct target_event *ev);
void save_state(const struct session *s, struct session_saved *v);
void restore_state(struct session *s, const struct session_saved *v);

/* session-watch.c */
void watch(struct session *s);
void watch_channels(struct session *s, int on);
void unwatch(struct session *s);
void unwatch_all(struct session *s);
void on_channel(int fd, short revents, void *arg);
void on_target_event(struct session *s, const struct target_event *ev);
int fault_stop(struct session *s, const struct target_event *ev);
void stop_over(struct session *s);
void pending_ends(struct session *s);
void pending(struct session *s);

/* session-run.c */
void discard(struct session *s);
int all_stopped(const struct session *s);

/* session-attach.c */
int attach_runtime(struct session *s, pid_t pid, char **cause);
int detach_proc(struct session *s, int say);
void let_target_go(struct session *s);
void report_loose(struct session *s);
void watch_loose(struct session *s);

/* session-follow.c */
void follow_fork(struct session *s, const struct target_event *ev);
void follow_exec(struct session *s);
/* At an exec of the process noosa started whose channel no runtime has
 * taken yet: when the new image is linked with libdapto, it goes on, to
 * take that channel from its environment as a program started would, and
 * 1; otherwise 0 (follow_exec() then). */
int follow_exec_inherits(struct session *s);

/* session-probes.c */
void probes_begin(struct session *s);
void probes_describe(struct session *s);
void probes_end(struct sproc *p);
void probes_breakpoint(struct session *s, const struct target_event *ev);
void probes_pending(struct session *s);
int probes_owned(const struct session *s, unsigned int code);

/* session-replay.c */
void replay_init(struct session *s);
int replay_run(struct session *s);
void replay_stop(struct session *s, enum session_why why);
void replay_ended(struct session *s, int killed);
/* While a process's last events are told (s->ending): -1 with *CAUSE
 * saying so; else 0. */
int ending_refused(const struct session *s, char **cause);

#endif /* NOOSA_SESSION_INT_H */
