/* SPDX-License-Identifier: MIT */
/*
 * screen-cmd.c - the `screen` command: what keys and windows do, as a
 * command (so that every key can be rebound to it, and scripts and tests
 * can do it too): focus, windows, values, search, scrolling, editing a
 * handler, quitting; and the screen's figures (`screen stats`).
 *
 * Key bindings themselves live in the Tcl library (tcl/screen.tcl, `bind`),
 * so that start-up files can set them in batch mode too; this file looks
 * the key pressed up there by its name (ui-keys.h).
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "interp.h"
#include "noosa.h"
#include "screen.h"
#include "xmalloc.h"

const char *const screen_cmd_subs[] = {
    "edit",   "editing-mode", "focus",       "fps",    "interrupt",
    "keyname", "message",     "mouse",       "open",   "output-height",
    "quit",   "redraw",       "scroll",      "search", "search-next",
    "select", "selected-event", "stats",     "toggle-break", "window",
    NULL};

enum {
    SUB_EDIT,
    SUB_EDITING_MODE,
    SUB_FOCUS,
    SUB_FPS,
    SUB_INTERRUPT,
    SUB_KEYNAME,
    SUB_MESSAGE,
    SUB_MOUSE,
    SUB_OPEN,
    SUB_OUTPUT_HEIGHT,
    SUB_QUIT,
    SUB_REDRAW,
    SUB_SCROLL,
    SUB_SEARCH,
    SUB_SEARCH_NEXT,
    SUB_SELECT,
    SUB_SELECTED_EVENT,
    SUB_STATS,
    SUB_TOGGLE_BREAK,
    SUB_WINDOW
};

static const char *const pane_names[] = {"command", "transcript", "output",
                                         "window", NULL};

static int usage(Tcl_Interp *tcl, const char *sub, const char *args)
{
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf("wrong # args: should be \"screen "
                                        "%s%s%s\"",
                                        sub, *args != '\0' ? " " : "", args));
    return TCL_ERROR;
}

static int cmd_focus(struct screen *s, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    int i;

    if (objc == 2) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(pane_names[s->focus], -1));
        return TCL_OK;
    }
    if (objc != 3)
        return usage(tcl, "focus",
                     "?next|prev|command|transcript|output|window?");
    if (strcmp(Tcl_GetString(objv[2]), "next") == 0 ||
        strcmp(Tcl_GetString(objv[2]), "prev") == 0) {
        screen_set_focus(s, ui_layout_next_focus(
                                &s->lay, s->focus,
                                strcmp(Tcl_GetString(objv[2]), "next") == 0
                                    ? 1
                                    : -1));
        return TCL_OK;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[2], pane_names, "pane", 0, &i) !=
        TCL_OK)
        return TCL_ERROR;
    if (!ui_layout_has(&s->lay, (enum ui_pane)i)) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("the %s pane is not on screen",
                                            pane_names[i]));
        return TCL_ERROR;
    }
    screen_set_focus(s, (enum ui_pane)i);
    return TCL_OK;
}

/* screen window ?none|NAME?: the names are "none" and those of the
 * windows in screen_windows[]. */
static int cmd_window(struct screen *s, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    int i;

    if (objc == 2) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                                  s->window != NULL ? s->window->name : "none",
                                  -1));
        return TCL_OK;
    }
    if (objc != 3) {
        Tcl_DString names;
        int rc;

        Tcl_DStringInit(&names);
        Tcl_DStringAppend(&names, "?", 1);
        for (i = 0; s->window_names[i] != NULL; i++) {
            if (i > 0)
                Tcl_DStringAppend(&names, "|", 1);
            Tcl_DStringAppend(&names, s->window_names[i], -1);
        }
        Tcl_DStringAppend(&names, "?", 1);
        rc = usage(tcl, "window", Tcl_DStringValue(&names));
        Tcl_DStringFree(&names);
        return rc;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[2], s->window_names, "window", 0,
                            &i) != TCL_OK)
        return TCL_ERROR;
    screen_open_window(s, i == 0 ? NULL : screen_windows[i - 1]);
    return TCL_OK;
}

