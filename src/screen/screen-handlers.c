/* SPDX-License-Identifier: MIT */
/*
 * screen-handlers.c - the handlers window: on the left the events
 * (marked * when they have handlers, B when they have breakpoints); on
 * the right the handlers of the chosen event (marked [x] when enabled,
 * "if" when they have a condition), the event's parameters with their
 * descriptions, and the chosen handler's condition (and where it runs)
 * and code.  Its actions are `handler ...` commands, echoed in the
 * transcript: new, rename, remove, enable and disable, edit (screen-edit.c),
 * save and load.
 *
 * What it shows is read again from the interpreter (`handler get`) and
 * the program's interface whenever it is drawn, so it never disagrees
 * with what a command did.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "handlers.h"
#include "interp.h"
#include "screen.h"
#include "ui-text.h"
#include "xmalloc.h"

/* One event in the window. */
struct handlers_event {
    char *name;
    int handlers; /* how many */
    int breaks;   /* breakpoints on it */
    const struct registry_event *ev; /* NULL when the interface is unknown */
};

/* One handler in the window. */
struct handlers_handler {
    char *event; /* as the handler names it (NAME or ASPECT.NAME) */
    char *name;
    int enabled;
    char *body;
    char *cond;  /* NULL: always */
    char *where; /* where COND runs, or NULL */
};

/* The window's state. */
struct handlers_window {
    struct ui_list events;
    struct ui_list handlers;
    int column;           /* 0: events, 1: handlers */
    char *selected;       /* the event chosen (by name), or NULL */
    struct handlers_event *ev;
    size_t nev;
    struct handlers_handler *h; /* the chosen event's handlers */
    size_t nh;
};

static struct handlers_window *hw_of(struct screen *s)
{
    return screen_window_state(s, &screen_window_handlers);
}

/* Forget the events and handlers read last. */
static void forget(struct handlers_window *hw)
{
    size_t i;

    for (i = 0; i < hw->nev; i++)
        free(hw->ev[i].name);
    free(hw->ev);
    hw->ev = NULL;
    hw->nev = 0;
    for (i = 0; i < hw->nh; i++) {
        free(hw->h[i].event);
        free(hw->h[i].name);
        free(hw->h[i].body);
        free(hw->h[i].cond);
        free(hw->h[i].where);
    }
    free(hw->h);
    hw->h = NULL;
    hw->nh = 0;
}

/* Whether a handler or breakpoint on NAMED applies to event E. */
static int applies(const struct handlers_event *e, const char *named)
{
    if (e->ev != NULL)
        return registry_event_named(e->ev, named);
    return strcmp(e->name, named) == 0;
}

static struct handlers_event *add_event(struct handlers_window *hw,
                                        const char *name,
                                        const struct registry_event *ev)
{
    size_t i;

    for (i = 0; i < hw->nev; i++) {
        if (strcmp(hw->ev[i].name, name) == 0)
            return &hw->ev[i];
    }
    hw->ev = xreallocarray(hw->ev, hw->nev + 1, sizeof *hw->ev);
    memset(&hw->ev[hw->nev], 0, sizeof *hw->ev);
    hw->ev[hw->nev].name = xstrdup(name);
    hw->ev[hw->nev].ev = ev;
    return &hw->ev[hw->nev++];
}

