/* SPDX-License-Identifier: MIT */
/*
 * session.h - one monitored program through its runs: start it under the
 * monitor, follow it through the front end's loop, stop, continue,
 * interrupt, kill, run operations where it is stopped, and learn its
 * interface before it runs (the describe pass).
 *
 * The session owns the target and the channel of the current run and
 * hands every decoded item to its hooks; it decides nothing about events
 * itself.  Front ends (batch, the screen) and the Tcl layer drive it; it
 * never prints.
 */
#ifndef NOOSA_SESSION_H
#define NOOSA_SESSION_H

#include <stdint.h>
#include <sys/types.h>

#include "channel.h"
#include "reader.h"
#include "registry.h"
#include "target.h"

struct loop;
struct session;
struct ckpts;

enum session_state {
    SESSION_IDLE,    /* no program: not started yet, exited or killed */
    SESSION_RUNNING,
    SESSION_STOPPED
};

enum session_why {
    SESSION_AT_EVENT,    /* a thread waits at an event */
    SESSION_INTERRUPTED, /* every thread stopped by the monitor */
    SESSION_FAULT        /* a thread is about to receive a fatal signal */
};

struct session_hooks {
    /* An item from the program.  For an event whose thread waits
     * (item->stop >= 0), return non-zero to keep the program stopped
     * there; otherwise it resumes when the hook returns. */
    int (*item)(void *arg, const struct reader_item *item);
    /* Function entries and exits on the direct path (session_direct),
     * in ring order between the items; returns how many it took (see
     * channel_direct()).  May be NULL: then they are always items. */
    unsigned int (*functions)(void *arg, const struct reader_fn *fns,
                              unsigned int n);
    /* Events of a recording that their consumers only count, in order
     * between the items (session_counting); returns how many it took.
     * May be NULL. */
    unsigned int (*counts)(void *arg, const struct reader_ev *evs,
                           unsigned int n);
    /* The state changed: started, stopped, resumed, ended. */
    void (*state)(void *arg);
    /* Something the user should know ("the program has no monitoring
     * interface"). */
    void (*message)(void *arg, const char *text);
    /* Whether thread TID, stopped, is inside the runtime (a frame of its
     * stack is one of the runtime's entry points): detach waits until no
     * thread is before it lets go of the region <protocol#attach>.  May
     * be NULL: then detach only lets the program run a moment.  When it
     * is (or cannot tell), *WHERE says where, or why it cannot tell (to
     * free). */
    int (*inside)(void *arg, pid_t tid, char **where);
    /* The current process changed (session_current()): what is said of
     * "the program" from now on is said of it.  May be NULL. */
    void (*process)(void *arg);
    /* A replay's move hands the events before the one it goes to over to
     * the consumers that keep a state (ON; <design#checkpoints>), or is
     * done with that (ON 0): nothing they do is to be said meanwhile,
     * and stops they ask for are noted, not made.  With ON, returns the
     * codes of the events they want (reader_code_bit(), READER_ALL_CODES
     * when it cannot tell); the others are not read.  May be NULL. */
    uint64_t (*quiet)(void *arg, int on);
    void *arg;
};

struct session_opts {
    uint32_t ring_size; /* 0: the channel's default */
    int overwrite;
    int no_tsc;
    int op_timeout_ms;  /* for operations; < 0: no limit */
    int fd_in;          /* the program's standard descriptors, -1 to */
    int fd_out;         /* inherit noosa's */
    int fd_err;
    unsigned int trail_events; /* a thread's own trail holds that many
                                  (channel_opts); 0: the default */
};

struct session *session_create(struct loop *loop,
                               const struct session_hooks *hooks,
                               const struct session_opts *opts);
void session_free(struct session *s);

/* The program and its default arguments (copied). */
void session_set_program(struct session *s, char *const *argv);
/* The program and arguments of the next run (NULL-terminated, owned by
 * the session). */
char *const *session_argv(const struct session *s);
/* Set the arguments of the next runs (not the program); copied. */
void session_set_args(struct session *s, char *const *args);

/* Each thread's own trail holds the last N events from the next run or
 * attach on <protocol#ttrail>. */
void session_set_trail_events(struct session *s, unsigned int n);

/* The program's terminal for the next runs: the terminal PATH (opened
 * now; -1 with *cause when it cannot be, or is not a terminal), or with
 * PATH NULL the session's descriptors again.  A run's redirections still
 * win. */
