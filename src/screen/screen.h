/* SPDX-License-Identifier: MIT */
/*
 * screen.h - the curses front end: `noosa ./prog args` with a terminal.
 *
 * The screen is a view of the same session, interpreter and transcript
 * that batch mode drives: everything it does is a command that could be
 * typed (what a key or a window does is echoed as that command).  It runs
 * one poll() loop (loop.h) over the terminal, the session's descriptors,
 * the program's pty and a self-pipe for signals, and draws at a bounded
 * rate, never once per event.
 *
 * The family: screen.c (start, the loop, actions), screen-keys.c (what
 * keys and the mouse do), screen-draw.c
 * (curses drawing of the models in ui-*.h), screen-rl.c (readline through
 * its callback interface: history, completion), screen-pty.c (the
 * program's pty, fed to the terminal emulator ui-term.h that the output
 * pane draws), screen-handlers.c, screen-breaks.c, screen-help.c,
 * screen-profile.c (the windows), screen-edit.c (editing a handler's
 * code), screen-cmd.c (the `screen` Tcl command).  The models they draw
 * and drive (layout, views, the program's terminal, lists, key names,
 * the inline editor's text) are in ui-*.c and know nothing of curses.
 *
 * The optional windows are reached only through their operations
 * (struct screen_window_ops) in the table screen_windows[] (screen.c):
 * drawing, keys, the mouse, opening and `screen window NAME` look the
 * window up there, and each window keeps its own state, made by its
 * create operation, one per screen.  To add a window, write
 * screen-NAME.c defining `const struct screen_window_ops
 * screen_window_NAME` (declare it below) and add it to the table; list
 * the file in local.mk and give its title to tests/screen/windows.sh
 * (src/screen/README).
 */
#ifndef NOOSA_SCREEN_H
#define NOOSA_SCREEN_H

#include <stdint.h>
#include <stdio.h>
#include <tcl.h>

#include "noosa.h"
#include "ui-edit.h"
#include "ui-keys.h"
#include "ui-layout.h"
#include "ui-list.h"
#include "ui-term.h"
#include "ui-tview.h"

/* screen_main() could not use the terminal: run batch mode instead. */
#define SCREEN_NO_TERMINAL (-1)

/* Lines of the program's terminal kept in the output pane's scrollback
 * (those that scrolled off its top). */
#define SCREEN_OUTPUT_LINES 10000
/* The key that leaves the program's terminal for the command line (it is
 * never sent to the program): C-]. */
#define SCREEN_OUTPUT_LEAVE 0x1d
#define SCREEN_OUTPUT_LEAVE_NAME "C-]"

/* Redraws a second at most, by default. */
#define SCREEN_FPS 30

struct screen;

/* What an optional window does.  W is the window's state, made by
 * create for each screen and kept while the screen lives (open or not);
 * the screen owns it and frees it with free.  Hooks may be NULL where
 * said. */
struct screen_window_ops {
    const char *name; /* as `screen window NAME` names it */
    int full;         /* takes the transcript's room, not a share of it */
    /* the bottom line's key hints while it has the focus (NULL: the
     * scrolling keys) */
    const char *hint;
    void *(*create)(struct screen *s);
    void (*free)(void *w);
    /* it is being opened (NULL: nothing to do) */
    void (*open)(struct screen *s, void *w);
    /* a command ran while it is open (NULL: nothing to do) */
    void (*command_done)(struct screen *s, void *w);
    /* draw its title in TITLE and itself in R */
    void (*draw)(struct screen *s, void *w, const struct ui_rect *title,
                 const struct ui_rect *r);
    /* key K with the focus on it: whether it took the key (else Esc and
     * q close it, printable keys go to the command line) */
    int (*key)(struct screen *s, void *w, const struct ui_key *k);
    /* button 1 at ROW, COL of R (NULL: only the focus moves) */
    void (*click)(struct screen *s, void *w, int row, int col);
    /* the wheel: N rows (NULL: the wheel does nothing there) */
    void (*wheel)(struct screen *s, void *w, int n);
};

