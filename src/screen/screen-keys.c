/* SPDX-License-Identifier: MIT */
/*
 * screen-keys.c - what keys and the mouse do.  Keys go, in order, to: a
 * question on the bottom line, the inline editor, a prompt on the command
 * line, the key bindings (`bind`; a printable character typed on the
 * command line is never taken by a binding; in the output pane only
 * function keys and C-c are), and the pane that has the focus: the
 * command line (readline), the transcript (scrolling, values, search),
 * the output pane (the program's terminal: keys as a terminal sends
 * them, C-] back to the command line) or the window.  A mouse click
 * chooses a pane, opens a value, chooses in a window; the wheel scrolls.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "screen.h"

/* A key for the transcript pane; 0 when it has no meaning there. */
static int transcript_key(struct screen *s, const struct ui_key *k)
{
    struct ui_tview *v = &s->tv;
    int c = k->fn ? 0 : k->code;

    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_tview_scroll(v, -1);
            return 1;
        case KEY_DOWN:
            ui_tview_scroll(v, 1);
            return 1;
        case KEY_PPAGE:
            ui_tview_page(v, -1);
            return 1;
        case KEY_NPAGE:
            ui_tview_page(v, 1);
            return 1;
        case KEY_HOME:
            ui_tview_home(v);
            return 1;
        case KEY_END:
            ui_tview_end(v);
            return 1;
        case KEY_BTAB:
            if (ui_tview_select(v, -1) == 0)
                screen_message(s, 0, "No value before this one.");
            return 1;
        case KEY_ENTER:
            screen_open_value(s, 0);
            return 1;
        default:
            return 0;
        }
    }
    switch (c) {
    case 'k':
        ui_tview_scroll(v, -1);
        return 1;
    case 'j':
        ui_tview_scroll(v, 1);
        return 1;
    case 'b':
        ui_tview_page(v, -1);
        return 1;
    case ' ':
        ui_tview_page(v, 1);
        return 1;
    case 'g':
    case '<':
        ui_tview_home(v);
        return 1;
    case 'G':
    case '>':
        ui_tview_end(v);
        return 1;
    case '\t':
        if (ui_tview_select(v, 1) == 0)
            screen_message(s, 0, "No value after this one.");
        return 1;
    case '\r':
    case '\n':
        screen_open_value(s, 0);
        return 1;
    case '/':
    case 19: /* C-s */
        screen_rl_prompt(s, SCREEN_PROMPT_SEARCH, "/", "");
        return 1;
    case '?':
    case 18: /* C-r */
        screen_rl_prompt(s, SCREEN_PROMPT_SEARCH_BACK, "?", "");
        return 1;
    case 'n':
        screen_search_next(s, 0);
        return 1;
    case 'N':
        screen_search_next(s, 1);
        return 1;
    case 27:
        ui_tview_unselect(v);
        ui_tview_clear_match(v);
        s->focus = UI_PANE_COMMAND;
        return 1;
    default:
        return 0;
    }
}

/* The terminal key for the curses function key CODE, with its
 * modifiers in *MOD; VTERM_KEY_NONE when it has none. */
static VTermKey term_key(int code, int *mod)
{
    switch (code) {
    case KEY_UP:
        return VTERM_KEY_UP;
    case KEY_DOWN:
        return VTERM_KEY_DOWN;
    case KEY_LEFT:
        return VTERM_KEY_LEFT;
    case KEY_RIGHT:
        return VTERM_KEY_RIGHT;
    case KEY_SLEFT:
        *mod |= VTERM_MOD_SHIFT;
        return VTERM_KEY_LEFT;
    case KEY_SRIGHT:
        *mod |= VTERM_MOD_SHIFT;
        return VTERM_KEY_RIGHT;
    case KEY_HOME:
        return VTERM_KEY_HOME;
    case KEY_END:
        return VTERM_KEY_END;
    case KEY_PPAGE:
        return VTERM_KEY_PAGEUP;
    case KEY_NPAGE:
        return VTERM_KEY_PAGEDOWN;
    case KEY_IC:
        return VTERM_KEY_INS;
    case KEY_DC:
        return VTERM_KEY_DEL;
    case KEY_BACKSPACE:
        return VTERM_KEY_BACKSPACE;
    case KEY_ENTER:
        return VTERM_KEY_ENTER;
    case KEY_BTAB:
        *mod |= VTERM_MOD_SHIFT;
        return VTERM_KEY_TAB;
    default:
        break;
    }
    if (code >= KEY_F(1) && code <= KEY_F(12))
        return VTERM_KEY_FUNCTION(code - KEY_F(0));
    if (code >= KEY_F(13) && code <= KEY_F(24)) {
        *mod |= VTERM_MOD_SHIFT; /* curses' shifted function keys */
        return VTERM_KEY_FUNCTION(code - KEY_F(12));
    }
    return VTERM_KEY_NONE;
}

/* A key for the output pane: it goes to the program (as its terminal
 * encodes it), but for leaving the pane and scrolling its scrollback. */