/* Read the events and handlers again. */
static void reload(struct screen *s, struct handlers_window *hw)
{
    struct interp *in = s->in;
    struct registry *reg = session_registry(in->session);
    struct breaks_info info;
    Tcl_Obj *all = NULL, **hv = NULL;
    int nall = 0, i;
    unsigned int a, e, b;
    size_t k;
    const char *chosen;

    forget(hw);
    if (Tcl_EvalEx(in->tcl, "::noosa::cmd::handler get", -1,
                   TCL_EVAL_GLOBAL) == TCL_OK) {
        all = Tcl_GetObjResult(in->tcl);
        Tcl_IncrRefCount(all);
        Tcl_ListObjGetElements(NULL, all, &nall, &hv);
    }
    Tcl_ResetResult(in->tcl);

    /* the visible events, and the others that have handlers or
     * breakpoints; without an interface, the events handlers name */
    for (a = 0; reg != NULL && a < registry_naspects(reg); a++) {
        struct registry_aspect *asp = registry_aspect_at(reg, a);

        for (e = 0; e < asp->nevents; e++) {
            const struct registry_event *ev = &asp->events[e];
            int wanted = ev->visible;

            for (i = 0; i < nall && !wanted; i++) {
                Tcl_Obj *name;

                if (Tcl_ListObjIndex(NULL, hv[i], 0, &name) == TCL_OK &&
                    name != NULL &&
                    registry_event_named(ev, Tcl_GetString(name)))
                    wanted = 1;
            }
            for (b = 0; !wanted && breaks_get(in->breaks, b, &info); b++)
                wanted = registry_event_named(ev, info.event);
            if (wanted)
                add_event(hw, ev->name, ev);
        }
    }
    if (reg == NULL || registry_naspects(reg) == 0) {
        for (i = 0; i < nall; i++) {
            Tcl_Obj *name;

            if (Tcl_ListObjIndex(NULL, hv[i], 0, &name) == TCL_OK &&
                name != NULL)
                add_event(hw, Tcl_GetString(name), NULL);
        }
    }
    for (k = 0; k < hw->nev; k++) {
        struct handlers_event *he = &hw->ev[k];

        for (i = 0; i < nall; i++) {
            Tcl_Obj *name;

            if (Tcl_ListObjIndex(NULL, hv[i], 0, &name) == TCL_OK &&
                name != NULL && applies(he, Tcl_GetString(name)))
                he->handlers++;
        }
        for (b = 0; breaks_get(in->breaks, b, &info); b++) {
            if (applies(he, info.event))
                he->breaks++;
        }
    }

    /* keep the chosen event chosen; at first, the one stopped at */
    chosen = hw->selected;
    if (chosen == NULL)
        chosen = Tcl_GetVar2(in->tcl, "ev", "n_ename", TCL_GLOBAL_ONLY);
    for (k = 0; chosen != NULL && k < hw->nev; k++) {
        if (strcmp(hw->ev[k].name, chosen) == 0) {
            hw->events.sel = k;
            break;
        }
    }
    ui_list_set(&hw->events, hw->nev, hw->events.rows);
    if (hw->nev > 0) {
        free(hw->selected);
        hw->selected = xstrdup(hw->ev[hw->events.sel].name);
    }

    /* the chosen event's handlers, in the order they run */
    for (i = 0; hw->nev > 0 && i < nall; i++) {
        Tcl_Obj *f[4], *c = NULL;
        int j, en = 0;

        for (j = 0; j < 4; j++) {
            if (Tcl_ListObjIndex(NULL, hv[i], j, &f[j]) != TCL_OK ||
                f[j] == NULL)
                break;
        }
        if (j < 4 ||
            !applies(&hw->ev[hw->events.sel], Tcl_GetString(f[0])))
            continue;
        Tcl_GetBooleanFromObj(NULL, f[2], &en);
        hw->h = xreallocarray(hw->h, hw->nh + 1, sizeof *hw->h);
        hw->h[hw->nh].event = xstrdup(Tcl_GetString(f[0]));
        hw->h[hw->nh].name = xstrdup(Tcl_GetString(f[1]));
        hw->h[hw->nh].enabled = en;
        hw->h[hw->nh].body = xstrdup(Tcl_GetString(f[3]));
        Tcl_ListObjIndex(NULL, hv[i], 4, &c);
        hw->h[hw->nh].cond = c != NULL ? xstrdup(Tcl_GetString(c)) : NULL;
        hw->h[hw->nh].where =
            c != NULL ? handlers_where(in->handlers, hw->h[hw->nh].event,
                                       hw->h[hw->nh].name)
                      : NULL;
        hw->nh++;
    }
    ui_list_set(&hw->handlers, hw->nh, hw->handlers.rows);
    if (hw->nh == 0)
        hw->column = 0;
    if (all != NULL)
        Tcl_DecrRefCount(all);
}