static int cmd_scroll(struct screen *s, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    static const char *const how[] = {"up",       "down", "pageup",
                                      "pagedown", "home", "end", NULL};
    struct ui_tview *v = &s->tv;
    int i = 2, which, n = 1, output = 0, page;

    if (objc > 2 && strcmp(Tcl_GetString(objv[2]), "-output") == 0) {
        output = 1;
        i++;
    }
    if (objc < i + 1 || objc > i + 2)
        return usage(tcl, "scroll",
                     "?-output? up|down|pageup|pagedown|home|end ?N?");
    if (Tcl_GetIndexFromObj(tcl, objv[i], how, "direction", 0, &which) !=
        TCL_OK)
        return TCL_ERROR;
    if (objc == i + 2 && Tcl_GetIntFromObj(tcl, objv[i + 1], &n) != TCL_OK)
        return TCL_ERROR;
    if (output) {
        /* the program's terminal: its scrollback */
        page = s->lay.output.h > 1 ? s->lay.output.h - 1 : 1;
        switch (which) {
        case 0:
            ui_term_scroll(s->out, -n);
            break;
        case 1:
            ui_term_scroll(s->out, n);
            break;
        case 2:
            ui_term_scroll(s->out, -n * page);
            break;
        case 3:
            ui_term_scroll(s->out, n * page);
            break;
        case 4:
            ui_term_scroll(s->out, -(int)ui_term_scrollback(s->out));
            break;
        case 5:
            ui_term_scroll_end(s->out);
            break;
        }
        s->dirty = 1;
        return TCL_OK;
    }
    switch (which) {
    case 0:
        ui_tview_scroll(v, -n);
        break;
    case 1:
        ui_tview_scroll(v, n);
        break;
    case 2:
        ui_tview_page(v, -n);
        break;
    case 3:
        ui_tview_page(v, n);
        break;
    case 4:
        ui_tview_home(v);
        break;
    case 5:
        ui_tview_end(v);
        break;
    }
    s->dirty = 1;
    return TCL_OK;
}

/* screen search ?-backward? ?-regexp? ?-nocase? ?-exact? PATTERN */
static int cmd_search(struct screen *s, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    int i, flags = 0, exact = 0, nocase = 0;
    const char *pattern;
    char *cause = NULL;
    int rc;

    for (i = 2; i < objc - 1; i++) {
        const char *o = Tcl_GetString(objv[i]);

        if (strcmp(o, "-backward") == 0)
            flags |= TR_BACKWARD;
        else if (strcmp(o, "-regexp") == 0)
            flags |= TR_REGEX;
        else if (strcmp(o, "-nocase") == 0)
            nocase = 1;
        else if (strcmp(o, "-exact") == 0)
            exact = 1;
        else
            return usage(tcl, "search",
                         "?-backward? ?-regexp? ?-nocase? ?-exact? PATTERN");
    }
    if (objc < 3)
        return usage(tcl, "search",
                     "?-backward? ?-regexp? ?-nocase? ?-exact? PATTERN");
    pattern = Tcl_GetString(objv[objc - 1]);
    if (nocase)
        flags |= TR_NOCASE;
    else if (!exact)
        flags |= ui_tview_smartcase(pattern);
    rc = ui_tview_search(&s->tv, pattern, flags, &cause);
    if (rc < 0) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(cause, -1));
        free(cause);
        return TCL_ERROR;
    }
    if (rc == 0) {
        screen_message(s, 1, "Not found: %s", pattern);
        return TCL_OK;
    }
    if (ui_layout_has(&s->lay, UI_PANE_TRANSCRIPT))
        s->focus = UI_PANE_TRANSCRIPT;
    return TCL_OK;
}