/* The windows, NULL-terminated (screen.c). */
extern const struct screen_window_ops *const screen_windows[];
extern const struct screen_window_ops screen_window_handlers;
extern const struct screen_window_ops screen_window_breaks;
extern const struct screen_window_ops screen_window_display;
extern const struct screen_window_ops screen_window_help;
extern const struct screen_window_ops screen_window_profile;
extern const struct screen_window_ops screen_window_questions;

/* What the line being read on the command line is for. */
enum screen_prompt {
    SCREEN_PROMPT_COMMAND,
    SCREEN_PROMPT_SEARCH,      /* a pattern for the transcript */
    SCREEN_PROMPT_SEARCH_BACK,
    SCREEN_PROMPT_NEW_HANDLER, /* a name for a new handler */
    SCREEN_PROMPT_RENAME,      /* a new name for a handler */
    SCREEN_PROMPT_SAVE,        /* a file to save the handlers to */
    SCREEN_PROMPT_LOAD,        /* a handler file to load */
    SCREEN_PROMPT_BREAK,       /* EVENT ?if CONDITION? for a breakpoint */
    SCREEN_PROMPT_DISPLAY      /* an expression to display */
};

/* A yes-or-no question on the bottom line. */
enum screen_ask {
    SCREEN_ASK_NONE,
    SCREEN_ASK_QUIT,
    SCREEN_ASK_REMOVE_HANDLER,
    SCREEN_ASK_CONFIRM /* a command's question: ask_script on yes */
};

struct screen {
    struct interp *in;
    struct loop *loop;
    const struct noosa_opts *opts;
    struct noosa *noosa;     /* the root the Tcl layer works over */

    /* the terminal */
    void *term;       /* curses' SCREEN */
    int active;       /* curses is on */
    int color;
    int mouse;        /* mouse reports wanted */
    struct ui_layout lay;
    enum ui_pane focus;
    const struct screen_window_ops *window; /* the open one, or NULL */
    unsigned int displays_seen; /* the last display's number, when the
                                   display window last opened for one */
    void **window_state;     /* by index in screen_windows[] */
    /* "none", then the windows' names (for `screen window`); the
     * interpreter's objects may point at it, so it outlives them */
    const char **window_names;
    int output_rows;  /* asked for; 0: the layout's choice */

    /* the panes' models */
    struct ui_tview tv;      /* the transcript */
    struct ui_term *out;     /* the program's terminal */

    /* the inline editor, when open */
    struct ui_edit *edit;
    char *edit_event;
    char *edit_name;

    /* the program's terminal */
    int pty_master;
    int pty_slave;
    char *pty_pending;       /* input not yet written */
    size_t pty_npending;

    int sig_pipe[2];

    /* drawing */
    int dirty;
    int keyed;               /* a key since the last drawing: draw now */
    uint64_t last_draw_ns;
    unsigned int fps;
    uint64_t draws;
    uint64_t rate_ns;        /* events per second, sampled */
    uint64_t rate_seq;
    double rate;

    /* the command line */
    enum screen_prompt prompt;
    char *saved_line;        /* the command line while a prompt is up */
    int saved_point;
    Tcl_DString pending;     /* a command continued on the next line */
    char *history;           /* history file, or NULL */

    /* the bottom line */
    char *message;
    int message_error;
    enum screen_ask ask;
    char *ask_text;
    char *ask_script; /* SCREEN_ASK_CONFIRM's, evaluated on yes */

    int quit;
    int quit_status;
};

/* screen.c */
/* Run the screen; returns noosa's exit status, or SCREEN_NO_TERMINAL
 * (with a message on stderr) when the terminal cannot be used. */