static void hw_refresh(struct screen *s, void *w)
{
    reload(s, w);
}

static void *hw_create(struct screen *s)
{
    (void)s;
    return xcalloc(1, sizeof(struct handlers_window));
}

static void hw_free(void *w)
{
    struct handlers_window *hw = w;

    forget(hw);
    free(hw->selected);
    free(hw);
}

/* The chosen handler (NULL when none). */
static const struct handlers_handler *current(struct handlers_window *hw)
{
    if (hw->nh == 0)
        return NULL;
    return &hw->h[hw->handlers.sel];
}

/* The chosen event's name, or NULL. */
static const char *current_event(struct handlers_window *hw)
{
    return hw->nev > 0 ? hw->ev[hw->events.sel].name : NULL;
}

/* Choose event I of the list. */
static void choose_event(struct screen *s, struct handlers_window *hw,
                         size_t i)
{
    ui_list_select(&hw->events, i);
    if (hw->nev > 0) {
        free(hw->selected);
        hw->selected = xstrdup(hw->ev[hw->events.sel].name);
    }
    hw->handlers.sel = 0;
    hw->handlers.top = 0;
    reload(s, hw);
}

/* Draw the parameters and code of the chosen event and handler in the
 * rows Y .. Y+H-1 at X, W columns. */
static void draw_details(struct handlers_window *hw, int y, int x, int w,
                         int h)
{
    const struct handlers_event *he =
        hw->nev > 0 ? &hw->ev[hw->events.sel] : NULL;
    const struct handlers_handler *hh = current(hw);
    int end = y + h;
    char *text;
    unsigned int i;

    if (he != NULL && he->ev != NULL && y < end) {
        const struct registry_event *ev = he->ev;
        Tcl_DString sig;

        Tcl_DStringInit(&sig);
        Tcl_DStringAppend(&sig, ev->name, -1);
        Tcl_DStringAppend(&sig, "(", 1);
        for (i = 0; i < ev->nparams; i++) {
            if (i > 0)
                Tcl_DStringAppend(&sig, ", ", 2);
            Tcl_DStringAppend(&sig, ev->params[i].type, -1);
            Tcl_DStringAppend(&sig, " ", 1);
            Tcl_DStringAppend(&sig, ev->params[i].name, -1);
        }
        Tcl_DStringAppend(&sig, ") - ", -1);
        Tcl_DStringAppend(&sig, ev->doc, -1);
        screen_draw_text(y++, x, w, Tcl_DStringValue(&sig),
                         (size_t)Tcl_DStringLength(&sig), A_BOLD);
        Tcl_DStringFree(&sig);
        for (i = 0; i < ev->nparams && y < end - 2; i++) {
            text = xasprintf("  %s: %s", ev->params[i].name,
                             ev->params[i].doc);
            screen_draw_text(y++, x, w, text, strlen(text), A_NORMAL);
            free(text);
        }
        if (y < end - 2) {
            text = xasprintf("  (and n_ename, n_time, n_thread, n_pid)");
            screen_draw_text(y++, x, w, text, strlen(text), A_DIM);
            free(text);
        }
    }
    if (hh == NULL || y >= end)
        return;
    if (hh->cond != NULL) {
        text = xasprintf("Runs only if %s", hh->cond);
        screen_draw_text(y++, x, w, text, strlen(text), A_BOLD);
        free(text);
        if (hh->where != NULL && y < end) {
            text = xasprintf("  condition runs %s", hh->where);
            screen_draw_text(y++, x, w, text, strlen(text), A_DIM);
            free(text);
        }
        if (y >= end)
            return;
    }
    text = xasprintf("Code of %s:", hh->name);
    screen_draw_text(y++, x, w, text, strlen(text), A_BOLD);
    free(text);
    {
        const char *p = hh->body;

        /* long lines wrap: handler code is often one line */
        while (y < end && p != NULL) {
            const char *nl = strchr(p, '\n');
            size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p), at = 0;

            do {
                size_t e = ui_text_row_end(p, n, at, w - 2);

                screen_draw_text(y++, x + 2, w - 2, p + at, e - at,
                                 A_NORMAL);
                at = e;
            } while (at < n && y < end);
            p = nl != NULL ? nl + 1 : NULL;
        }
    }
}