static int cmd_stats(struct screen *s, Tcl_Interp *tcl)
{
    struct transcript *t = s->in->transcript;
    Tcl_Obj *d = Tcl_NewDictObj();

#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
    PUT("draws", Tcl_NewWideIntObj((Tcl_WideInt)s->draws));
    PUT("fps", Tcl_NewIntObj((int)s->fps));
    PUT("events", Tcl_NewWideIntObj((Tcl_WideInt)s->in->noosa->item_seq));
    PUT("lines", Tcl_NewWideIntObj((Tcl_WideInt)transcript_end(t)));
    PUT("first-line", Tcl_NewWideIntObj((Tcl_WideInt)transcript_first(t)));
    PUT("transcript-bytes",
        Tcl_NewWideIntObj((Tcl_WideInt)transcript_memory(t)));
    PUT("values", Tcl_NewWideIntObj((Tcl_WideInt)transcript_value_count(t)));
    PUT("output-bytes",
        Tcl_NewWideIntObj((Tcl_WideInt)ui_term_bytes(s->out)));
    /* the lines that scrolled off the program's terminal, and its rows */
    PUT("output-lines",
        Tcl_NewWideIntObj((Tcl_WideInt)(ui_term_scrolled(s->out) +
                                         (uint64_t)ui_term_rows(s->out))));
    PUT("output-scrollback",
        Tcl_NewWideIntObj((Tcl_WideInt)ui_term_scrollback(s->out)));
    PUT("output-altscreen", Tcl_NewIntObj(ui_term_altscreen(s->out)));
    PUT("rows", Tcl_NewIntObj(s->lay.rows));
    PUT("cols", Tcl_NewIntObj(s->lay.cols));
    PUT("follow", Tcl_NewIntObj(s->tv.follow));
#undef PUT
    Tcl_SetObjResult(tcl, d);
    return TCL_OK;
}