int screen_main(const struct noosa_opts *o);
/* The steps of screen_main(), apart for the benchmarks.  Create the
 * screen on the terminal OUT, IN (the interpreter, the pty, curses):
 * NULL with *cause when it fails, *NO_TERMINAL telling whether batch
 * mode could do instead. */
struct screen *screen_create(const struct noosa_opts *o, FILE *out,
                             FILE *in, int *no_terminal, char **cause);
/* Learn the interface of the program ARGV (the describe pass). */
int screen_load(struct screen *s, char *const *argv, char **cause);
/* Run the -x and -e scripts, then the loop until quit. */
void screen_run(struct screen *s);
/* Give the terminal back and free everything (a live program is
 * killed); returns noosa's exit status. */
int screen_free(struct screen *s);
/* Evaluate SCRIPT as typed: echoed (when ECHO), its output shown. */
void screen_command(struct screen *s, const char *script, int echo);
/* Evaluate the command made of ARGC words (quoted as a Tcl list),
 * echoed; when QUIET its result is not printed. */
/* A key that moves a window's list L: Up, Down, PageUp, PageDown, Home,
 * End, k and j.  Returns 1 when K was one (and L moved), else 0. */
int screen_list_key(struct ui_list *l, const struct ui_key *k);

int screen_commandv(struct screen *s, int argc, const char *const *argv,
                    int quiet);
