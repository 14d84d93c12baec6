/* SPDX-License-Identifier: MIT */
/*
 * interp.h - the Tcl layer: one Tcl interpreter holding the Noosa API
 * (n_say, n_send, n_break, n(...), handlers, browsers) and the command
 * set (run, break, handler, send, info, ...), over a composition root
 * (src/root/noosa.h), of which it is a client: it adds the consumers
 * whose code is Tcl (handlers, breakpoints, the trace, monitors).  Front
 * ends create a noosa, then one of these over it, and evaluate what the
 * user types through it.
 */
#ifndef NOOSA_INTERP_H
#define NOOSA_INTERP_H

#include <stdint.h>
#include <tcl.h>

#include "decode.h"
#include "dispatch.h"
#include "session.h"
#include "transcript.h"

struct loop;
struct handlers;
struct breaks;
struct faults;
struct stacks;
struct profile;
struct questions;
struct relations;
struct trace;
struct monitors;
struct speed;
struct cbrowse;
struct display;

struct noosa;
struct noosa_opts;

struct interp {
    Tcl_Interp *tcl;
    struct noosa *noosa;     /* the root: session state, quit, failures */
    /* the root's parts, borrowed */
    struct loop *loop;
    struct session *session;
    struct dispatch *dispatch;
    struct transcript *transcript;
    struct handlers *handlers;
    struct breaks *breaks;
    struct faults *faults;   /* run-time errors (fault.h) */
    struct stacks *stacks;   /* component stacks (before their users) */
    struct profile *profile; /* frequency and time profiles */
    struct questions *questions; /* questions answered in the program */
    struct relations *relations; /* components tested, derived events */
    struct trace *trace;     /* the event trace */
    struct monitors *monitors; /* Tcl and built-in monitors */
    struct speed *speed;     /* slow motion */
    struct vars *vars;       /* handlers' variables in checkpoints */
    int batch;               /* the root's, never changes */
    struct commands *commands; /* the registered commands (command.c) */

    char *libdir;    /* directory of noosa.tcl */
    char *datadir;   /* parent of browsers/ and monitors/ */

    /* The event being delivered (the root's item), for handlers. */
    Tcl_Obj *args;      /* its arguments for handlers (made once) */
    uint64_t args_seq;  /* the root's item_seq of args */
    Tcl_Obj *pid_obj;   /* n_pid's value for PID_OF_OBJ's events */
    pid_t pid_of_obj;
    Tcl_Obj *apply;     /* the word "apply" */
    const char *running_handler; /* name of the handler running, or NULL */
    int break_called;           /* n_break was called */

    struct cbrowse *cbrowse;    /* C values in the transcript */
    struct display *displays;   /* display EXPR (display.h) */
    size_t ndisplays, displays_cap;
    unsigned int display_last;  /* the last display's number */
    int display_window;         /* the screen shows the displays */
    unsigned long display_serial; /* the stop the displays were shown at */

    int startup_pending;     /* the start-up files are still to be read */
    int conditions_in_noosa; /* "conditions noosa": none in the program */
    /* The program detach let go, running on unmonitored, until the next
     * run or attach (0: none): what the state of an idle session is. */
    pid_t detached;
    /* A command is being evaluated as typed at the screen's prompt (so
     * it may ask before it does something drastic, interp_confirm). */
    int typed;
    /* The screen's way to ask a question typed commands raise: ask
     * QUESTION, and evaluate SCRIPT if the answer is yes.  NULL: no one
     * to ask (batch mode, scripts). */
    void (*confirm)(void *arg, const char *question, const char *script);
    void *confirm_arg;
};

/* For a command that would do something drastic that the user may not
 * mean (delete every breakpoint): when it was typed at the screen's
 * prompt, ask QUESTION and evaluate SCRIPT (which does it) on yes, and
 * return 1 (the command then does nothing now); otherwise 0: do it. */
int interp_confirm(struct interp *in, const char *question,
                   const char *script);

/* What the idle session's program is, for the status line and info
 * program: "not running", or "detached: process N goes on unmonitored"
 * (or "has ended" since), in BUF. */
void interp_idle_state(struct interp *in, char *buf, size_t size);

/* Create the Tcl layer over N: the Tcl library and browsers.  Unless
 * opts->no_init, the start-up files are read by interp_load(), once the
 * program's interface is known, or before the first command evaluated
 * without a program.  Problems with start-up files are reported in the
 * transcript and do not stop noosa.  COMMANDS (may be NULL) registers the
 * front end's own commands among the others, before the Tcl library
 * (which may use them) is read: the front end is above this layer, which
 * never calls into it otherwise.  Returns NULL with *cause when the Tcl
 * library cannot be loaded. */
struct interp *interp_create(struct noosa *n, const struct noosa_opts *opts,
                             void (*commands)(struct interp *in),
                             char **cause);
void interp_free(struct interp *in);

/* Evaluate SCRIPT (what the user typed, or a script of commands) command
 * by command: noosa's commands named like Tcl's (break, continue, open)
 * mean noosa's at this level; each command's result, when not empty, and
 * each error (with FILE:LINE when FILE is given; lines count from
 * FIRST_LINE) go to the transcript; the event states are written into the
 * program after each command.  Stops early after quit.  Returns the
 * number of failed commands (also added to in->errors). */
int interp_script(struct interp *in, const char *script, const char *file,
                  int first_line);