static void hw_draw(struct screen *s, void *w,
                          const struct ui_rect *title_rect,
                          const struct ui_rect *r)
{
    struct handlers_window *hw = w;
    int focused = s->focus == UI_PANE_WINDOW;
    int lw = r->w / 3 > 30 ? 30 : r->w / 3, rx, rw, hrows, y;
    char title[256];
    size_t i;

    if (lw < 14)
        lw = 14;
    rx = r->x + lw + 1;
    rw = r->w - lw - 1;
    snprintf(title, sizeof title,
             " Handlers: events (* with handlers, B with breakpoints) ");
    screen_draw_title(s, title_rect, title, focused);
    reload(s, hw);

    /* the events */
    ui_list_set(&hw->events, hw->nev, r->h);
    if (hw->nev == 0)
        screen_draw_text(r->y, r->x, lw, "(interface unknown)", 19, A_DIM);
    for (i = hw->events.top; i < hw->nev && i < hw->events.top +
                                                       (size_t)r->h;
         i++) {
        const struct handlers_event *he = &hw->ev[i];
        int row = r->y + (int)(i - hw->events.top);
        int a = A_NORMAL;
        char marks[3];

        if (i == hw->events.sel)
            a = focused && hw->column == 0 ? A_REVERSE : A_BOLD;
        marks[0] = he->handlers > 0 ? '*' : ' ';
        marks[1] = he->breaks > 0 ? 'B' : ' ';
        marks[2] = '\0';
        attrset((attr_t)a);
        mvhline(row, r->x, ' ', lw);
        attrset(A_NORMAL);
        screen_draw_text(row, r->x, 2, marks, 2,
                         a | screen_look(s, SCREEN_LOOK_MARK));
        screen_draw_text(row, r->x + 3, lw - 3, he->name, strlen(he->name),
                         a);
    }
    mvvline(r->y, r->x + lw, ACS_VLINE, r->h);

    /* the chosen event's handlers */
    y = r->y;
    if (hw->nev > 0) {
        char *head = xasprintf("Handlers of %s (in the order they run):",
                               current_event(hw));

        screen_draw_text(y++, rx, rw, head, strlen(head), A_BOLD);
        free(head);
    }
    hrows = (int)hw->nh;
    if (hrows > (r->h - 2) / 3)
        hrows = (r->h - 2) / 3;
    if (hrows < 1)
        hrows = 1;
    ui_list_set(&hw->handlers, hw->nh, hrows);
    if (hw->nh == 0 && hw->nev > 0)
        screen_draw_text(y, rx, rw, "  (none: n adds one)", 20, A_DIM);
    for (i = hw->handlers.top;
         i < hw->nh && i < hw->handlers.top + (size_t)hrows; i++) {
        const struct handlers_handler *hh = &hw->h[i];
        int row = y + (int)(i - hw->handlers.top);
        int a = A_NORMAL;
        char *text = xasprintf("[%c] %s%s", hh->enabled ? 'x' : ' ', hh->name,
                               hh->cond != NULL ? " (if)" : "");

        if (i == hw->handlers.sel)
            a = focused && hw->column == 1 ? A_REVERSE : A_BOLD;
        screen_draw_text(row, rx + 1, rw - 1, text, strlen(text), a);
        free(text);
    }
    y += hrows + 1;
    draw_details(hw, y, rx, rw, r->y + r->h - y);
}

