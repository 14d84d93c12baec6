/* SPDX-License-Identifier: MIT */
/*
 * screen.c - the screen's start and end, its loop, signals, and the
 * actions keys and commands share (running a command, quitting, a
 * breakpoint on the chosen event, opening a value, searching).  See
 * screen.h.
 *
 * Signal handlers only write the signal's number to a pipe the loop
 * reads.  Drawing happens at once after a key, else at most fps times a
 * second, however fast the program emits events.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "breaks.h"
#include "clock.h"
#include "interp.h"
#include "noosa.h"
#include "loop.h"
#include "screen.h"
#include "xmalloc.h"

/* last: it defines macros named like common words (lines, columns) */
#include <term.h>

/* The write end of the signal pipe: set once before the handlers are
 * installed, read-only after. */
static int screen_sig_fd = -1;
/* The screen whose terminal is restored at exit; set once in
 * screen_main(). */
static struct screen *screen_at_exit;

static void screen_signal(int sig)
{
    int saved = errno;
    unsigned char c = (unsigned char)sig;

    if (write(screen_sig_fd, &c, 1) < 0) {
        /* the pipe is full: the loop has plenty to read already */
    }
    errno = saved;
}

/* At exit (Tcl's exit, a fatal error): give the terminal back. */
static void screen_restore(void)
{
    if (screen_at_exit != NULL && screen_at_exit->active) {
        screen_at_exit->active = 0;
        endwin();
    }
}

void screen_message(struct screen *s, int error, const char *fmt, ...)
{
    va_list ap;

    free(s->message);
    va_start(ap, fmt);
    s->message = xvasprintf(fmt, ap);
    va_end(ap);
    s->message_error = error;
    s->dirty = 1;
}

/* interp_confirm()'s question, asked on the bottom line. */
static void confirm(void *arg, const char *question, const char *script)
{
    struct screen *s = arg;

    free(s->ask_script);
    s->ask_script = xstrdup(script);
    screen_ask(s, SCREEN_ASK_CONFIRM, "%s (y or n)", question);
}

void screen_confirm_init(struct screen *s)
{
    s->in->confirm = confirm;
    s->in->confirm_arg = s;
}

void screen_ask(struct screen *s, enum screen_ask what, const char *fmt, ...)
{
    va_list ap;

    free(s->ask_text);
    va_start(ap, fmt);
    s->ask_text = xvasprintf(fmt, ap);
    va_end(ap);
    s->ask = what;
    s->dirty = 1;
}

/* The optional windows: `screen window NAME` offers them in this order. */
const struct screen_window_ops *const screen_windows[] = {
    &screen_window_handlers, &screen_window_breaks, &screen_window_help,
    &screen_window_profile, &screen_window_questions, &screen_window_display,
    NULL};

const struct screen_window_ops *screen_window_find(const char *name)
{
    size_t i;

    for (i = 0; screen_windows[i] != NULL; i++) {
        if (strcmp(screen_windows[i]->name, name) == 0)
            return screen_windows[i];
    }
    return NULL;
}

void *screen_window_state(struct screen *s, const struct screen_window_ops *w)
{
    size_t i;

    for (i = 0; screen_windows[i] != NULL; i++) {
        if (screen_windows[i] == w)
            return s->window_state[i];
    }
    return NULL;
}

/* Make each window's state. */
static void windows_create(struct screen *s)
{
    size_t i, n;

    for (n = 0; screen_windows[n] != NULL; n++)
        ;
    s->window_state = xcalloc(n, sizeof *s->window_state);
    for (i = 0; i < n; i++)
        s->window_state[i] = screen_windows[i]->create(s);
}

static void windows_free(struct screen *s)
{
    size_t i;

    if (s->window_state == NULL)
        return;
    for (i = 0; screen_windows[i] != NULL; i++)
        screen_windows[i]->free(s->window_state[i]);
    free(s->window_state);
    s->window_state = NULL;
}

