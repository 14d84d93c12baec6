/* SPDX-License-Identifier: MIT */
/*
 * dap.h - the Debug Adapter Protocol front end (`noosa --dap`): an
 * editor (VS Code, nvim-dap, dape, Helix, Zed) drives noosa through it,
 * over standard input and output, with the same session, commands, Tcl
 * layer and handlers as the screen and batch mode (<design#dap>).
 *
 * The family shares this header:
 *   dap.c        the front end: its loop, the requests by table, run
 *                control, and what the client is told of the program
 *                (stopped, continued, exited, terminated, output)
 *   dap-start.c  the program's life: initialize, launch (a program or a
 *                recording), attach, configurationDone, restart,
 *                terminate, disconnect
 *   dap-proto.c  the protocol itself: Content-Length framing, JSON bodies
 *                (jansson), requests, responses and events, the log
 *   dap-break.c  breakpoints on events, on the lines that emit them and
 *                on run-time errors; what a stop was for
 *   dap-lines.c  the lines of the program that emit each event, read
 *                from its debug information
 *   dap-vars.c   threads, the stack, scopes, variables and evaluate
 *   dap-term.c   the program's terminal in the editor (runInTerminal)
 *
 * Nothing but the protocol is written to the adapter's standard output:
 * dap_main() moves it to a descriptor of its own and points descriptor 1
 * at standard error, and the program's output comes through pipes (or a
 * terminal of the editor's), never through it.
 */
#ifndef NOOSA_DAP_H
#define NOOSA_DAP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "noosa.h"
#include "session.h"

struct interp;
struct registry_event;
struct dap_breaks;
struct dap_vars;
struct dap_lines;
struct dap_term;

/* The longest body and header the adapter takes (a bigger one is
 * refused, and the input read again from the next header). */
#define DAP_MAX_BODY (64u << 20)
#define DAP_MAX_HEADER 8192u

/* What a request needs before it can be handled. */
enum dap_needs {
    DAP_NEEDS_NOTHING,  /* initialize */
    DAP_NEEDS_INIT,     /* initialize answered */
    DAP_NEEDS_PROGRAM,  /* launch or attach answered */
    DAP_NEEDS_STOPPED   /* the program stopped */
};

/* How the program came. */
enum dap_kind {
    DAP_NONE,
    DAP_LAUNCH,   /* started by noosa */
    DAP_ATTACH,   /* attached to */
    DAP_REPLAY    /* a recording played */
};

struct dap {
    /* the protocol (dap-proto.c) */
    int in_fd, out_fd;     /* the client's: moved off 0 and 1 */
    char *inbuf;           /* bytes read and not yet taken */
    size_t in_len, in_cap;
    int in_eof;            /* the client closed its end */
    int out_dead;          /* writing to the client failed */
    long seq;              /* the last seq sent */
    FILE *log;             /* --dap-log, or NULL */
    uint64_t log_start_ns;

    /* the client, from initialize */
    int initialized;
    int lines_at1, columns_at1;
    int client_terminal;   /* it offers runInTerminal */
    char *client_name;

    /* the program */
    struct loop *loop;
    struct noosa_opts opts;      /* main's, with the launch's additions */
    char **main_browsers;        /* -B's (NULL-ended, main's) */
    char **browser_dirs;         /* the launch's and -B's (NULL-ended) */
    struct noosa *noosa;
    struct interp *in;
    enum dap_kind kind;
    int answered;          /* launch or attach answered */
    int configured;        /* configurationDone came */
    int stop_on_entry;
    char **argv;           /* the program and its arguments */
    json_t *launch;        /* the launch's arguments (restart) */
    json_t *pending;       /* the launch waiting for its terminal */
    int ended_told;        /* exited and terminated were sent */
    int quit_done;         /* quit (typed in the console) was acted on */
    int terminate_sent;

    /* the program's output */
    int null_fd;           /* /dev/null: its standard input */
    int out_pipe[2], err_pipe[2];
    struct dap_term *term; /* its terminal in the editor, or NULL */

    /* the transcript, said as output of category console */
    uint64_t tr_line;      /* the first line not yet said whole */
    size_t tr_col;         /* bytes of it said */
    int capturing;         /* dap_capture() takes what is said */