void screen_message(struct screen *s, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void screen_set_focus(struct screen *s, enum ui_pane pane);
/* Open WINDOW (NULL: close the open one), closing it when it is
 * already open and has the focus. */
void screen_open_window(struct screen *s,
                        const struct screen_window_ops *window);
/* The window named NAME, or NULL. */
const struct screen_window_ops *screen_window_find(const char *name);
/* The state of window W on this screen. */
void *screen_window_state(struct screen *s,
                          const struct screen_window_ops *w);
/* Lay out again after a resize or a window change. */
void screen_relayout(struct screen *s);
/* Ask to quit: at once without a live program or with FORCE, else
 * after a yes. */
void screen_request_quit(struct screen *s, int status, int force);
/* Interrupt the running program; else clear the command line. */
void screen_interrupt(struct screen *s);
/* The event chosen in the handlers window, else the one the program is
 * stopped at; NULL when neither. */
const char *screen_selected_event(struct screen *s);
/* Set or delete the breakpoints on EVENT. */
void screen_toggle_break(struct screen *s, const char *event);
/* Open the value ID (the selected one when 0). */
void screen_open_value(struct screen *s, uint64_t id);
/* Search the transcript and say what was found. */
void screen_search(struct screen *s, const char *pattern, int flags);
void screen_search_next(struct screen *s, int reverse);
void screen_ask(struct screen *s, enum screen_ask what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Be the one commands typed at the prompt ask (interp_confirm). */
void screen_confirm_init(struct screen *s);
/* Act on a line read for WHAT (NULL: end of input). */
void screen_line(struct screen *s, enum screen_prompt what, const char *line);

/* screen-keys.c */
/* What key K does. */
void screen_keys_key(struct screen *s, const struct ui_key *k);
/* The loop's callback for the terminal: read the keys there and act. */
void screen_keys_read(int fd, short revents, void *arg);

/* screen-draw.c */
void screen_draw_init(struct screen *s);
void screen_draw(struct screen *s);
/* Draw N bytes of TEXT in a row at Y, X, at most W columns, with ATTR;
 * returns the columns used. */
int screen_draw_text(int y, int x, int w, const char *text, size_t n,
                     int attr);
/* Attributes for kinds of text. */
enum screen_look {
    SCREEN_LOOK_VALUE,
    SCREEN_LOOK_SELECTED,
    SCREEN_LOOK_MATCH,
    SCREEN_LOOK_ERROR,
    SCREEN_LOOK_STOP,
    SCREEN_LOOK_ECHO,
    SCREEN_LOOK_TITLE,
    SCREEN_LOOK_TITLE_FOCUS,
    SCREEN_LOOK_STATUS,
    SCREEN_LOOK_MARK
};
int screen_look(const struct screen *s, enum screen_look look);
/* Draw a window's title row. */
void screen_draw_title(struct screen *s, const struct ui_rect *r,
                       const char *title, int focused);

/* screen-rl.c */
void screen_rl_init(struct screen *s);
void screen_rl_finish(struct screen *s);
/* Hand key K to readline. */
void screen_rl_key(struct screen *s, const struct ui_key *k);
/* Ask for a line for WHAT with PROMPT, the line starting as INITIAL. */
void screen_rl_prompt(struct screen *s, enum screen_prompt what,
                      const char *prompt, const char *initial);
/* Give up the prompt: back to the command line as it was. */
void screen_rl_cancel(struct screen *s);
/* Clear the command line (and a command being continued). */
void screen_rl_clear(struct screen *s);
/* Show the prompt for a command continued on the next line (ON), or the
 * usual one. */
void screen_rl_continue(struct screen *s, int on);
/* Add a command to the history (and its file). */
void screen_rl_history_add(struct screen *s, const char *line);
/* The prompt shown and the line being edited, with the cursor (byte). */
const char *screen_rl_prompt_text(void);
const char *screen_rl_line(int *point);
/* Whether readline is in vi command mode. */
int screen_rl_vi_command(void);
/* Set the editing mode: "emacs" or "vi"; 0 when unknown. */
int screen_rl_set_mode(const char *mode);
const char *screen_rl_mode(void);

/* screen-pty.c */
int screen_pty_open(struct screen *s, char **cause);
void screen_pty_watch(struct screen *s);
/* Take what the program wrote and the pty holds now (without waiting). */
void screen_pty_read(struct screen *s);
void screen_pty_close(struct screen *s);
void screen_pty_resize(struct screen *s, int rows, int cols);
/* Queue N bytes of input for the program. */
void screen_pty_input(struct screen *s, const char *buf, size_t n);
/* Send the program what its terminal (the model) has for it: keys,
 * answers to its questions. */
void screen_pty_flush_term(struct screen *s);
/* The program's terminal is another one (`tty`): the path, else NULL. */
const char *screen_pty_elsewhere(struct screen *s);

/* screen-handlers.c */
/* The prompt for SCREEN_PROMPT_NEW_HANDLER, _RENAME, _SAVE, _LOAD gave
 * LINE. */
void screen_handlers_answer(struct screen *s, enum screen_prompt what,
                            const char *line);
/* The event chosen in the handlers window (by name), or NULL. */
const char *screen_handlers_event(struct screen *s);
/* Remove the chosen handler (the question was answered yes). */
void screen_handlers_remove(struct screen *s);

/* screen-breaks.c */
/* A breakpoint was added: choose it (the last). */
void screen_breaks_added(struct screen *s);

/* screen-edit.c */
/* Edit the code of handler NAME of EVENT: in $VISUAL or $EDITOR unless
 * INLINE or neither is set, else in the inline editor. */
void screen_edit_handler(struct screen *s, const char *event,
                         const char *name, int inline_editor);
void screen_edit_draw(struct screen *s);
void screen_edit_key(struct screen *s, const struct ui_key *k);
void screen_edit_close(struct screen *s);

/* screen-cmd.c */
/* Register the screen's commands, bind and screen, which exist without
 * it (in batch mode screen says there is none): every front end hands
 * this to interp_create(). */
void screen_cmd_register(struct interp *in);
/* The subcommands of `screen` (for completion). */
extern const char *const screen_cmd_subs[];
/* The `screen` command and the screen's part of the Tcl library. */
void screen_cmd_init(struct screen *s);
/* The script bound to key K, or NULL. */
const char *screen_cmd_binding(struct screen *s, const struct ui_key *k);

#endif /* NOOSA_SCREEN_H */
