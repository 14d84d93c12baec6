/* SPDX-License-Identifier: MIT */
/*
 * noosa.h - the composition root: one monitoring session of one program,
 * with everything that watches it.  It creates and owns the loop's users
 * (the session, the dispatcher), the transcript and its sink, and the
 * facilities that need no Tcl (component stacks, profiles, run-time
 * errors), wires them together, and turns what the program does into
 * transcript lines and deliveries to consumers (doc/design.md#event-path).
 *
 * The Tcl layer (src/tcl/interp.h) is one client of it: it adds its own
 * consumers (handlers, breakpoints, the trace, monitors) to the dispatcher
 * and hears, through struct noosa_client, what only it can do (the n(...)
 * array, browsers for values of the program's own types).  Front ends
 * (batch.c, the screen) create a noosa, then the Tcl layer over it.
 */
#ifndef NOOSA_NOOSA_H
#define NOOSA_NOOSA_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "sink.h"

struct loop;
struct dispatch;
struct transcript;
struct stacks;
struct profile;
struct questions;
struct relations;
struct faults;
struct symbols;
struct reader_item;
struct registry_param;
struct decode_value;
struct recread;
struct ckpts;
struct debug;

/* A script given on the command line: a file (-x) or commands (-e). */
struct noosa_script {
    int is_file;
    const char *text;
};

/* Everything the command line says, parsed once (main.c). */
struct noosa_opts {
    struct session_opts session;
    char *const *argv;            /* program and arguments, or NULL */
    pid_t attach_pid;             /* -p: attach to this process, 0 none */
    size_t max_lines;             /* transcript scrollback */
    const char *tty;              /* the program's terminal, or NULL */
    int no_init;                  /* skip the start-up files */
    int batch;                    /* commands wait for the program to stop */
    char **browser_dirs;          /* extra directories of browsers (NULL-ended) */
    struct noosa_script *scripts; /* -x and -e, in order */
    int nscripts;
    /* the raw trace (noosa --raw-trace, --describe) */
    int describe;                 /* print the interface, run nothing */
    const char *output;           /* trace file, NULL for standard output */
    const char *stop_at;          /* stop at every occurrence of this event */
    char **sends;                 /* "OP ARG ..." run at each stop */
    int nsends;
    int interrupt_after_ms;       /* interrupt, then kill; 0: never */
    const char *replay;           /* a recording to play instead of a
                                     program (noosa --replay DIR) */
};

/* What the root asks of its client (the Tcl layer); every member may be
 * NULL. */
struct noosa_client {
    /* The program's interface grew (an aspect was described). */
    void (*interface)(void *arg);
    /* The program stopped at event ITEM, or is no longer stopped at one
     * (ITEM NULL). */
    void (*stopped_at)(void *arg, const struct reader_item *item);
    /* Say value V of parameter P, a value of one of the program's own
     * types, in the transcript (browsable); return 0 when it could not. */
    int (*say_value)(void *arg, const struct registry_param *p,
                     const struct decode_value *v);
    /* The session's state changed (after the root has said so). */
    void (*status)(void *arg);
    void *arg;
};

struct noosa {
    struct loop *loop;             /* not owned */
    struct transcript *transcript;
    struct sink sink;              /* the transcript, and failures */
    struct session *session;
    struct dispatch *dispatch;
    struct stacks *stacks;         /* component stacks (profiles, errors) */
    struct profile *profile;       /* frequency and time profiles */
    struct questions *questions;   /* questions answered in the program */
    struct relations *relations;   /* components tested, derived events */
    struct faults *faults;         /* run-time errors */
    struct debug *debug;           /* the program's data at a stop */
    int batch;

    char *where;                   /* what the program is stopped at */
    const struct reader_item *item; /* the event being delivered, or NULL */
    uint64_t item_seq;             /* counts delivered items */
    int attaching;                 /* noosa_attach() is under way */
    struct symbols *inside_sym;    /* of the program detached from (cache) */
    pid_t inside_pid;
    int quit;                      /* quit was asked for */
    int quit_status;

