/* SPDX-License-Identifier: MIT */
/*
 * screen-help.c - the help window (F1): the keys as they are bound now,
 * what each pane does with keys, and the commands, from the Tcl library
 * (::noosa::screen::help_text), so that rebinding a key or defining help
 * for a new command shows here at once.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "screen.h"
#include "xmalloc.h"

/* The window's state: the text, read again at each opening, and the
 * pager's place in it. */
struct help_window {
    struct ui_list list; /* a pager: the selection is the top line */
    char **lines;
    size_t n;
};

static void help_clear(struct help_window *hw)
{
    size_t i;

    for (i = 0; i < hw->n; i++)
        free(hw->lines[i]);
    free(hw->lines);
    hw->lines = NULL;
    hw->n = 0;
}

static void *help_create(struct screen *s)
{
    (void)s;
    return xcalloc(1, sizeof(struct help_window));
}

static void help_free(void *w)
{
    help_clear(w);
    free(w);
}

static void help_open(struct screen *s, void *w)
{
    struct help_window *hw = w;
    Tcl_Interp *tcl = s->in->tcl;
    const char *text, *p, *nl;

    help_clear(hw);
    /* an error's message shows in the window: better than nothing */
    Tcl_EvalEx(tcl, "::noosa::screen::help_text", -1, TCL_EVAL_GLOBAL);
    text = Tcl_GetStringResult(tcl);
    for (p = text; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        hw->lines = xreallocarray(hw->lines, hw->n + 1, sizeof *hw->lines);
        hw->lines[hw->n++] =
            nl != NULL ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
    }
    Tcl_ResetResult(tcl);
    memset(&hw->list, 0, sizeof hw->list);
}

static void help_draw(struct screen *s, void *w, const struct ui_rect *title,
                      const struct ui_rect *r)
{
    struct help_window *hw = w;
    size_t i;

    screen_draw_title(s, title, " Help: keys and commands (Esc closes) ",
                      s->focus == UI_PANE_WINDOW);
    ui_list_set(&hw->list, hw->n, r->h);
    for (i = hw->list.top; i < hw->n && i < hw->list.top + (size_t)r->h;
         i++) {
        const char *line = hw->lines[i];
        int bold = line[0] != ' ' && line[0] != '\0';

        screen_draw_text(r->y + (int)(i - hw->list.top), r->x, r->w, line,
                         strlen(line), bold ? A_BOLD : A_NORMAL);
    }
}

static int help_key(struct screen *s, void *w, const struct ui_key *k)
{
    struct ui_list *l = &((struct help_window *)w)->list;
    long page = s->lay.window.h > 1 ? s->lay.window.h - 1 : 1;

    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_list_scroll(l, -1);
            return 1;
        case KEY_DOWN:
            ui_list_scroll(l, 1);
            return 1;
        case KEY_PPAGE:
            ui_list_scroll(l, -page);
            return 1;
        case KEY_NPAGE:
            ui_list_scroll(l, page);
            return 1;
        case KEY_HOME:
            ui_list_scroll(l, -1000000);
            return 1;
        case KEY_END:
            ui_list_scroll(l, 1000000);
            return 1;
        default:
            return 0;
        }
    }
    switch (k->code) {
    case 'k':
        ui_list_scroll(l, -1);
        return 1;
    case 'j':
    case '\r':
        ui_list_scroll(l, 1);
        return 1;
    case ' ':
        ui_list_scroll(l, page);
        return 1;
    case 'b':
        ui_list_scroll(l, -page);
        return 1;
    default:
        return 0;
    }
}

static void help_wheel(struct screen *s, void *w, int n)
{
    (void)s;
    ui_list_scroll(&((struct help_window *)w)->list, n);
}

const struct screen_window_ops screen_window_help = {
    .name = "help",
    .full = 1,
    .create = help_create,
    .free = help_free,
    .open = help_open,
    .draw = help_draw,
    .key = help_key,
    .wheel = help_wheel,
};