static int cmd_screen(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct screen *s = cd;
    struct ui_key key;
    char name[64];
    int sub, n;
    const char *arg = objc > 2 ? Tcl_GetString(objv[2]) : "";

    if (s == NULL) {
        /* registered with the other commands, given its screen when
         * there is one (screen_cmd_init) */
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "screen: no screen (noosa runs in batch mode)", -1));
        return TCL_ERROR;
    }

    if (objc < 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "SUBCOMMAND ?ARG ...?");
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[1], screen_cmd_subs, "subcommand", 0,
                            &sub) != TCL_OK)
        return TCL_ERROR;
    s->dirty = 1;
    switch (sub) {
    case SUB_FOCUS:
        return cmd_focus(s, tcl, objc, objv);
    case SUB_WINDOW:
        return cmd_window(s, tcl, objc, objv);
    case SUB_TOGGLE_BREAK:
        if (objc > 3)
            return usage(tcl, "toggle-break", "?EVENT?");
        {
            char *event = NULL;
            const char *e = objc == 3 ? arg : screen_selected_event(s);

            if (e != NULL)
                event = xstrdup(e);
            screen_toggle_break(s, event);
            free(event);
        }
        return TCL_OK;
    case SUB_SELECTED_EVENT: {
        const char *e = screen_selected_event(s);

        Tcl_SetObjResult(tcl, Tcl_NewStringObj(e != NULL ? e : "", -1));
        return TCL_OK;
    }
    case SUB_INTERRUPT:
        screen_interrupt(s);
        return TCL_OK;
    case SUB_QUIT:
        if (objc > 3 || (objc == 3 && strcmp(arg, "-force") != 0))
            return usage(tcl, "quit", "?-force?");
        screen_request_quit(s, 0, objc == 3);
        return TCL_OK;
    case SUB_SEARCH:
        return cmd_search(s, tcl, objc, objv);
    case SUB_SEARCH_NEXT:
        if (objc > 3 || (objc == 3 && strcmp(arg, "-reverse") != 0))
            return usage(tcl, "search-next", "?-reverse?");
        screen_search_next(s, objc == 3);
        return TCL_OK;
    case SUB_SELECT: {
        Tcl_WideInt id;
        uint64_t got = 0;

        if (objc != 3)
            return usage(tcl, "select", "next|prev|none|N");
        if (strcmp(arg, "next") == 0 || strcmp(arg, "prev") == 0) {
            got = ui_tview_select(&s->tv, arg[0] == 'n' ? 1 : -1);
        } else if (strcmp(arg, "none") == 0) {
            ui_tview_unselect(&s->tv);
            return TCL_OK;
        } else if (Tcl_GetWideIntFromObj(tcl, objv[2], &id) != TCL_OK) {
            return TCL_ERROR;
        } else if (id > 0 && ui_tview_select_id(&s->tv, (uint64_t)id)) {
            got = (uint64_t)id;
        }
        if (got == 0) {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj("no such value", -1));
            return TCL_ERROR;
        }
        if (ui_layout_has(&s->lay, UI_PANE_TRANSCRIPT))
            s->focus = UI_PANE_TRANSCRIPT;
        return TCL_OK;
    }
    case SUB_OPEN: {
        Tcl_WideInt id = 0;

        if (objc > 3 ||
            (objc == 3 && Tcl_GetWideIntFromObj(tcl, objv[2], &id) != TCL_OK))
            return usage(tcl, "open", "?N?");
        screen_open_value(s, id > 0 ? (uint64_t)id : 0);
        return TCL_OK;
    }
    case SUB_SCROLL:
        return cmd_scroll(s, tcl, objc, objv);
    case SUB_OUTPUT_HEIGHT:
        if (objc == 2) {
            Tcl_SetObjResult(tcl, Tcl_NewIntObj(s->lay.output.h));
            return TCL_OK;
        }
        if (objc != 3 || Tcl_GetIntFromObj(NULL, objv[2], &n) != TCL_OK ||
            n < 0)
            return usage(tcl, "output-height", "?ROWS? (0: the default)");
        s->output_rows = n;
        screen_relayout(s);
        return TCL_OK;
    case SUB_EDIT:
        if (objc == 5 && strcmp(Tcl_GetString(objv[4]), "-inline") != 0)
            return usage(tcl, "edit", "EVENT HANDLER ?-inline?");
        if (objc != 4 && objc != 5)
            return usage(tcl, "edit", "EVENT HANDLER ?-inline?");
        screen_edit_handler(s, arg, Tcl_GetString(objv[3]), objc == 5);
        return TCL_OK;
    case SUB_MESSAGE:
        if (objc != 3)
            return usage(tcl, "message", "TEXT");
        screen_message(s, 0, "%s", arg);
        return TCL_OK;
    case SUB_MOUSE:
        if (objc == 3) {
            int on;

            if (Tcl_GetBooleanFromObj(tcl, objv[2], &on) != TCL_OK)
                return TCL_ERROR;
            s->mouse = on;
            if (s->active)
                mousemask(on ? (BUTTON1_PRESSED | BUTTON1_CLICKED |
                                BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                                | BUTTON5_PRESSED
#endif
                                )
                             : 0,
                          NULL);
            return TCL_OK;
        }
        if (objc != 2)
            return usage(tcl, "mouse", "?on|off?");
        Tcl_SetObjResult(tcl, Tcl_NewBooleanObj(s->mouse));
        return TCL_OK;
    case SUB_EDITING_MODE:
        if (objc == 3 && !screen_rl_set_mode(arg)) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "screen editing-mode: expected emacs or vi, got \"%s\"",
                arg));
            return TCL_ERROR;
        }
        if (objc > 3)
            return usage(tcl, "editing-mode", "?emacs|vi?");
        if (objc == 2)
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(screen_rl_mode(), -1));
        return TCL_OK;
    case SUB_REDRAW:
        if (s->active)
            clearok(curscr, TRUE);
        s->keyed = 1;
        return TCL_OK;
    case SUB_STATS:
        return cmd_stats(s, tcl);
    case SUB_FPS:
        if (objc == 2) {
            Tcl_SetObjResult(tcl, Tcl_NewIntObj((int)s->fps));
            return TCL_OK;
        }
        if (objc != 3 || Tcl_GetIntFromObj(NULL, objv[2], &n) != TCL_OK ||
            n < 1 || n > 1000)
            return usage(tcl, "fps", "?N? (1 to 1000 redraws a second)");
        s->fps = (unsigned int)n;
        return TCL_OK;
    case SUB_KEYNAME:
        if (objc != 3)
            return usage(tcl, "keyname", "KEY");
        if (!ui_keys_parse(arg, &key)) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "unknown key \"%s\" (keys are named like F5, S-F5, C-c, M-x, "
                "PageUp, S-Tab, Enter, a)",
                arg));
            return TCL_ERROR;
        }
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                                  ui_keys_name(&key, name, sizeof name), -1));
        return TCL_OK;
    }
    return TCL_ERROR;
}

