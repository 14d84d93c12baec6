/* SPDX-License-Identifier: MIT */
/*
 * screen-edit.c - editing a handler's code: in the user's editor
 * ($VISUAL, else $EDITOR) on a temporary file, with curses suspended and
 * the editor in the terminal's foreground as its own process group (so
 * that ^C or ^Z in it reach neither noosa nor the program); or, without
 * either variable or when asked, in the inline editor (ui-edit.h) drawn
 * in the window.  Either way the new code is set with
 * `handler body EVENT NAME CODE`, echoed in the transcript.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interp.h"
#include "screen.h"
#include "ui-text.h"
#include "xmalloc.h"

/* The code of handler NAME of EVENT (caller frees), or NULL with a
 * message. */
static char *body_of(struct screen *s, const char *event, const char *name)
{
    Tcl_Interp *tcl = s->in->tcl;
    Tcl_Obj *w[4];
    char *body = NULL;
    int i;

    w[0] = Tcl_NewStringObj("::noosa::cmd::handler", -1);
    w[1] = Tcl_NewStringObj("body", -1);
    w[2] = Tcl_NewStringObj(event, -1);
    w[3] = Tcl_NewStringObj(name, -1);
    for (i = 0; i < 4; i++)
        Tcl_IncrRefCount(w[i]);
    if (Tcl_EvalObjv(tcl, 4, w, TCL_EVAL_GLOBAL) == TCL_OK)
        body = xstrdup(Tcl_GetStringResult(tcl));
    else
        screen_message(s, 1, "%s", Tcl_GetStringResult(tcl));
    for (i = 0; i < 4; i++)
        Tcl_DecrRefCount(w[i]);
    Tcl_ResetResult(tcl);
    return body;
}

/* Set the code of handler NAME of EVENT to BODY, unless it is OLD. */
static void set_body(struct screen *s, const char *event, const char *name,
                     const char *old, const char *body)
{
    if (strcmp(old, body) == 0) {
        screen_message(s, 0, "The code of %s is unchanged.", name);
        return;
    }
    if (screen_commandv(s, 5,
                        (const char *const[]){"handler", "body", event, name,
                                              body},
                        1) == 0)
        screen_message(s, 0, "The code of %s for %s is changed.", name,
                       event);
}

/* Read all of PATH (caller frees), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *data = NULL;
    size_t n = 0, cap = 0, got;

    if (f == NULL)
        return NULL;
    do {
        if (cap - n < 4096) {
            cap = cap == 0 ? 8192 : cap * 2;
            data = xrealloc(data, cap);
        }
        got = fread(data + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    fclose(f);
    data[n] = '\0';
    return data;
}

/* Run EDITOR on PATH in the foreground of the terminal; returns its wait
 * status, or -1. */
static int run_editor(const char *editor, const char *path)
{
    int fg = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
    void (*ttou)(int);
    pid_t pid;
    int status;

    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGWINCH, SIG_DFL);
        signal(SIGCHLD, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        setpgid(0, 0);
        if (fg) {
            signal(SIGTTOU, SIG_IGN);
            tcsetpgrp(STDIN_FILENO, getpid());
            signal(SIGTTOU, SIG_DFL);
        }
        /* the editor may come with arguments: "emacs -nw" */
        execl("/bin/sh", "sh", "-c", "exec $0 \"$1\"", editor, path,
              (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    ttou = signal(SIGTTOU, SIG_IGN);
    if (fg)
        tcsetpgrp(STDIN_FILENO, pid);
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            status = -1;
            break;
        }
    }
    if (fg)
        tcsetpgrp(STDIN_FILENO, getpgrp());
    signal(SIGTTOU, ttou);
    return status;
}