/* Run the `handler` command made of ARGC words. */
static int handler_cmd(struct screen *s, int argc, const char *const *argv)
{
    int rc = screen_commandv(s, argc, argv, 0);

    reload(s, hw_of(s));
    return rc;
}

void screen_handlers_remove(struct screen *s)
{
    struct handlers_window *hw = hw_of(s);
    const struct handlers_handler *hh = current(hw);
    char *event, *name;

    if (hh == NULL)
        return;
    event = xstrdup(hh->event);
    name = xstrdup(hh->name);
    handler_cmd(s, 4, (const char *const[]){"handler", "remove", event, name});
    free(event);
    free(name);
}

void screen_handlers_answer(struct screen *s, enum screen_prompt what,
                            const char *line)
{
    struct handlers_window *hw = hw_of(s);
    const struct handlers_handler *hh = current(hw);
    const char *event = current_event(hw);
    char *ev = NULL, *name = NULL;
    size_t i;

    switch (what) {
    case SCREEN_PROMPT_NEW_HANDLER:
        if (event == NULL)
            return;
        ev = xstrdup(event);
        if (handler_cmd(s, 5, (const char *const[]){"handler", "add", ev,
                                                    line, ""}) == 0) {
            for (i = 0; i < hw->nh; i++) {
                if (strcmp(hw->h[i].name, line) == 0)
                    ui_list_select(&hw->handlers, i);
            }
            hw->column = 1;
            screen_edit_handler(s, ev, line, 0);
        }
        break;
    case SCREEN_PROMPT_RENAME:
        if (hh == NULL)
            return;
        ev = xstrdup(hh->event);
        name = xstrdup(hh->name);
        handler_cmd(s, 5, (const char *const[]){"handler", "rename", ev, name,
                                                line});
        break;
    case SCREEN_PROMPT_SAVE:
        if (handler_cmd(s, 3, (const char *const[]){"handler", "save",
                                                    line}) == 0)
            screen_message(s, 0, "Handlers saved to %s.", line);
        break;
    case SCREEN_PROMPT_LOAD:
        if (handler_cmd(s, 3, (const char *const[]){"handler", "load",
                                                    line}) == 0)
            screen_message(s, 0, "Handlers loaded from %s.", line);
        break;
    default:
        break;
    }
    free(ev);
    free(name);
}

/* Move the selection of the column with the focus by DELTA. */
static void move_selection(struct screen *s, struct handlers_window *hw,
                           long delta, int page)
{
    if (hw->column == 1) {
        if (page)
            ui_list_page(&hw->handlers, (int)delta);
        else
            ui_list_move(&hw->handlers, delta);
        return;
    }
    if (page)
        ui_list_page(&hw->events, (int)delta);
    else
        ui_list_move(&hw->events, delta);
    choose_event(s, hw, hw->events.sel);
}