int session_set_tty(struct session *s, const char *path, char **cause);
/* The path set by session_set_tty(), or NULL. */
const char *session_tty(const struct session *s);

/* Learn the program's interface without running it: start it, let its
 * constructors register their aspects, stop at main, kill it.  The
 * aspects are delivered to the item hook as READER_ASPECT items and the
 * registry stays until the next run.  Blocks.  Returns 0; -1 with *cause
 * when the program cannot be started at all; 1 with *cause when it
 * started but could not be described (no main, ...). */
int session_describe(struct session *s, char **cause);

/* Start the program (killing a live one first).  Standard descriptors
 * may be redirected for this run: FD_* >= 0 replace the session's. */
int session_run(struct session *s, int fd_in, int fd_out, int fd_err,
                char **cause);
/* Let a stopped program go on (at an event: resume; interrupted:
 * continue every thread; at a fault: deliver the signal). */
int session_continue(struct session *s, char **cause);
/* Let a program stopped at a fault go on without delivering the signal:
 * the caller has made the faulting thread recover (converted the error,
 * see fault.h).  The other threads go on too. */
int session_convert(struct session *s, char **cause);
int session_interrupt(struct session *s, char **cause);
/* Kill a live program (every process of the run) and wait for it. */
int session_kill(struct session *s, char **cause);

/* Attach to process PID, linked with libdapto and running already
 * <protocol#attach>: every thread stops (the state is SESSION_STOPPED,
 * SESSION_INTERRUPTED), the runtime makes a channel that noosa fills in,
 * and the program's interface arrives through the item hook as at a
 * start.  Blocks.  Every reason it cannot be done is said in *cause, and
 * the program is then left as it was. */
int session_attach(struct session *s, pid_t pid, char **cause);
/* Let a program attached to go on untraced, every event off and nothing
 * of the channel left in it. */
int session_detach(struct session *s, char **cause);
/* Whether the live program was attached to rather than started. */
int session_attached(const struct session *s);

/* Which process to monitor when the program creates one with fork()
 * <protocol#fork>: the parent (the child is let go, unmonitored), the
 * child (noosa lets the parent go on unmonitored, as detach does), or
 * both (the default).  A child followed is stopped where its runtime has
 * let go of its parent's channel and attached to there, so that none of
 * its events is lost.  A child created with vfork() is always let go.
 * Takes effect for the processes created from now on. */
enum session_follow {
    SESSION_FOLLOW_PARENT,
    SESSION_FOLLOW_CHILD,
    SESSION_FOLLOW_BOTH
};
void session_set_follow(struct session *s, enum session_follow follow);
enum session_follow session_follow(const struct session *s);
/* Whether the session is moving from a parent to its child: the state
 * changes meanwhile (idle, stopped, running) are only steps of that. */
int session_following(const struct session *s);

/*
 * The processes of a run <design#processes>: the first one (started or
 * attached to) and those it created, each with its own target and
 * channel.  One of them is the current process, the one that every
 * function here speaking of "the program" speaks of (session_pid,
 * session_channel, session_registry, session_set_state, session_send,
 * detach ...): while an item is handed to the hooks, its process; while
 * stopped, the process stopped at; else the oldest one live.
 * session_select() makes another one current (the dispatcher writes
 * each process's states so), and the process hook says so.
 *
 * The state is the run's: running while any process runs, stopped when
 * one is stopped at an event or a fault (nothing is then read from any
 * channel, so the other processes run until they wait for noosa, as the
 * other threads of the one stopped do) or when every one is interrupted;
 * idle when none is left.
 */
struct session_process {
    pid_t pid;
    pid_t parent;     /* 0: started or attached to */
    const char *fate; /* "monitored", "exited", "not followed", ... */
};
/* Process I of this run (0: the first; those met on the way, created,
 * followed or let go, in order), or NULL. */
const struct session_process *session_process(const struct session *s,
                                              unsigned int i);
unsigned int session_nprocs(const struct session *s);
/* The channel of process I (without processes, I 0: the session's), or
 * NULL; the process stays as it is (not made current). */
struct channel *session_process_channel(const struct session *s,
                                        unsigned int i);
/* Make process I current (-1: no such process). */
int session_select(struct session *s, unsigned int i);
/* The index of the current process, or -1. */
int session_current(const struct session *s);
/* Whether more than one process was monitored in this run. */
int session_multi(const struct session *s);
/* How many processes of the run are live. */
unsigned int session_live(const struct session *s);
/* Whether the current process joined a run under way (its hello is not
 * the run's first: a child followed with its parent, an exec in a run of
 * several). */