void screen_relayout(struct screen *s)
{
    ui_layout_compute(&s->lay, LINES, COLS,
                      s->window == NULL   ? UI_LAYOUT_NO_WINDOW
                      : s->window->full ? UI_LAYOUT_WINDOW_FULL
                                        : UI_LAYOUT_WINDOW,
                      s->output_rows);
    ui_tview_resize(&s->tv, s->lay.transcript.h,
                    s->lay.ok ? s->lay.transcript.w : COLS);
    if (s->lay.ok && s->lay.output.h > 0) {
        /* the program's terminal has the pane's size: the kernel sends
         * its foreground process group SIGWINCH */
        if (s->out != NULL)
            ui_term_resize(s->out, s->lay.output.h, s->lay.output.w);
        screen_pty_resize(s, s->lay.output.h, s->lay.output.w);
    }
    if (!ui_layout_has(&s->lay, s->focus))
        s->focus = UI_PANE_COMMAND;
    s->dirty = 1;
}

void screen_set_focus(struct screen *s, enum ui_pane pane)
{
    if (ui_layout_has(&s->lay, pane))
        s->focus = pane;
    s->dirty = 1;
}

void screen_open_window(struct screen *s,
                        const struct screen_window_ops *window)
{
    if (window != NULL && s->window == window && s->focus == UI_PANE_WINDOW)
        window = NULL;
    /* the inline editor lives in the handlers window */
    if (s->edit != NULL && window != &screen_window_handlers)
        screen_edit_close(s);
    s->window = window;
    /* the displays are in their window while it is open, else in the
     * transcript at each stop */
    s->in->display_window = window == &screen_window_display;
    if (window != NULL && window->open != NULL)
        window->open(s, screen_window_state(s, window));
    screen_relayout(s);
    s->focus = window == NULL ? UI_PANE_COMMAND : UI_PANE_WINDOW;
}

/* After a command wrote from line FROM on: show its output, and act on
 * a quit it asked for. */
static void after_command(struct screen *s, uint64_t from)
{
    struct interp *in = s->in;

    ui_tview_show_output(&s->tv, from);
    if (in->noosa->quit) {
        in->noosa->quit = 0;
        screen_request_quit(s, in->noosa->quit_status, 0);
    }
    if (s->window != NULL && s->window->command_done != NULL)
        s->window->command_done(s, screen_window_state(s, s->window));
    if (in->display_last != s->displays_seen) {
        /* a display was added: its window shows it, the focus stays */
        s->displays_seen = in->display_last;
        if (s->window != &screen_window_display) {
            screen_open_window(s, &screen_window_display);
            s->focus = UI_PANE_COMMAND;
        }
    }
    s->dirty = 1;
}

/* Start a line unless the transcript is at the start of one. */
static void fresh_line(struct screen *s)
{
    if (transcript_partial(s->in->transcript))
        interp_say(s->in, "\n");
}

/* Echo SCRIPT in the transcript as typed (plain text: no values). */
static void echo_command(struct screen *s, const char *script)
{
    const char *p = script, *nl;
    int first = 1;

    fresh_line(s);
    do {
        char *line;

        nl = strchr(p, '\n');
        line = xasprintf("%s%.*s\n", first ? "(noosa) " : "> ",
                         nl != NULL ? (int)(nl - p) : (int)strlen(p), p);
        transcript_append_plain(s->in->transcript, line, strlen(line));
        free(line);
        first = 0;
        p = nl != NULL ? nl + 1 : NULL;
    } while (p != NULL && *p != '\0');
}

void screen_command(struct screen *s, const char *script, int show)
{
    uint64_t from;

    fresh_line(s);
    from = transcript_end(s->in->transcript);
    if (show)
        echo_command(s, script);
    interp_script(s->in, script, NULL, 1);
    after_command(s, from);
}

int screen_commandv(struct screen *s, int argc, const char *const *argv,
                    int quiet)
{
    struct interp *in = s->in;
    char *cmd = Tcl_Merge(argc, argv);
    uint64_t from;
    int rc = 0;

    if (!quiet) {
        int errors = in->noosa->sink.failed;

        screen_command(s, cmd, 1);
        Tcl_Free(cmd);
        return in->noosa->sink.failed == errors ? 0 : -1;
    }
    fresh_line(s);
    from = transcript_end(in->transcript);
    echo_command(s, cmd);
    if (Tcl_EvalEx(in->tcl, cmd, -1, TCL_EVAL_GLOBAL) != TCL_OK) {
        interp_error(in, "%s", Tcl_GetStringResult(in->tcl));
        rc = -1;
    }
    Tcl_ResetResult(in->tcl);
    dispatch_flush(in->dispatch);
    after_command(s, from);
    Tcl_Free(cmd);
    return rc;
}

