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

void screen_help_free(struct screen *s)
{
    size_t i;

    for (i = 0; i < s->nhelp; i++)
        free(s->help_lines[i]);
    free(s->help_lines);
    s->help_lines = NULL;
    s->nhelp = 0;
}

void screen_help_open(struct screen *s)
{
    Tcl_Interp *tcl = s->in->tcl;
    const char *text, *p, *nl;

    screen_help_free(s);
    /* an error's message shows in the window: better than nothing */
    Tcl_EvalEx(tcl, "::noosa::screen::help_text", -1, TCL_EVAL_GLOBAL);
    text = Tcl_GetStringResult(tcl);
    for (p = text; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        s->help_lines = xreallocarray(s->help_lines, s->nhelp + 1,
                                      sizeof *s->help_lines);
        s->help_lines[s->nhelp++] =
            nl != NULL ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
    }
    Tcl_ResetResult(tcl);
    memset(&s->help, 0, sizeof s->help);
}

void screen_help_draw(struct screen *s)
{
    const struct ui_rect *r = &s->lay.window;
    size_t i;

    screen_draw_title(s, &s->lay.window_title,
                      " Help: keys and commands (Esc closes) ",
                      s->focus == UI_PANE_WINDOW);
    /* a pager: the selection is the top line */
    ui_list_set(&s->help, s->nhelp, r->h);
    for (i = s->help.top; i < s->nhelp && i < s->help.top + (size_t)r->h;
         i++) {
        const char *line = s->help_lines[i];
        int bold = line[0] != ' ' && line[0] != '\0';

        screen_draw_text(r->y + (int)(i - s->help.top), r->x, r->w, line,
                         strlen(line), bold ? A_BOLD : A_NORMAL);
    }
}

int screen_help_key(struct screen *s, const struct ui_key *k)
{
    long page = s->lay.window.h > 1 ? s->lay.window.h - 1 : 1;

    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_list_scroll(&s->help, -1);
            return 1;
        case KEY_DOWN:
            ui_list_scroll(&s->help, 1);
            return 1;
        case KEY_PPAGE:
            ui_list_scroll(&s->help, -page);
            return 1;
        case KEY_NPAGE:
            ui_list_scroll(&s->help, page);
            return 1;
        case KEY_HOME:
            ui_list_scroll(&s->help, -1000000);
            return 1;
        case KEY_END:
            ui_list_scroll(&s->help, 1000000);
            return 1;
        default:
            return 0;
        }
    }
    switch (k->code) {
    case 'k':
        ui_list_scroll(&s->help, -1);
        return 1;
    case 'j':
    case '\r':
        ui_list_scroll(&s->help, 1);
        return 1;
    case ' ':
        ui_list_scroll(&s->help, page);
        return 1;
    case 'b':
        ui_list_scroll(&s->help, -page);
        return 1;
    default:
        return 0;
    }
}