const char *screen_cmd_binding(struct screen *s, const struct ui_key *k)
{
    char name[64];

    ui_keys_name(k, name, sizeof name);
    return Tcl_GetVar2(s->in->tcl, "::noosa::screen::bindings", name,
                       TCL_GLOBAL_ONLY);
}

/* bind: the bindings are the Tcl library's (tcl/screen.tcl), so that
 * start-up files set them in batch mode too. */
static int cmd_bind(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    Tcl_Obj **v = xreallocarray(NULL, (size_t)objc, sizeof *v);
    int i, rc;

    (void)cd;
    v[0] = Tcl_NewStringObj("::noosa::screen::bind", -1);
    for (i = 1; i < objc; i++)
        v[i] = objv[i];
    Tcl_IncrRefCount(v[0]);
    rc = Tcl_EvalObjv(tcl, objc, v, 0);
    Tcl_DecrRefCount(v[0]);
    free(v);
    return rc;
}

static const struct command commands[] = {
    {.name = "bind",
     .max_args = 3,
     .usage = "bind ?KEY? ?SCRIPT? ?HELP?",
     .summary = "bind a key of the screen to a script",
     .help = "Bind KEY to SCRIPT in the screen (HELP says what it does, in the help\n"
            "window); an empty SCRIPT unbinds it. With KEY alone, the script bound to\n"
            "it; without arguments, the bindings as a list KEY SCRIPT ...\n"
            "Keys are named F1 ... F12, S-F5 (Shift), C-F5, C-c (Control), M-x (Alt, or\n"
            "Esc first), C-M-x, PageUp, PageDown, Home, End, Up, Down, Left, Right,\n"
            "Insert, Delete, Tab, S-Tab, Enter, Esc, Backspace, Space, or a character.\n"
            "A binding applies in every pane, but a character typed on the command line\n"
            "or to the program is never taken by one. Example:\n"
            "  bind F8 {::noosa::cmd::stop} {interrupt the program}\n"
            "Bindings may be set in start-up files; they do nothing in batch mode.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_bind},
    {.name = "screen",
     .max_args = -1,
     .usage = "screen SUBCOMMAND ?ARG ...?",
     .summary = "what the keys of the screen do, as commands",
     .help = "What keys and windows do, as commands (for bindings and scripts):\n"
            "  screen focus ?next|prev|command|transcript|output|window?\n"
            "  screen window ?none|handlers|breakpoints|help|profile|questions|display?\n"
            "                                     (again: close)\n"
            "  screen select next|prev|none|N     screen open ?N?   (a value)\n"
            "  screen search ?-backward? ?-regexp? ?-nocase? PATTERN   screen search-next ?-reverse?\n"
            "  screen scroll ?-output? up|down|pageup|pagedown|home|end ?N?\n"
            "  screen toggle-break ?EVENT?        screen selected-event\n"
            "  screen edit EVENT HANDLER ?-inline?   (in $VISUAL, $EDITOR or inline)\n"
            "  screen interrupt                   screen quit ?-force?\n"
            "  screen output-height ?ROWS?        screen fps ?N?   (redraws a second)\n"
            "  screen mouse ?on|off?              screen editing-mode ?emacs|vi?\n"
            "  screen message TEXT                screen redraw\n"
            "  screen stats                       (draws, events, lines, memory)\n"
            "  screen keyname KEY                 (the canonical name of a key)",
     .complete = COMMAND_COMPLETE_SCREEN,
     .proc = cmd_screen},
    {0}};

void screen_cmd_register(struct interp *in)
{
    command_register(in, commands, NULL);
}

void screen_cmd_init(struct screen *s)
{
    Tcl_Interp *tcl = s->in->tcl;
    size_t i, n;

    for (n = 0; screen_windows[n] != NULL; n++)
        ;
    s->window_names = xcalloc(n + 2, sizeof *s->window_names);
    s->window_names[0] = "none";
    for (i = 0; i < n; i++)
        s->window_names[i + 1] = screen_windows[i]->name;

    command_set_data(s->in, "screen", s);
    if (Tcl_EvalEx(tcl, "::noosa::screen::init", -1, TCL_EVAL_GLOBAL) !=
        TCL_OK)
        interp_error(s->in, "the screen's Tcl library: %s",
                     Tcl_GetStringResult(tcl));
    Tcl_ResetResult(tcl);
}