/* The same for the file PATH. */
int interp_script_file(struct interp *in, const char *path);

/* Evaluate the Tcl file PATH (a library: browsers, monitors); errors are
 * reported with file and line. */
int interp_source(struct interp *in, const char *path);
/* interp_source() every *.tcl file of directory DIR, in name order; a
 * missing directory is not an error. */
void interp_source_dir(struct interp *in, const char *dir);

/* $XDG_CONFIG_HOME/noosa/LEAF, or ~/.config/noosa/LEAF without it; NULL
 * when neither variable is set.  The caller frees it. */
char *interp_config_path(const char *leaf);

/* Source the Tcl files of the user's directories ~/.noosa/LEAF, then
 * interp_config_path(LEAF). */
void interp_source_user_dirs(struct interp *in, const char *leaf);

/* Whether the Tcl code BODY (a handler's) needs the program stopped at
 * its event, as ::noosa::needs_stop judges; 1 when it cannot tell. */
int interp_needs_stop(struct interp *in, Tcl_Obj *body);

/* Append text to the transcript. */
void interp_say(struct interp *in, const char *text);
void interp_sayf(struct interp *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Report an error in the transcript ("error: ..."). */
void interp_error(struct interp *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Set the program and its arguments, and learn its interface (the
 * describe pass); problems are reported in the transcript.  Returns -1
 * with *cause when the program cannot be run at all. */
int interp_load(struct interp *in, char *const *argv, char **cause);
/* Attach to process PID, which runs already (noosa -p), then read the
 * start-up files as interp_load() does. */
int interp_attach(struct interp *in, pid_t pid, char **cause);

/* A Tcl value for a decoded value (pointers as unsigned decimal). */
Tcl_Obj *interp_value(const struct decode_value *v);

/* The parameter list of a handler lambda for event E: its parameters,
 * then n_ename, n_time (ns since the program started), n_thread and
 * n_pid (its process). */
Tcl_Obj *interp_params(const struct registry_event *e);
/* Whether PARAMS (NULL: no) is interp_params(E), looked at without
 * making anything (lambdas are checked so at every event). */
int interp_params_match(Tcl_Obj *params, const struct registry_event *e);

/* Say V, a value of the program's own type TYPE, as n_say_val does
 * (through the type's browser, else TYPE:0xHEX): 1, or 0 when that
 * failed. */
int interp_say_val(struct interp *in, const char *type,
                   const struct decode_value *v);

/* Call LAMBDA (an apply lambda with interp_params() as its parameters)
 * with the values of the event ITEM being delivered.  Handler code runs
 * in its own procedure scope; the event's values are its arguments, so
 * they are never evaluated as code. */
int interp_apply(struct interp *in, Tcl_Obj *lambda,
                 const struct reader_item *item);

/* Run LAMBDA (as interp_apply) for event DE as the code of WHAT NAME
 * (WHAT is "handler" or "monitor"): n_send in it names NAME, an error is
 * reported and returned (TCL_ERROR: the event's other code is skipped),
 * and a call of n_break in it stops the program at DE, for the first such
 * code of the delivery (dispatch_stop).  As for a script bound to an event
 * in Tk, return -code break returns TCL_BREAK (the event's other code is
 * skipped, quietly) and -code continue TCL_OK; any other code is reported
 * as an error. */
int interp_run_for(struct interp *in, const char *what, const char *name,
                   Tcl_Obj *lambda, struct dispatch_event *de);

/* Refresh n(status), n(pid), n(where). */
void interp_update_status(struct interp *in);

/* The program's interface when noosa knows one (an aspect at least), or
 * NULL: not yet, or a program without a runtime, which may execute one
 * that has (names are then taken as they are, for later). */
struct registry *interp_interface(struct interp *in);

/* Events by name in the current interface: NULL and a message in the
 * interpreter when unknown. */
const struct registry_event *interp_event(struct interp *in,
                                          const char *name);

/* The process of option -pid OBJ of command WHAT: one monitored now
 * <design#processes>.  TCL_ERROR with the message in the interpreter. */
int interp_pid(struct interp *in, const char *what, Tcl_Obj *obj,
               pid_t *pid);

/* Register the command families (each in its own file). */
void cmd_run_init(struct interp *in);
void cmd_send_init(struct interp *in);
void cmd_info_init(struct interp *in);
void cmd_transcript_init(struct interp *in);
void cmd_profile_init(struct interp *in);
void cmd_question_init(struct interp *in);
void cmd_derive_init(struct interp *in);
void cmd_probe_init(struct interp *in);
/* The program's interface changed (a derived event joined it): the n(...)
 * array again. */
void interp_interface_changed(struct interp *in);
void cmd_fault_init(struct interp *in);
void cmd_record_init(struct interp *in);
void cmd_data_init(struct interp *in);
void cmd_data_free(struct interp *in);
void cmd_frame_init(struct interp *in);
/* info frame|locals|args (cmd-frame.c). */
int cmd_frame_info(struct interp *in, const char *sub);
/* Close the recording under way, if any, while the session it records
 * is still there (the end of the Tcl layer). */
void cmd_record_end(struct interp *in);
/* gdb's words noosa has no command for (cmd-gdb.c): last, so that an
 * entry that works replaces one of them whichever comes first. */
void cmd_gdb_init(struct interp *in);

#endif /* NOOSA_INTERP_H */