int session_joined(const struct session *s);
/* Whether process PID is monitored now (live, its channel active). */
int session_monitored(const struct session *s, pid_t pid);

/* Run operation OP in the thread waiting at an event (the one being
 * dispatched or the one stopped at).  See channel_send(). */
int session_send(struct session *s, const char *op, int argc,
                 const char *const *argv, struct channel_result *res,
                 char **cause);
/* Whether the item being handed to the item hook can keep the program
 * stopped (its thread waits, and the program is live and not being
 * attached to). */
int session_may_stop(const struct session *s);
/* Whether a thread waits at an event so that operations can run. */
int session_can_send(const struct session *s);

/* Run the loop until the program is no longer running.  Blocks. */
void session_wait(struct session *s);

enum session_state session_state(const struct session *s);
/* The loop the session was made with. */
struct loop *session_loop(const struct session *s);
enum session_why session_why(const struct session *s);
pid_t session_pid(const struct session *s);
/* The fault a stopped program is at (SESSION_FAULT), or NULL. */
const struct target_event *session_fault(const struct session *s);
/* How the last run ended: 1 with *status (exit status) or *signo (>0
 * when killed by a signal), 2 the same when session_kill() ended it, 0
 * when no run has ended. */
int session_ended(const struct session *s, int *status, int *signo);
/* The interface of the current (or last) run or describe pass, or NULL. */
struct registry *session_registry(const struct session *s);
/* The channel of the current run, or NULL. */
struct channel *session_channel(const struct session *s);
struct target *session_target(const struct session *s);

/* Hand function entries and exits to the functions hook instead of the
 * item hook (ON), or not.  Off at the start of every run. */
void session_direct(struct session *s, int on);
/* Take a recording's events that their consumers only count from the
 * source in batches, for the counts hook (ON: some are), or not. */
void session_counting(struct session *s, int on);

/*
 * USDT probes <design#probes>: the probes of the program and its
 * libraries are events of its registry (an aspect per provider), looked
 * for at each start and change of its libraries unless turned off (ON
 * 0: from the next run).  Their hints (names and kinds of arguments,
 * components) are the session's, for every run.
 */
int session_set_probes(struct session *s, int on);
struct probe_hints *session_probe_hints(struct session *s);
/* The current process's probes as `info probes' lists them (to free), or
 * NULL when it has none. */
char *session_probes_text(const struct session *s);
/* Whether the current process has USDT probes (of objects mapped now). */
int session_has_probes(const struct session *s);

/* Set the state of event CODE in the current run (ignored without one). */
int session_set_state(struct session *s, unsigned int code,
                      unsigned char state, char **cause);

/* Conditions in the program (channel.h): whether they can be written now,
 * a filter written, cleared, and a counter read. */
struct cond_clause;
int session_filters(const struct session *s, const char **why);
int session_set_filter(struct session *s, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause);
void session_clear_filter(struct session *s, const struct registry_event *ev);
uint64_t session_counter(const struct session *s, uint16_t id);

/*
 * A recording played as the program (<design#replay>): with a source,
 * run, continue and step take its items in order instead of a program's,
 * through the same hooks, until one is kept (every event may be: it is as
 * if each waited) or the source ends; nothing can be sent, interrupted
 * means paused.  The source's registry is the session's.
 */