    /* a recording played (<design#replay>), else NULL */
    char *replay_dir;
    struct recread *replay;
    struct decode_value *replay_name; /* a function's name as a value */
    struct ckpts *ckpts;           /* <design#checkpoints> (the session's) */
    int64_t stop_ns;               /* the time of the event stopped at */

    struct noosa_client client;
};

/* Create a session for the program of OPTS (none yet when opts->argv is
 * NULL: noosa_load names it).  Nothing runs yet. */
struct noosa *noosa_create(struct loop *loop, const struct noosa_opts *opts);
void noosa_free(struct noosa *n);
/* End the session now (a live program is killed), before the client
 * takes its consumers away; noosa_free() does it too. */
void noosa_end(struct noosa *n);

/* The client's hooks (copied). */
void noosa_set_client(struct noosa *n, const struct noosa_client *client);

/* Set the program and its arguments, and learn its interface (the
 * describe pass); a program that cannot be described is noted in the
 * transcript and still runs.  -1 with *cause when it cannot be run.
 * With opts->replay, open that recording instead (ARGV is ignored): its
 * interface is known at once, and `run' plays it. */
int noosa_load(struct noosa *n, char *const *argv, char **cause);

/*
 * Moves in the recording being played (<design#replay>), for every front
 * end (the commands, the screen's keys, the DAP adapter's stepBack and
 * reverseContinue).  Each returns at once with the play running to
 * where it stops (session_wait() in batch mode), the consumers' state
 * there as playing from the start would have made it
 * (<design#checkpoints>); -1 with *cause without a recording or when
 * the move makes no sense (the message says why).
 */
/* Go to event NUMBER (noosa dump's, from 1 <design#event-numbers>) and
 * stop there (forwards or backwards); past the last, say how many there
 * are and stay. */
int noosa_goto(struct noosa *n, uint64_t number, char **cause);
/* Go to the first event at or after NS since the run's start. */
int noosa_goto_time(struct noosa *n, int64_t ns, char **cause);
/* Go to the event before the one stopped at (gdb's reverse-stepi). */
int noosa_step_back(struct noosa *n, char **cause);
/* Go back to the last visible event before the one stopped at (the one
 * step would have stopped at: gdb's reverse-step). */
int noosa_reverse_step(struct noosa *n, char **cause);
/* Go back to the last event before the one stopped at where a
 * breakpoint (or a handler, a monitor) stops, as playing from the start
 * would; the first event when there is none (gdb's reverse-continue). */
int noosa_reverse_continue(struct noosa *n, char **cause);

/* Where the play of a recording stands. */
struct noosa_position {
    uint64_t event;      /* the event stopped at (or last given), by its
                            number <design#event-numbers> */
    uint64_t count;      /* the recording's events */
    int64_t ns;          /* the time of the event stopped at */
    int64_t last_ns;     /* the time of the recording's last event */
    int stopped;         /* stopped at it (else running, idle) */
    size_t checkpoints;  /* checkpoints kept, and their bytes */
    size_t checkpoint_bytes;
    int indexed;         /* the recording's index holds */
};
/* The number of the event the play of a recording stands at (the last
 * given; 0: none yet), as noosa dump numbers it <design#event-numbers>;
 * the session's position without a recording. */
uint64_t noosa_event_at(const struct noosa *n);
/* 1 with *POS when a recording is played, else 0. */
int noosa_position(const struct noosa *n, struct noosa_position *pos);
/* Attach to process PID, which runs already (noosa -p, attach): it
 * stops, its interface is learnt, and the transcript says where it is.
 * -1 with *cause (every reason is said there) and the program as it
 * was. */
int noosa_attach(struct noosa *n, pid_t pid, char **cause);

/* Set what the program is stopped at (WHERE taken; NULL: nothing). */
void noosa_set_where(struct noosa *n, char *where);

#endif /* NOOSA_NOOSA_H */