    /* what the client was told */
    enum session_state told_state;
    uint64_t told_seq;     /* the root's item_seq at the stop told */
    const char *resumed_for; /* the reason the adapter resumed for
                                ("step", "entry", "goto", "pause"), or
                                NULL */
    int forced;            /* the next stop is where the adapter went
                              (step back): it is told whatever it is */
    pid_t stop_thread;     /* the thread stopped at, for the client */
    uint64_t reverse_at;   /* reverseContinue a step back at a time: the
                              event it last went back from, or 0 */
    int reverse_rc;        /* reverseContinue by noosa's reverse-continue:
                              a stop of no breakpoint is the first event */

    struct dap_breaks *breaks;
    struct dap_vars *vars;
    struct dap_lines *lines;

    int quit;
};

/* A request's handler: it answers (now or later) with dap_respond() or
 * dap_fail(). */
typedef void (*dap_request_fn)(struct dap *d, json_t *req, json_t *args);

struct dap_request {
    const char *command;
    dap_request_fn fn;
    enum dap_needs needs;
};

/* dap.c */
int dap_main(const struct noosa_opts *o, const char *log_path);
/* Evaluate noosa command WORDS (a list of ARGC words, run as typed at
 * the prompt: noosa's `continue' and `break', not Tcl's), then write the
 * states into the program.  What it says is taken (not said to the
 * client) and, when OUT is not NULL, returned in *OUT (freed by the
 * caller) with the command's result or error after it.  TCL_OK or
 * TCL_ERROR. */
int dap_command(struct dap *d, char **out, int argc,
                const char *const *words);
/* The same for SCRIPT, commands as typed (evaluate in the repl). */
int dap_script(struct dap *d, const char *script, char **out);
/* Capture what the transcript is told from now on (what was said
 * before goes to the client first); *LINE and *COL mark where it
 * starts.  dap_capture_end() returns the text captured since (NULL when
 * not WANT), which the client is not told of. */
void dap_capture_begin(struct dap *d, uint64_t *line, size_t *col);
char *dap_capture_end(struct dap *d, uint64_t line, size_t col, int want);
/* Say TEXT to the client as output of CATEGORY ("console", "stdout",
 * "stderr", "important"). */
void dap_output(struct dap *d, const char *category, const char *text,
                size_t len);
/* Say the transcript's new lines to the client (unless captured). */
void dap_flush_transcript(struct dap *d, int partial);
/* The program's state now: 1 stopped, 0 running, -1 no program; with a
 * message for a request that needs it stopped in *why. */
int dap_stopped(struct dap *d, const char **why);
/* The event the program is stopped at, or NULL. */
const struct registry_event *dap_stop_event(struct dap *d);
/* Resume the program with noosa command WORDS for REASON (told at the
 * next stop; NULL: what noosa says it stopped for); answers REQ: 0, or
 * -1 when the command failed.  When FORCED, the next stop is where the
 * command goes (a move in a recording) and is told whatever it is. */
int dap_resume(struct dap *d, json_t *req, const char *reason, int forced,
               int argc, const char *const *words);

/* Go on from a stop the client is not to see, with noosa command WORD
 * (continue, or step while stepping); the transcript's line of the stop
 * is not said to the client either. */
void dap_go_on_quietly(struct dap *d, const char *word);

/* dap-start.c */
/* Let go of the program: detach from one attached to (unless
 * TERMINATE), kill one started. */
void dap_let_go(struct dap *d, int terminate);
/* The end of the adapter: the program let go, the launch's arguments
 * freed. */
void dap_start_end(struct dap *d);
extern const struct dap_request dap_start_requests[];

/* dap-proto.c */
/* Take what the client wrote on its descriptor (the loop's callback). */
void dap_proto_read(int fd, short revents, void *arg);
/* The next message: 1 with *MSG (owned by the caller), 0 when none is
 * whole yet, -1 with *ERR (to free) for bad input, which is skipped. */