static void output_key(struct screen *s, const struct ui_key *k)
{
    int mod = k->meta ? VTERM_MOD_ALT : 0;
    VTermKey key;

    if (!k->fn && !k->meta && k->code == SCREEN_OUTPUT_LEAVE) {
        s->focus = UI_PANE_COMMAND;
        return;
    }
    if (k->fn && (k->code == KEY_SPREVIOUS || k->code == KEY_SNEXT)) {
        ui_term_scroll(s->out, (k->code == KEY_SPREVIOUS ? -1 : 1) *
                                   (s->lay.output.h > 1 ? s->lay.output.h - 1
                                                        : 1));
        return;
    }
    if (k->fn) {
        key = term_key(k->code, &mod);
        if (key == VTERM_KEY_NONE)
            return;
        ui_term_key(s->out, key, mod);
    } else if (k->code >= 0 && k->code <= 0x10ffff) {
        ui_term_char(s->out, (uint32_t)k->code, mod);
    } else {
        return;
    }
    ui_term_scroll_end(s->out);
    screen_pty_flush_term(s);
}

/* Whether a binding takes key K while the output pane has the focus: a
 * function key, or C-c (noosa's interrupt); every other key is the
 * program's. */
static int output_binding(const struct ui_key *k)
{
    if (k->fn)
        return k->code >= KEY_F(1) && k->code <= KEY_F(24);
    return !k->meta && k->code == 3;
}

static void command_key(struct screen *s, const struct ui_key *k)
{
    int point;
    const char *line = screen_rl_line(&point);

    if (k->fn && !k->meta &&
        (k->code == KEY_PPAGE || k->code == KEY_NPAGE)) {
        ui_tview_page(&s->tv, k->code == KEY_PPAGE ? -1 : 1);
        return;
    }
    if (k->fn && !k->meta && k->code == KEY_END &&
        line[point] == '\0') {
        /* the cursor has nowhere further to go: End is the transcript's
         * ("more below (End)") */
        ui_tview_end(&s->tv);
        return;
    }
    if (!k->meta && ((!k->fn && k->code == '\t') ||
                     (k->fn && k->code == KEY_BTAB)) &&
        *line == '\0' && Tcl_DStringLength(&s->pending) == 0 &&
        ui_layout_has(&s->lay, UI_PANE_TRANSCRIPT)) {
        /* nothing typed: Tab goes to the values */
        s->focus = UI_PANE_TRANSCRIPT;
        if (ui_tview_select(&s->tv, k->fn ? -1 : 1) == 0)
            screen_message(s, 0, "No values on screen.");
        return;
    }
    screen_rl_key(s, k);
}

static void window_key(struct screen *s, const struct ui_key *k)
{
    const struct screen_window_ops *w = s->window;

    if (w != NULL && w->key(s, screen_window_state(s, w), k))
        return;
    if (!k->fn && !k->meta && (k->code == 27 || k->code == 'q')) {
        screen_open_window(s, NULL);
        return;
    }
    if (ui_keys_printable(k)) {
        s->focus = UI_PANE_COMMAND;
        screen_rl_key(s, k);
    }
}

static void answer(struct screen *s, const struct ui_key *k)
{
    int yes = !k->fn && !k->meta && (k->code == 'y' || k->code == 'Y');
    enum screen_ask what = s->ask;

    s->ask = SCREEN_ASK_NONE;
    free(s->ask_text);
    s->ask_text = NULL;
    s->dirty = 1;
    if (!yes) {
        if (what == SCREEN_ASK_CONFIRM)
            screen_message(s, 0, "Not confirmed: nothing done.");
        return;
    }
    switch (what) {
    case SCREEN_ASK_QUIT:
        s->quit = 1;
        break;
    case SCREEN_ASK_REMOVE_HANDLER:
        screen_handlers_remove(s);
        break;
    case SCREEN_ASK_CONFIRM:
        if (s->ask_script != NULL)
            screen_command(s, s->ask_script, 0);
        break;
    case SCREEN_ASK_NONE:
        break;
    }
}

/* Scroll the pane at Y, X by N rows (the mouse wheel). */
static void wheel(struct screen *s, enum ui_pane pane, int n)
{
    switch (pane) {
    case UI_PANE_TRANSCRIPT:
        ui_tview_scroll(&s->tv, n);
        break;
    case UI_PANE_OUTPUT:
        ui_term_scroll(s->out, n);
        break;
    case UI_PANE_WINDOW:
        if (s->window != NULL && s->window->wheel != NULL)
            s->window->wheel(s, screen_window_state(s, s->window), n);
        break;
    default:
        break;
    }
}