struct session_source {
    /* The next item (1), or 0 at the end; *SEQ numbers it from 0. */
    int (*next)(void *arg, struct reader_item *item, uint64_t *seq);
    /* The entries and exits of functions that come next, as the
     * built-in enter and leave with interned names, up to MAX into FNS:
     * how many, *SEQ the number of the first; 0 when the next item is
     * not one.  Taken instead of items while the direct path is on; may
     * be NULL (then they are items). */
    unsigned int (*functions)(void *arg, struct reader_fn *fns,
                              unsigned int max, uint64_t *seq);
    /* The events that come next and that their consumers only count
     * (the source knows which from the dispatcher), up to MAX into EVS:
     * how many, *SEQ the number of the first; 0 when the next item is
     * not one.  Taken instead of items while session_counting() is on;
     * may be NULL. */
    unsigned int (*counts)(void *arg, struct reader_ev *evs,
                           unsigned int max, uint64_t *seq);
    /* Make the next item the one numbered SEQ (0: the first). */
    void (*seek)(void *arg, uint64_t seq);
    /* The first item at or after FROM and before TO of a stretch that may
     * hold an event of MASK (reader_code_bit()), *UNTIL the end of such
     * stretches; TO when none (recread_find()).  May be NULL: every item
     * may. */
    uint64_t (*find)(void *arg, uint64_t from, uint64_t to, uint64_t mask,
                     uint64_t *until);
    /* The last such stretches at or after FROM and before TO, as
     * [*START, *END): 1, or 0 when none (recread_find_back()).  May be
     * NULL: every item may. */
    int (*find_back)(void *arg, uint64_t from, uint64_t to, uint64_t mask,
                     uint64_t *start, uint64_t *end);
    /* How many items there are (UINT64_MAX: not known), and a number that
     * changes when their numbers move (the source's index was made
     * again).  May be NULL. */
    uint64_t (*count)(void *arg);
    unsigned int (*generation)(void *arg);
    /* The number the user knows item SEQ by (<design#event-numbers>:
     * the events alone, from 1), for messages.  May be NULL: SEQ. */
    uint64_t (*number)(void *arg, uint64_t seq);
    struct registry *(*registry)(void *arg);
    pid_t pid;             /* the recorded program's */
    int ended, status, signo; /* how it ended, as session_ended() says */
    const char *name;      /* for messages: the recording */
    void *arg;
};

/* Play SOURCE (copied; its arg must outlive the session) from now on. */
void session_set_source(struct session *s, const struct session_source *src);
/* Whether the session plays a recording. */
int session_replaying(const struct session *s);
/* The number of the last item given (the one stopped at). */
uint64_t session_position(const struct session *s);

/*
 * Moves in a replay (<design#replay>, <design#checkpoints>).  The
 * consumers' state at an event is what handing them every event before
 * it from the start made it, whichever way the play got there: a move
 * restores the latest checkpoint at or before its event (or goes on from
 * where the play stands when that is nearer) and hands the events from
 * there to the consumers that keep a state, quietly (the session's quiet
 * hook), reading only the stretches that hold events they want.  Moves
 * return at once; the session runs until it stops there (session_wait()
 * in batch mode).
 */
/* The checkpoints of the replay, which the consumers that keep a state
 * join: set once, before the dispatcher is made (not owned: they outlive
 * the session, whose consumers leave them after it is gone). */
void session_set_checkpoints(struct session *s, struct ckpts *ck);
struct ckpts *session_checkpoints(const struct session *s);
/* Go to item SEQ and stop at the first event at or after it, whatever
 * the consumers say (they are told of it as of any event); -1 with
 * *cause without a recording or past its last item. */
int session_goto(struct session *s, uint64_t seq, char **cause);
/* Back to the last event before item BEFORE at which a consumer that
 * keeps a state asks to stop (a breakpoint; gdb's reverse-continue),
 * found by playing the stretches before it from checkpoints, the latest
 * first; with none, to the first event (a message says so).  -1 with
 * *cause without a recording. */
int session_reverse(struct session *s, uint64_t before, char **cause);
/* The last item before BEFORE of a code of MASK (reader_code_bit())
 * that PRED (with ARG) holds for, read from the source without handing
 * it to anything: 1 with *SEQ, 0 when there is none. */
int session_find_back(struct session *s, uint64_t before, uint64_t mask,
                      int (*pred)(void *arg, const struct reader_item *it),
                      void *arg, uint64_t *seq);
/* Whether the events a move hands over are being handed (nothing is to
 * be said of them), and whether the item being handed is the one a move
 * stops at. */
int session_quiet(const struct session *s);
int session_arrived(const struct session *s);
/* The items of the source (UINT64_MAX: not known). */
uint64_t session_count(const struct session *s);

/* Take "< FILE", "> FILE", ">> FILE", "2> FILE" and "2>&1" (with or
 * without a space before FILE) out of the NULL-terminated ARGS (pointers
 * are moved; the strings are the caller's) and open the files.  Returns 0
 * with FDS set to the descriptors for the program's 0, 1, 2 (-1 where not
 * redirected), or -1 with *cause and nothing open. */
int session_redirect(char **args, int fds[3], char **cause);
/* Close what session_redirect() opened. */
void session_redirect_close(int fds[3]);

#endif /* NOOSA_SESSION_H */