void screen_request_quit(struct screen *s, int status, int force)
{
    s->quit_status = status;
    if (force || session_state(s->in->session) == SESSION_IDLE) {
        s->quit = 1;
        return;
    }
    /* what quitting does to it: a program attached to is let go */
    screen_ask(s, SCREEN_ASK_QUIT, "The program (pid %d) is %s: %s and "
               "quit? (y or n)", (int)session_pid(s->in->session),
               session_state(s->in->session) == SESSION_STOPPED ? "stopped"
                                                                : "running",
               session_attached(s->in->session) ? "let it go on unmonitored"
                                                : "kill it");
}

void screen_interrupt(struct screen *s)
{
    switch (session_state(s->in->session)) {
    case SESSION_RUNNING:
        screen_command(s, "::noosa::cmd::stop", 0);
        break;
    case SESSION_STOPPED:
        screen_message(s, 0, "The program is stopped: F5 continues it, "
                       "F9 kills it.");
        break;
    case SESSION_IDLE:
        screen_rl_clear(s);
        break;
    }
}

const char *screen_selected_event(struct screen *s)
{
    const char *stopped, *chosen = screen_handlers_event(s);

    if (s->window == &screen_window_handlers && chosen != NULL)
        return chosen;
    stopped = Tcl_GetVar2(s->in->tcl, "ev", "n_ename", TCL_GLOBAL_ONLY);
    return stopped != NULL ? stopped : chosen;
}

void screen_toggle_break(struct screen *s, const char *event)
{
    struct breaks_info info;
    Tcl_DString cmd;
    unsigned int i;
    int any = 0;

    if (event == NULL) {
        screen_message(s, 1, "No event chosen: choose one in the handlers "
                       "window (F2), or stop at one.");
        return;
    }
    Tcl_DStringInit(&cmd);
    Tcl_DStringAppendElement(&cmd, "delete");
    for (i = 0; breaks_get(s->in->breaks, i, &info); i++) {
        if (strcmp(info.event, event) == 0) {
            char id[16];

            snprintf(id, sizeof id, "%d", info.id);
            Tcl_DStringAppendElement(&cmd, id);
            any = 1;
        }
    }
    if (!any) {
        Tcl_DStringSetLength(&cmd, 0);
        Tcl_DStringAppendElement(&cmd, "break");
        Tcl_DStringAppendElement(&cmd, event);
    }
    screen_command(s, Tcl_DStringValue(&cmd), 1);
    Tcl_DStringFree(&cmd);
}

void screen_open_value(struct screen *s, uint64_t id)
{
    char cmd[48];

    if (id == 0) {
        const struct tr_value *v = ui_tview_selection(&s->tv);

        if (v == NULL) {
            screen_message(s, 1, "No value selected: Tab selects one.");
            return;
        }
        id = v->id;
    }
    snprintf(cmd, sizeof cmd, "open %llu", (unsigned long long)id);
    screen_command(s, cmd, 1);
}

/* Say how a search went: RC from ui_tview_search*. */
static void searched(struct screen *s, int rc, char *cause)
{
    if (rc < 0) {
        screen_message(s, 1, "%s", cause != NULL ? cause : "search failed");
        free(cause);
    } else if (rc == 0) {
        screen_message(s, 1, "Not found: %s", s->tv.pattern);
    } else {
        if (s->tv.wrapped)
            screen_message(s, 0, "Search wrapped round.");
        if (ui_layout_has(&s->lay, UI_PANE_TRANSCRIPT))
            s->focus = UI_PANE_TRANSCRIPT;
    }
    s->dirty = 1;
}

void screen_search(struct screen *s, const char *pattern, int flags)
{
    char *cause = NULL;

    searched(s, ui_tview_search(&s->tv, pattern, flags, &cause), cause);
}

void screen_search_next(struct screen *s, int reverse)
{
    char *cause = NULL;

    searched(s, ui_tview_search_next(&s->tv, reverse, &cause), cause);
}

