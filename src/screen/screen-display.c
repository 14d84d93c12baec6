/* SPDX-License-Identifier: MIT */
/*
 * screen-display.c - the display window: the expressions of display EXPR
 * with the values they had at the last stop, evaluated again at every
 * stop (display.h); the window opens when a display is added.  While it
 * is open the displays are not repeated in the transcript.  Its actions
 * are the commands display and undisplay, echoed in the transcript.  Its
 * state is the list's scroll and choice.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "interp.h"
#include "screen.h"
#include "xmalloc.h"

struct display_window {
    struct ui_list list;
};

static void *dw_create(struct screen *s)
{
    (void)s;
    return xcalloc(1, sizeof(struct display_window));
}

static void dw_free(void *w)
{
    free(w);
}

static void dw_draw(struct screen *s, void *w, const struct ui_rect *title,
                    const struct ui_rect *r)
{
    struct ui_list *dl = &((struct display_window *)w)->list;
    int focused = s->focus == UI_PANE_WINDOW, rows = r->h;
    size_t n, i;
    const struct display *d = display_list(s->in, &n);

    screen_draw_title(s, title, " Display ", focused);
    ui_list_set(dl, n, rows > 0 ? rows : 1);
    if (n == 0) {
        const char *none = " No displays: a adds one (or type display "
                           "EXPRESSION).";

        screen_draw_text(r->y, r->x, r->w, none, strlen(none), A_DIM);
        return;
    }
    for (i = dl->top; i < n && i < dl->top + (size_t)rows; i++) {
        int a = i == dl->sel && focused ? A_REVERSE : A_NORMAL;
        char *line;

        if (d[i].text != NULL)
            line = xasprintf(" %s", d[i].text);
        else if (d[i].format != 0)
            line = xasprintf(" %u: /%c %s", d[i].num, d[i].format,
                             d[i].expr);
        else
            line = xasprintf(" %u: %s", d[i].num, d[i].expr);
        attrset((attr_t)a);
        mvhline(r->y + (int)(i - dl->top), r->x, ' ', r->w);
        attrset(A_NORMAL);
        screen_draw_text(r->y + (int)(i - dl->top), r->x, r->w, line,
                         strlen(line), a);
        free(line);
    }
}

static int dw_key(struct screen *s, void *w, const struct ui_key *k)
{
    struct ui_list *dl = &((struct display_window *)w)->list;
    size_t n;
    const struct display *d = display_list(s->in, &n);
    char cmd[64];

    ui_list_set(dl, n, dl->rows > 0 ? dl->rows : 1);
    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_list_move(dl, -1);
            return 1;
        case KEY_DOWN:
            ui_list_move(dl, 1);
            return 1;
        case KEY_PPAGE:
            ui_list_page(dl, -1);
            return 1;
        case KEY_NPAGE:
            ui_list_page(dl, 1);
            return 1;
        case KEY_DC:
            goto remove;
        default:
            return 0;
        }
    }
    switch (k->code) {
    case 'k':
        ui_list_move(dl, -1);
        return 1;
    case 'j':
        ui_list_move(dl, 1);
        return 1;
    case 'a':
        screen_rl_prompt(s, SCREEN_PROMPT_DISPLAY, "display ", "");
        return 1;
    case 'd':
    remove:
        if (dl->sel < n) {
            snprintf(cmd, sizeof cmd, "undisplay %u", d[dl->sel].num);
            screen_command(s, cmd, 1);
        }
        return 1;
    default:
        return 0;
    }
}

static void dw_click(struct screen *s, void *w, int row, int col)
{
    struct ui_list *dl = &((struct display_window *)w)->list;

    (void)s;
    (void)col;
    if (row >= 0 && dl->top + (size_t)row < dl->n)
        ui_list_select(dl, dl->top + (size_t)row);
}

static void dw_wheel(struct screen *s, void *w, int n)
{
    (void)s;
    ui_list_scroll(&((struct display_window *)w)->list, n);
}

const struct screen_window_ops screen_window_display = {
    .name = "display",
    .hint = "a add  d delete  Up Down choose  Esc close",
    .create = dw_create,
    .free = dw_free,
    .draw = dw_draw,
    .key = dw_key,
    .click = dw_click,
    .wheel = dw_wheel,
};
