/* SPDX-License-Identifier: MIT */
/*
 * screen-breaks.c - the breakpoints window: each breakpoint with its
 * number, whether it is enabled, its hits, its event and condition, and
 * where the condition runs (in the program, with its counts, or in
 * noosa).  Its
 * actions are the commands break, delete, enable and disable, echoed in
 * the transcript.  Its state is the list's scroll and choice.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "interp.h"
#include "screen.h"
#include "xmalloc.h"

/* The window's state. */
struct breaks_window {
    struct ui_list list;
};

static void *bw_create(struct screen *s)
{
    (void)s;
    return xcalloc(1, sizeof(struct breaks_window));
}

static void bw_free(void *w)
{
    free(w);
}

static void bw_draw(struct screen *s, void *w,
                        const struct ui_rect *title, const struct ui_rect *r)
{
    struct ui_list *bw = &((struct breaks_window *)w)->list;
    struct breaks_info info;
    int focused = s->focus == UI_PANE_WINDOW, rows = r->h - 1;
    unsigned int n = breaks_count(s->in->breaks);
    size_t i;
    char *line, *where;

    screen_draw_title(s, title, " Breakpoints ", focused);
    line = xasprintf(" %-4s %-4s %6s  %-24s %s", "Num", "Enb", "Hits",
                     "Event", "Condition");
    screen_draw_text(r->y, r->x, r->w, line, strlen(line), A_BOLD);
    free(line);
    ui_list_set(bw, n, rows > 0 ? rows : 1);
    if (n == 0) {
        const char *none = " No breakpoints: a adds one (or type "
                           "break EVENT ?if CONDITION?).";

        screen_draw_text(r->y + 1, r->x, r->w, none, strlen(none), A_DIM);
        return;
    }
    for (i = bw->top; i < n && i < bw->top + (size_t)rows; i++) {
        int a = A_NORMAL;

        if (!breaks_get(s->in->breaks, (unsigned int)i, &info))
            break;
        if (i == bw->sel)
            a = focused ? A_REVERSE : A_BOLD;
        where = breaks_where(s->in->breaks, (unsigned int)i);
        line = xasprintf(" %-4d %-4s %6lu  %-24s %s%s%s%s%s", info.id,
                         info.enabled ? "y" : "n", info.hits, info.event,
                         info.cond != NULL ? info.cond : "",
                         *info.counting != '\0' ? " " : "", info.counting,
                         where != NULL ? "  -- " : "",
                         where != NULL ? where : "");
        free(where);
        attrset((attr_t)a);
        mvhline(r->y + 1 + (int)(i - bw->top), r->x, ' ', r->w);
        attrset(A_NORMAL);
        screen_draw_text(r->y + 1 + (int)(i - bw->top), r->x, r->w, line,
                         strlen(line), a);
        free(line);
    }
}

/* The chosen breakpoint's number, or 0. */
static int chosen(struct screen *s, struct ui_list *bw, int *enabled)
{
    struct breaks_info info;

    ui_list_set(bw, breaks_count(s->in->breaks), bw->rows);
    if (!breaks_get(s->in->breaks, (unsigned int)bw->sel, &info))
        return 0;
    if (enabled != NULL)
        *enabled = info.enabled;
    return info.id;
}

static int bw_key(struct screen *s, void *w, const struct ui_key *k)
{
    struct ui_list *bw = &((struct breaks_window *)w)->list;
    const char *event;
    char cmd[64];
    int id, enabled = 0;

    ui_list_set(bw, breaks_count(s->in->breaks),
                bw->rows > 0 ? bw->rows : 1);
    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_list_move(bw, -1);
            return 1;
        case KEY_DOWN:
            ui_list_move(bw, 1);
            return 1;
        case KEY_PPAGE:
            ui_list_page(bw, -1);
            return 1;
        case KEY_NPAGE:
            ui_list_page(bw, 1);
            return 1;
        case KEY_HOME:
            ui_list_select(bw, 0);
            return 1;
        case KEY_END:
            ui_list_move(bw, 1000000);
            return 1;
        case KEY_DC:
            goto remove;
        case KEY_ENTER:
            goto toggle;
        default:
            return 0;
        }
    }
    switch (k->code) {
    case 'k':
        ui_list_move(bw, -1);
        return 1;
    case 'j':
        ui_list_move(bw, 1);
        return 1;
    case 'a':
    case 'n':
        event = screen_selected_event(s);
        screen_rl_prompt(s, SCREEN_PROMPT_BREAK, "break ",
                         event != NULL ? event : "");
        return 1;
    case 'd':
    remove:
        if ((id = chosen(s, bw, NULL)) != 0) {
            snprintf(cmd, sizeof cmd, "delete %d", id);
            screen_command(s, cmd, 1);
        }
        return 1;
    case ' ':
    case 'e':
    case '\r':
    toggle:
        if ((id = chosen(s, bw, &enabled)) != 0) {
            snprintf(cmd, sizeof cmd, "%s %d", enabled ? "disable" : "enable",
                     id);
            screen_command(s, cmd, 1);
        }
        return 1;
    default:
        return 0;
    }
}

static void bw_click(struct screen *s, void *w, int row, int col)
{
    struct ui_list *bw = &((struct breaks_window *)w)->list;

    (void)s;
    (void)col;
    if (row >= 1 && bw->top + (size_t)(row - 1) < bw->n)
        ui_list_select(bw, bw->top + (size_t)(row - 1));
}

static void bw_wheel(struct screen *s, void *w, int n)
{
    (void)s;
    ui_list_scroll(&((struct breaks_window *)w)->list, n);
}

void screen_breaks_added(struct screen *s)
{
    struct ui_list *bw =
        &((struct breaks_window *)screen_window_state(
              s, &screen_window_breaks))->list;

    ui_list_set(bw, breaks_count(s->in->breaks), bw->rows);
    ui_list_move(bw, 1000000);
}

const struct screen_window_ops screen_window_breaks = {
    .name = "breakpoints",
    .hint = "a add  d delete  Space enable/disable  Up Down choose  "
            "Esc close",
    .create = bw_create,
    .free = bw_free,
    .draw = bw_draw,
    .key = bw_key,
    .click = bw_click,
    .wheel = bw_wheel,
};