/* A line read for WHAT (NULL: end of input). */
void screen_line(struct screen *s, enum screen_prompt what, const char *line)
{
    char *cmd;

    switch (what) {
    case SCREEN_PROMPT_COMMAND:
        if (line == NULL) {
            if (Tcl_DStringLength(&s->pending) == 0)
                screen_request_quit(s, 0, 0);
            return;
        }
        if (Tcl_DStringLength(&s->pending) > 0)
            Tcl_DStringAppend(&s->pending, "\n", 1);
        Tcl_DStringAppend(&s->pending, line, -1);
        if (!Tcl_CommandComplete(Tcl_DStringValue(&s->pending))) {
            screen_rl_continue(s, 1);
            return;
        }
        cmd = xstrdup(Tcl_DStringValue(&s->pending));
        Tcl_DStringSetLength(&s->pending, 0);
        screen_rl_continue(s, 0);
        if (cmd[strspn(cmd, " \t\n")] != '\0') {
            screen_rl_history_add(s, cmd);
            s->in->typed = 1; /* (it may ask, interp_confirm) */
            screen_command(s, cmd, 1);
            s->in->typed = 0;
        }
        free(cmd);
        return;
    case SCREEN_PROMPT_SEARCH:
    case SCREEN_PROMPT_SEARCH_BACK:
        if (line != NULL && *line != '\0')
            screen_search(s, line,
                          ui_tview_smartcase(line) |
                              (what == SCREEN_PROMPT_SEARCH_BACK
                                   ? TR_BACKWARD
                                   : 0));
        else if (s->tv.pattern != NULL)
            screen_search_next(s, what == SCREEN_PROMPT_SEARCH_BACK);
        return;
    case SCREEN_PROMPT_BREAK:
        if (line != NULL && line[strspn(line, " \t")] != '\0') {
            cmd = xasprintf("break %s", line);
            screen_command(s, cmd, 1);
            free(cmd);
            screen_breaks_added(s);
        }
        return;
    case SCREEN_PROMPT_DISPLAY:
        if (line != NULL && line[strspn(line, " \t")] != '\0') {
            cmd = xasprintf("display %s", line);
            screen_command(s, cmd, 1);
            free(cmd);
        }
        return;
    case SCREEN_PROMPT_NEW_HANDLER:
    case SCREEN_PROMPT_RENAME:
    case SCREEN_PROMPT_SAVE:
    case SCREEN_PROMPT_LOAD:
        if (line != NULL && line[strspn(line, " \t")] != '\0')
            screen_handlers_answer(s, what, line);
        return;
    }
}

static void resize(struct screen *s)
{
    struct winsize ws;

    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
        ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
    screen_relayout(s);
    clearok(curscr, TRUE);
    s->keyed = 1;
}

static void on_signals(int fd, short revents, void *arg)
{
    struct screen *s = arg;
    unsigned char sigs[64];
    ssize_t n, i;
    int winch = 0;

    (void)revents;
    while ((n = read(fd, sigs, sizeof sigs)) > 0) {
        for (i = 0; i < n; i++) {
            switch (sigs[i]) {
            case SIGWINCH:
                winch = 1;
                break;
            case SIGINT:
                screen_interrupt(s);
                break;
            case SIGHUP:
                s->active = 0; /* the terminal is gone */
                /* fall through */
            case SIGTERM:
                screen_request_quit(s, 128 + sigs[i], 1);
                break;
            default:
                break;
            }
        }
    }
    if (winch && s->active)
        resize(s);
}

static void transcript_changed(uint64_t first, uint64_t last, void *arg)
{
    struct screen *s = arg;

    (void)first;
    (void)last;
    s->dirty = 1;
}

static uint64_t frame_ns(const struct screen *s)
{
    return 1000000000u / (s->fps > 0 ? s->fps : SCREEN_FPS);
}

/* Sample the events per second every half second. */
static void sample_rate(struct screen *s, uint64_t now)
{
    uint64_t seq = s->in->noosa->item_seq;

    if (now - s->rate_ns < 500000000u)
        return;
    if (s->rate_ns != 0 && seq >= s->rate_seq)
        s->rate = (double)(seq - s->rate_seq) * 1e9 /
                  (double)(now - s->rate_ns);
    s->rate_ns = now;
    s->rate_seq = seq;
    s->dirty = 1;
}

