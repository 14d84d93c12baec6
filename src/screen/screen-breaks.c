/* SPDX-License-Identifier: MIT */
/*
 * screen-breaks.c - the breakpoints window: each breakpoint with its
 * number, whether it is enabled, its hits, its event and condition.  Its
 * actions are the commands break, delete, enable and disable, echoed in
 * the transcript.
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

void screen_breaks_draw(struct screen *s)
{
    const struct ui_rect *r = &s->lay.window;
    struct breaks_info info;
    int focused = s->focus == UI_PANE_WINDOW, rows = r->h - 1;
    unsigned int n = breaks_count(s->in->breaks);
    size_t i;
    char *line;

    screen_draw_title(s, &s->lay.window_title, " Breakpoints ", focused);
    line = xasprintf(" %-4s %-4s %6s  %-24s %s", "Num", "Enb", "Hits",
                     "Event", "Condition");
    screen_draw_text(r->y, r->x, r->w, line, strlen(line), A_BOLD);
    free(line);
    ui_list_set(&s->bw, n, rows > 0 ? rows : 1);
    if (n == 0) {
        const char *none = " No breakpoints: a adds one (or type "
                           "break EVENT ?if CONDITION?).";

        screen_draw_text(r->y + 1, r->x, r->w, none, strlen(none), A_DIM);
        return;
    }
    for (i = s->bw.top; i < n && i < s->bw.top + (size_t)rows; i++) {
        int a = A_NORMAL;

        if (!breaks_get(s->in->breaks, (unsigned int)i, &info))
            break;
        if (i == s->bw.sel)
            a = focused ? A_REVERSE : A_BOLD;
        line = xasprintf(" %-4d %-4s %6lu  %-24s %s", info.id,
                         info.enabled ? "y" : "n", info.hits, info.event,
                         info.cond != NULL ? info.cond : "");
        attrset((attr_t)a);
        mvhline(r->y + 1 + (int)(i - s->bw.top), r->x, ' ', r->w);
        attrset(A_NORMAL);
        screen_draw_text(r->y + 1 + (int)(i - s->bw.top), r->x, r->w, line,
                         strlen(line), a);
        free(line);
    }
}

/* The chosen breakpoint's number, or 0. */
static int chosen(struct screen *s, int *enabled)
{
    struct breaks_info info;

    ui_list_set(&s->bw, breaks_count(s->in->breaks), s->bw.rows);
    if (!breaks_get(s->in->breaks, (unsigned int)s->bw.sel, &info))
        return 0;
    if (enabled != NULL)
        *enabled = info.enabled;
    return info.id;
}

int screen_breaks_key(struct screen *s, const struct ui_key *k)
{
    const char *event;
    char cmd[64];
    int id, enabled = 0;

    ui_list_set(&s->bw, breaks_count(s->in->breaks),
                s->bw.rows > 0 ? s->bw.rows : 1);
    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_list_move(&s->bw, -1);
            return 1;
        case KEY_DOWN:
            ui_list_move(&s->bw, 1);
            return 1;
        case KEY_PPAGE:
            ui_list_page(&s->bw, -1);
            return 1;
        case KEY_NPAGE:
            ui_list_page(&s->bw, 1);
            return 1;
        case KEY_HOME:
            ui_list_select(&s->bw, 0);
            return 1;
        case KEY_END:
            ui_list_move(&s->bw, 1000000);
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
        ui_list_move(&s->bw, -1);
        return 1;
    case 'j':
        ui_list_move(&s->bw, 1);
        return 1;
    case 'a':
    case 'n':
        event = screen_selected_event(s);
        screen_rl_prompt(s, SCREEN_PROMPT_BREAK, "break ",
                         event != NULL ? event : "");
        return 1;
    case 'd':
    remove:
        if ((id = chosen(s, NULL)) != 0) {
            snprintf(cmd, sizeof cmd, "delete %d", id);
            screen_command(s, cmd, 1);
        }
        return 1;
    case ' ':
    case 'e':
    case '\r':
    toggle:
        if ((id = chosen(s, &enabled)) != 0) {
            snprintf(cmd, sizeof cmd, "%s %d", enabled ? "disable" : "enable",
                     id);
            screen_command(s, cmd, 1);
        }
        return 1;
    default:
        return 0;
    }
}

void screen_breaks_click(struct screen *s, int row, int col)
{
    (void)col;
    if (row >= 1 && s->bw.top + (size_t)(row - 1) < s->bw.n)
        ui_list_select(&s->bw, s->bw.top + (size_t)(row - 1));
}

const char *screen_breaks_hint(struct screen *s)
{
    (void)s;
    return "a add  d delete  Space enable/disable  Up Down choose  "
           "Esc close";
}