int dap_proto_next(struct dap *d, json_t **msg, char **err);
/* Send MSG (reference taken) with the next seq. */
void dap_send(struct dap *d, json_t *msg);
/* Answer request REQ with BODY (reference taken; NULL: none). */
void dap_respond(struct dap *d, json_t *req, json_t *body);
/* Answer request REQ with failure: the message FMT says why. */
void dap_fail(struct dap *d, json_t *req, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A failure that answers no request (input that was not one). */
void dap_fail_seq(struct dap *d, long request_seq, const char *command,
                  const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Send event EVENT with BODY (reference taken; NULL: none). */
void dap_event(struct dap *d, const char *event, json_t *body);
/* Send a request of the adapter's to the client; its seq. */
long dap_request(struct dap *d, const char *command, json_t *args);
/* A JSON string of LEN bytes of S, whatever they are: bytes that are not
 * UTF-8 become U+FFFD.  dap_jstr() takes a C string. */
json_t *dap_jstrn(const char *s, size_t len);
json_t *dap_jstr(const char *s);
/* Members of a request's arguments: a string (NULL when absent or not
 * one), an integer (DEF when absent; 0 and *bad set when not one), a
 * boolean (DEF when absent). */
const char *dap_arg_str(json_t *args, const char *key);
long long dap_arg_int(json_t *args, const char *key, long long def,
                      int *bad);
int dap_arg_bool(json_t *args, const char *key, int def);
/* Write to the log (when there is one). */
void dap_log(struct dap *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* dap-break.c */
struct dap_breaks *dap_breaks_create(struct dap *d);
void dap_breaks_free(struct dap_breaks *b);
/* A new program: the breakpoints are set again in its session. */
void dap_breaks_reset(struct dap_breaks *b);
/* The program is resumed: hits are counted from now. */
void dap_breaks_resume(struct dap_breaks *b);
/* The program stopped at an event, as noosa says WHERE: 1 when the stop
 * is the client's to see, with *REASON (static), *IDS (the breakpoints
 * hit, a new array or NULL); 0 when the adapter should go on (a line
 * breakpoint's event at another line, a log point). */
int dap_breaks_stopped(struct dap_breaks *b, const char *where,
                       const char **reason, json_t **ids);
/* Whether run-time errors stop the program (the filter "errors"). */
int dap_breaks_errors(const struct dap_breaks *b);
extern const struct dap_request dap_break_requests[];

/* dap-lines.c */
/* The lines of program PATH that emit events (the calls of the stubs
 * _dapto_EVENT), read from its debug information: NULL with *cause when
 * it has none. */
struct dap_lines *dap_lines_read(const char *path, char **cause);
void dap_lines_free(struct dap_lines *l);
struct dap_site {
    const char *file;  /* the source file, as the debug information says */
    int line;
    const char *event;
};
/* The sites in the source file PATH (an editor's path), in order of
 * line; how many, *SITES pointing into L. */
size_t dap_lines_in(struct dap_lines *l, const char *path,
                    const struct dap_site **sites);
/* The sites of event EVENT, anywhere; how many (into OUT, up to MAX). */
size_t dap_lines_of(struct dap_lines *l, const char *event,
                    const struct dap_site **out, size_t max);
/* FILE (as the debug information or an unwinder names it, perhaps
 * relative to its unit's directory) as the path of a file that exists,
 * or NULL; the caller frees it. */
char *dap_lines_path(struct dap_lines *l, const char *file);
/* Whether FILE (as the debug information or an unwinder names it) is
 * the editor's PATH. */
int dap_lines_same_file(const char *file, const char *path);

/* dap-vars.c */
struct dap_vars *dap_vars_create(struct dap *d);
void dap_vars_free(struct dap_vars *v);
/* The program goes on or stopped again: forget the frames and the
 * variables' references. */
void dap_vars_forget(struct dap_vars *v);
/* The file and line where the thread stopped at an event emitted it
 * (its first frame after the runtime's): 0, or -1 when it cannot be
 * told.  *FILE lives until dap_vars_forget(). */
int dap_vars_site(struct dap_vars *v, const char **file, int *line);
extern const struct dap_request dap_vars_requests[];

/* dap-term.c */
/* Ask the client to run the program's terminal (runInTerminal), of KIND
 * ("integrated" or "external"): 0 when asked, -1 with *cause; DONE is
 * called once the terminal is there (its path) or could not be had
 * (NULL, with why). */
int dap_term_ask(struct dap *d, const char *kind, const char *title,
                 const char *cwd,
                 void (*done)(struct dap *d, const char *tty,
                              const char *why),
                 char **cause);
/* The client answered our request SEQ: whether it was runInTerminal's. */
int dap_term_answer(struct dap *d, long seq, json_t *resp);
/* The milliseconds the loop may sleep for the terminal (-1: no limit);
 * gives up when it is late. */
int dap_term_timeout(struct dap *d);
void dap_term_free(struct dap *d);
/* `noosa --dap-terminal SOCKET`: the program's terminal's side. */
int dap_term_main(const char *socket_path);

#endif /* NOOSA_DAP_H */