/* The loop's hook: how long it may sleep before the next drawing. */
static int prepare(void *arg)
{
    struct screen *s = arg;
    uint64_t now = clock_monotonic_ns(), frame = frame_ns(s), wait;
    int t = -1;

    if (s->dirty) {
        wait = now - s->last_draw_ns >= frame ? 0
                                              : frame - (now - s->last_draw_ns);
        t = (int)((wait + 999999) / 1000000);
    }
    if (session_state(s->in->session) == SESSION_RUNNING) {
        /* the events per second go on changing */
        uint64_t next = s->rate_ns + 500000000u;
        int r = next > now ? (int)((next - now + 999999) / 1000000) : 0;

        if (t < 0 || r < t)
            t = r;
    }
    return t;
}

static void maybe_draw(struct screen *s)
{
    uint64_t now = clock_monotonic_ns();

    if (session_state(s->in->session) == SESSION_RUNNING || s->rate != 0)
        sample_rate(s, now);
    if (session_state(s->in->session) != SESSION_RUNNING &&
        s->rate != 0 && now - s->rate_ns >= 500000000u) {
        s->rate = 0;
        s->dirty = 1;
    }
    if (!s->dirty || !s->active)
        return;
    if (!s->keyed && now - s->last_draw_ns < frame_ns(s))
        return;
    /* what the program wrote before the change about to be drawn (its
     * exit, a stop) shows in the same frame */
    screen_pty_read(s);
    screen_draw(s);
    s->draws++;
    s->last_draw_ns = now;
    s->dirty = 0;
    s->keyed = 0;
}