static void external(struct screen *s, const char *editor, const char *event,
                     const char *name, const char *body)
{
    const char *tmp = getenv("TMPDIR");
    char *path, *text;
    size_t len;
    int fd, status;

    path = xasprintf("%s/noosa-handler-XXXXXX.tcl",
                     tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    fd = mkstemps(path, 4);
    if (fd < 0) {
        screen_message(s, 1, "Cannot make a file to edit in: %s",
                       strerror(errno));
        free(path);
        return;
    }
    len = strlen(body);
    if (write(fd, body, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
        screen_message(s, 1, "Cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(path);
        free(path);
        return;
    }
    close(fd);

    def_prog_mode();
    endwin();
    status = run_editor(editor, path);
    reset_prog_mode();
    clearok(curscr, TRUE);
    s->dirty = s->keyed = 1;

    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        screen_message(s, 1, "The editor (%s) failed: the code of %s is "
                       "unchanged.", editor, name);
    } else if ((text = slurp(path)) == NULL) {
        screen_message(s, 1, "Cannot read %s back: %s", path,
                       strerror(errno));
    } else {
        len = strlen(text);
        if (len > 0 && text[len - 1] == '\n')
            text[len - 1] = '\0'; /* the editor's final newline */
        set_body(s, event, name, body, text);
        free(text);
    }
    unlink(path);
    free(path);
}

void screen_edit_close(struct screen *s)
{
    ui_edit_free(s->edit);
    s->edit = NULL;
    free(s->edit_event);
    free(s->edit_name);
    s->edit_event = s->edit_name = NULL;
    s->dirty = 1;
}

void screen_edit_handler(struct screen *s, const char *event,
                         const char *name, int inline_editor)
{
    const char *editor = getenv("VISUAL");
    char *body = body_of(s, event, name);

    if (body == NULL)
        return;
    if (editor == NULL || *editor == '\0')
        editor = getenv("EDITOR");
    if (!inline_editor && editor != NULL && *editor != '\0') {
        external(s, editor, event, name, body);
        free(body);
        return;
    }
    screen_edit_close(s);
    s->edit = ui_edit_create(body);
    s->edit_event = xstrdup(event);
    s->edit_name = xstrdup(name);
    free(body);
    if (s->window != &screen_window_handlers) {
        s->window = &screen_window_handlers;
        screen_relayout(s);
    }
    s->focus = UI_PANE_WINDOW;
}

static void save(struct screen *s)
{
    char *text = ui_edit_text(s->edit);
    char *old = body_of(s, s->edit_event, s->edit_name);
    char *event = xstrdup(s->edit_event), *name = xstrdup(s->edit_name);

    screen_edit_close(s);
    if (old != NULL)
        set_body(s, event, name, old, text);
    free(old);
    free(text);
    free(event);
    free(name);
}

void screen_edit_key(struct screen *s, const struct ui_key *k)
{
    struct ui_edit *e = s->edit;
    int page = s->lay.window.h > 1 ? s->lay.window.h - 1 : 1;

    if (k->meta)
        return;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_edit_up(e, 1);
            break;
        case KEY_DOWN:
            ui_edit_down(e, 1);
            break;
        case KEY_LEFT:
            ui_edit_left(e);
            break;
        case KEY_RIGHT:
            ui_edit_right(e);
            break;
        case KEY_HOME:
            ui_edit_home(e);
            break;
        case KEY_END:
            ui_edit_end(e);
            break;
        case KEY_PPAGE:
            ui_edit_up(e, (size_t)page);
            break;
        case KEY_NPAGE:
            ui_edit_down(e, (size_t)page);
            break;
        case KEY_DC:
            ui_edit_delete(e);
            break;
        case KEY_BACKSPACE:
            ui_edit_backspace(e);
            break;
        case KEY_ENTER:
            ui_edit_newline(e);
            break;
        default:
            break;
        }
        return;
    }
    switch (k->code) {
    case 27: /* Esc */
    case 7:  /* C-g */
        screen_edit_close(s);
        screen_message(s, 0, "Editing cancelled: the code is unchanged.");
        return;
    case 19: /* C-s */
    case 24: /* C-x */
        save(s);
        return;
    case 1: /* C-a */
        ui_edit_home(e);
        return;
    case 5: /* C-e */
        ui_edit_end(e);
        return;
    case 11: /* C-k */
        ui_edit_kill_line(e);
        return;
    case 127:
    case 8:
        ui_edit_backspace(e);
        return;
    case 4: /* C-d */
        ui_edit_delete(e);
        return;
    case '\r':
    case '\n':
        ui_edit_newline(e);
        return;
    case '\t':
        ui_edit_insert(e, "    ", 4);
        return;
    default:
        break;
    }
    if (ui_keys_printable(k)) {
        char buf[8];
        size_t n = ui_keys_bytes(k, buf, sizeof buf);

        ui_edit_insert(e, buf, n);
    }
}

void screen_edit_draw(struct screen *s)
{
    const struct ui_rect *r = &s->lay.window;
    struct ui_edit *e = s->edit;
    char *title;
    size_t i;
    int cy = -1, cx = 0;

    title = xasprintf(" Editing %s of %s%s: C-s saves, Esc cancels ",
                      s->edit_name, s->edit_event,
                      e->modified ? " (changed)" : "");
    screen_draw_title(s, &s->lay.window_title, title, 1);
    free(title);
    ui_edit_scroll(e, r->h);
    for (i = e->top; i < e->n && i < e->top + (size_t)r->h; i++) {
        const char *line = e->lines[i];
        size_t len = strlen(line), start = 0;
        int y = r->y + (int)(i - e->top);

        if (i == e->cy) {
            int col = ui_text_columns(line, e->cx);

            /* scroll long lines sideways to keep the cursor in view */
            if (col >= r->w - 1)
                start = ui_text_offset_at(line, 0, len, col - r->w + 2);
            cy = y;
            cx = ui_text_columns(line + start, e->cx - start);
        }
        screen_draw_text(y, r->x, r->w, line + start, len - start, A_NORMAL);
    }
    if (cy >= 0) {
        curs_set(1);
        move(cy, r->x + cx);
    }
}