static int hw_key(struct screen *s, void *w, const struct ui_key *k)
{
    struct handlers_window *hw = w;
    const struct handlers_handler *hh;
    const char *event;
    char *ev, *name;

    reload(s, hw);
    hh = current(hw);
    event = current_event(hw);
    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            move_selection(s, hw, -1, 0);
            return 1;
        case KEY_DOWN:
            move_selection(s, hw, 1, 0);
            return 1;
        case KEY_PPAGE:
            move_selection(s, hw, -1, 1);
            return 1;
        case KEY_NPAGE:
            move_selection(s, hw, 1, 1);
            return 1;
        case KEY_HOME:
            move_selection(s, hw, -1000000, 0);
            return 1;
        case KEY_END:
            move_selection(s, hw, 1000000, 0);
            return 1;
        case KEY_LEFT:
            hw->column = 0;
            return 1;
        case KEY_RIGHT:
            if (hw->nh > 0)
                hw->column = 1;
            return 1;
        case KEY_DC:
            goto remove;
        case KEY_ENTER:
            goto enter;
        default:
            return 0;
        }
    }
    switch (k->code) {
    case 'k':
        move_selection(s, hw, -1, 0);
        return 1;
    case 'j':
        move_selection(s, hw, 1, 0);
        return 1;
    case '\t':
        hw->column = hw->column == 0 && hw->nh > 0;
        return 1;
    case '\r':
    enter:
        if (hw->column == 0 && hw->nh > 0) {
            hw->column = 1;
            return 1;
        }
        /* fall through */
    case 'e':
    case 'i':
        if (hh == NULL) {
            screen_message(s, 1, "No handler to edit: n adds one.");
            return 1;
        }
        ev = xstrdup(hh->event);
        name = xstrdup(hh->name);
        screen_edit_handler(s, ev, name, k->code == 'i');
        free(ev);
        free(name);
        return 1;
    case 'n':
        if (event == NULL) {
            screen_message(s, 1, "No event to add a handler to.");
            return 1;
        }
        screen_rl_prompt(s, SCREEN_PROMPT_NEW_HANDLER,
                         "Name of the new handler: ", "");
        return 1;
    case 'r':
        if (hh != NULL)
            screen_rl_prompt(s, SCREEN_PROMPT_RENAME, "Rename to: ",
                             hh->name);
        return 1;
    case 'd':
    remove:
        if (hh != NULL)
            screen_ask(s, SCREEN_ASK_REMOVE_HANDLER,
                       "Remove handler %s of %s? (y or n)", hh->name,
                       hh->event);
        return 1;
    case ' ':
        if (hh == NULL)
            return 1;
        ev = xstrdup(hh->event);
        name = xstrdup(hh->name);
        handler_cmd(s, 4, (const char *const[]){"handler",
                                                hh->enabled ? "disable"
                                                            : "enable",
                                                ev, name});
        free(ev);
        free(name);
        return 1;
    case 's':
        screen_rl_prompt(s, SCREEN_PROMPT_SAVE, "Save the handlers to: ",
                         "noosa.handlers");
        return 1;
    case 'l':
        screen_rl_prompt(s, SCREEN_PROMPT_LOAD, "Load handlers from: ", "");
        return 1;
    case 'b':
        if (event != NULL) {
            ev = xstrdup(event);
            screen_toggle_break(s, ev);
            free(ev);
        }
        return 1;
    default:
        return 0;
    }
}

static void hw_click(struct screen *s, void *w, int row, int col)
{
    struct handlers_window *hw = w;
    const struct ui_rect *r = &s->lay.window;
    int lw = r->w / 3 > 30 ? 30 : r->w / 3;

    if (lw < 14)
        lw = 14;
    if (col < lw) {
        hw->column = 0;
        if (hw->events.top + (size_t)row < hw->nev)
            choose_event(s, hw, hw->events.top + (size_t)row);
        return;
    }
    /* the handlers start below their heading */
    if (row >= 1 && hw->handlers.top + (size_t)(row - 1) < hw->nh &&
        row - 1 < hw->handlers.rows) {
        hw->column = 1;
        ui_list_select(&hw->handlers, hw->handlers.top + (size_t)(row - 1));
    }
}

const char *screen_handlers_event(struct screen *s)
{
    return hw_of(s)->selected;
}

const struct screen_window_ops screen_window_handlers = {
    .name = "handlers",
    .hint = "n new  r rename  d delete  Space on/off  e edit  i inline  "
            "s save  l load  b break  Esc close",
    .create = hw_create,
    .free = hw_free,
    .open = hw_refresh,
    .command_done = hw_refresh,
    .draw = hw_draw,
    .key = hw_key,
    .click = hw_click,
};