static int install_signals(struct screen *s, char **cause)
{
    static const int sigs[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    size_t i;

    if (pipe2(s->sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        xcause(cause, "pipe: %s", strerror(errno));
        return -1;
    }
    screen_sig_fd = s->sig_pipe[1];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = screen_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    return 0;
}

static void restore_signals(void)
{
    signal(SIGWINCH, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
}

/* Start curses on the terminal; 0 when it cannot be used. */
/* Start curses on the terminal OUT, IN; 0 when it cannot be used. */
static int start_curses(struct screen *s, FILE *out, FILE *in)
{
    SCREEN *sc;
    int err = 0;

    /* ask terminfo first: newterm() would leave its start behind */
    if (setupterm(NULL, fileno(out), &err) != OK)
        return 0;
    del_curterm(set_curterm(NULL));
    sc = newterm(NULL, out, in);
    if (sc == NULL)
        return 0;
    set_term(sc);
    s->term = sc;
    s->active = 1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    screen_draw_init(s);
    if (s->mouse) {
        mouseinterval(0);
        mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                      | BUTTON5_PRESSED
#endif
                  ,
                  NULL);
    }
    return 1;
}

/* Run the -x files and -e commands given on the command line. */
static void run_scripts(struct screen *s)
{
    const struct noosa_opts *o = s->opts;
    int i;

    for (i = 0; i < o->nscripts && !s->quit; i++) {
        uint64_t from;

        fresh_line(s);
        from = transcript_end(s->in->transcript);
        if (o->scripts[i].is_file) {
            interp_script_file(s->in, o->scripts[i].text);
            after_command(s, from);
        } else {
            screen_command(s, o->scripts[i].text, 1);
        }
    }
}

struct screen *screen_create(const struct noosa_opts *o, FILE *out,
                             FILE *in, int *no_terminal, char **cause)
{
    static int registered;
    struct screen *s = xcalloc(1, sizeof *s);
    struct noosa_opts nopts = *o;
    struct ui_tview_src src;
    const char *term = getenv("TERM");

    *no_terminal = 1;
    s->opts = o;
    s->pty_master = s->pty_slave = -1;
    s->sig_pipe[0] = s->sig_pipe[1] = -1;
    s->fps = SCREEN_FPS;
    s->focus = UI_PANE_COMMAND;
    s->mouse = getenv("NOOSA_NO_MOUSE") == NULL;
    Tcl_DStringInit(&s->pending);
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");

    if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0) {
        xcause(cause, "the terminal (TERM=%s) cannot show the screen",
               term != NULL ? term : "");
        goto fail;
    }
    if (install_signals(s, cause) != 0 || screen_pty_open(s, cause) != 0)
        goto fail;
    if (!start_curses(s, out, in)) {
        xcause(cause, "cannot use the terminal (TERM=%s)", term);
        goto fail;
    }
    screen_at_exit = s;
    if (!registered) {
        atexit(screen_restore);
        registered = 1;
    }

    *no_terminal = 0;
    s->loop = loop_create();
    nopts.batch = 0;
    nopts.session.fd_in = nopts.session.fd_out = nopts.session.fd_err =
        s->pty_slave;
    s->noosa = noosa_create(s->loop, &nopts);
    s->in = interp_create(s->noosa, &nopts, screen_cmd_register, cause);
    if (s->in == NULL)
        goto fail;
    ui_tview_src_transcript(&src, s->in->transcript);
    ui_tview_init(&s->tv, &src, s->in->transcript);
    s->out = ui_term_create(LINES > 0 ? LINES : 24, COLS > 0 ? COLS : 80,
                            SCREEN_OUTPUT_LINES);
    transcript_set_changed(s->in->transcript, transcript_changed, s);
    windows_create(s);
    screen_cmd_init(s);
    screen_confirm_init(s);
    screen_rl_init(s);
    screen_relayout(s);
    return s;

fail:
    screen_free(s);
    return NULL;
}

int screen_load(struct screen *s, char *const *argv, char **cause)
{
    int rc;

    /* the describe pass blocks: say what is going on meanwhile */
    screen_message(s, 0, "Reading the program's interface...");
    screen_draw(s);
    rc = interp_load(s->in, argv, cause);
    free(s->message);
    s->message = NULL;
    return rc;
}

void screen_run(struct screen *s)
{
    loop_add(s->loop, STDIN_FILENO, POLLIN, screen_keys_read, s);
    loop_add(s->loop, s->sig_pipe[0], POLLIN, on_signals, s);
    screen_pty_watch(s);
    loop_add_hook(s->loop, prepare, NULL, s);
    s->dirty = s->keyed = 1;
    run_scripts(s);
    while (!s->quit) {
        maybe_draw(s);
        loop_once(s->loop, -1);
    }
    if (session_state(s->in->session) != SESSION_IDLE)
        session_kill(s->in->session, NULL);
    loop_remove_hook(s->loop, s);
}

int screen_free(struct screen *s)
{
    int rc = s->quit_status;

    screen_edit_close(s);
    screen_rl_finish(s);
    windows_free(s);
    if (s->active)
        screen_restore();
    if (s->term != NULL)
        delscreen(s->term);
    screen_at_exit = NULL;
    /* the program dies with its session */
    interp_free(s->in);
    noosa_free(s->noosa);
    free(s->window_names);
    ui_tview_free(&s->tv);
    ui_term_free(s->out);
    screen_pty_close(s);
    loop_free(s->loop);
    restore_signals();
    if (s->sig_pipe[0] >= 0) {
        close(s->sig_pipe[0]);
        close(s->sig_pipe[1]);
    }
    screen_sig_fd = -1;
    free(s->message);
    free(s->ask_text);
    free(s->ask_script);
    Tcl_DStringFree(&s->pending);
    free(s);
    return rc;
}

int screen_main(const struct noosa_opts *o)
{
    struct screen *s;
    char *cause = NULL;
    int no_terminal, rc;

    s = screen_create(o, stdout, stdin, &no_terminal, &cause);
    if (s == NULL) {
        if (no_terminal) {
            fprintf(stderr, "noosa: %s: running in batch mode\n", cause);
            free(cause);
            return SCREEN_NO_TERMINAL;
        }
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        return 1;
    }
    if (o->attach_pid != 0 ? interp_attach(s->in, o->attach_pid, &cause) != 0
        : o->argv != NULL && o->argv[0] != NULL &&
              screen_load(s, o->argv, &cause) != 0) {
        screen_free(s);
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        return 1;
    }
    screen_run(s);
    rc = screen_free(s);
    return rc;
}