static void mouse(struct screen *s)
{
    MEVENT ev;
    enum ui_pane pane;
    uint64_t id;

    if (getmouse(&ev) != OK)
        return;
    pane = ui_layout_pane_at(&s->lay, ev.y, ev.x);
    if (ev.bstate & BUTTON4_PRESSED) {
        wheel(s, pane, -3);
        return;
    }
#ifdef BUTTON5_PRESSED
    if (ev.bstate & BUTTON5_PRESSED) {
        wheel(s, pane, 3);
        return;
    }
#endif
    if ((ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) == 0)
        return;
    if (s->edit != NULL || s->prompt != SCREEN_PROMPT_COMMAND)
        return;
    switch (pane) {
    case UI_PANE_TRANSCRIPT:
        s->focus = pane;
        id = ui_tview_value_at(&s->tv, ev.y - s->lay.transcript.y,
                               ev.x - s->lay.transcript.x);
        if (id != 0) {
            ui_tview_select_id(&s->tv, id);
            screen_open_value(s, id);
        }
        break;
    case UI_PANE_OUTPUT:
    case UI_PANE_COMMAND:
        s->focus = pane;
        break;
    case UI_PANE_WINDOW:
        s->focus = pane;
        if (ev.y < s->lay.window.y)
            break;
        if (s->window != NULL && s->window->click != NULL)
            s->window->click(s, screen_window_state(s, s->window),
                             ev.y - s->lay.window.y, ev.x - s->lay.window.x);
        break;
    default:
        break;
    }
}

/* What key K does. */
void screen_keys_key(struct screen *s, const struct ui_key *k)
{
    const char *script;

    if (k->fn && k->code == KEY_RESIZE)
        return; /* SIGWINCH comes through the signal pipe */
    s->dirty = 1;
    if (k->fn && k->code == KEY_MOUSE) {
        mouse(s);
        return;
    }
    if (s->ask != SCREEN_ASK_NONE) {
        answer(s, k);
        return;
    }
    free(s->message);
    s->message = NULL;
    if (s->edit != NULL) {
        screen_edit_key(s, k);
        return;
    }
    if (s->prompt != SCREEN_PROMPT_COMMAND) {
        if (!k->fn && !k->meta &&
            (k->code == 7 || k->code == 3 ||
             (k->code == 27 && strcmp(screen_rl_mode(), "emacs") == 0))) {
            screen_rl_cancel(s);
            return;
        }
        screen_rl_key(s, k);
        return;
    }
    script = screen_cmd_binding(s, k);
    if (script != NULL &&
        !(ui_keys_printable(k) && s->focus == UI_PANE_COMMAND) &&
        (s->focus != UI_PANE_OUTPUT || output_binding(k))) {
        screen_command(s, script, 0);
        return;
    }
    switch (s->focus) {
    case UI_PANE_TRANSCRIPT:
        if (transcript_key(s, k))
            return;
        if (ui_keys_printable(k) ||
            (!k->fn && (k->code == 127 || k->code == 8))) {
            s->focus = UI_PANE_COMMAND;
            screen_rl_key(s, k);
        }
        return;
    case UI_PANE_OUTPUT:
        output_key(s, k);
        return;
    case UI_PANE_WINDOW:
        window_key(s, k);
        return;
    default:
        command_key(s, k);
        return;
    }
}

void screen_keys_read(int fd, short revents, void *arg)
{
    struct screen *s = arg;
    struct ui_key keys[256];
    int n = 0, i;

    (void)fd;
    while (n < (int)(sizeof keys / sizeof keys[0])) {
        wint_t wc;
        int rc = get_wch(&wc);

        if (rc == ERR)
            break;
        keys[n].code = (int)wc;
        keys[n].fn = rc == KEY_CODE_YES;
        keys[n].meta = 0;
        n++;
    }
    if (n == 0 && (revents & (POLLHUP | POLLERR | POLLNVAL))) {
        /* the terminal is gone */
        s->active = 0;
        screen_request_quit(s, 0, 1);
        return;
    }
    for (i = 0; i < n && !s->quit; i++) {
        struct ui_key k = keys[i];

        /* Esc and a key read with it: Alt and that key, when that is
         * bound (else the two keys: Esc then a quickly typed key; the
         * bytes readline and the program get are the same either way) */
        if (!k.fn && k.code == 27 && i + 1 < n &&
            !(!keys[i + 1].fn && keys[i + 1].code == 27)) {
            struct ui_key alt = keys[i + 1];

            alt.meta = 1;
            if (screen_cmd_binding(s, &alt) != NULL ||
                s->focus == UI_PANE_COMMAND ||
                s->prompt != SCREEN_PROMPT_COMMAND) {
                k = alt;
                i++;
            }
        }
        screen_keys_key(s, &k);
        s->keyed = 1;
    }
}


int screen_list_key(struct ui_list *l, const struct ui_key *k)
{
    if (k->meta)
        return 0;
    if (k->fn) {
        switch (k->code) {
        case KEY_UP:
            ui_list_move(l, -1);
            return 1;
        case KEY_DOWN:
            ui_list_move(l, 1);
            return 1;
        case KEY_PPAGE:
            ui_list_page(l, -1);
            return 1;
        case KEY_NPAGE:
            ui_list_page(l, 1);
            return 1;
        case KEY_HOME:
            ui_list_select(l, 0);
            return 1;
        case KEY_END:
            ui_list_move(l, 1000000);
            return 1;
        default:
            return 0;
        }
    }
    switch (k->code) {
    case 'k':
        ui_list_move(l, -1);
        return 1;
    case 'j':
        ui_list_move(l, 1);
        return 1;
    default:
        return 0;
    }
}
