/* SPDX-License-Identifier: MIT */
/*
 * screen-draw.c - drawing the screen with curses from its models: the
 * status line, the transcript (values, the selection and the search
 * match highlighted), the program's output, the window, the command line
 * and the bottom line.  Everything is drawn from scratch into curses'
 * buffer and curses sends only what changed.
 *
 * Colours follow the terminal (its own foreground and background stay);
 * without colours, or with NO_COLOR set, attributes alone (underline,
 * reverse, bold) mark what colours would.  The program's own colours
 * (its terminal's cells, ui-term.h) are shown whenever the terminal has
 * colours, with NO_COLOR too (they are the program's, not noosa's), as
 * close as the terminal's palette allows: a colour pair for each
 * foreground and background in use (curses' alloc_pair).
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "clock.h"
#include "interp.h"
#include "noosa.h"
#include "screen.h"
#include "ui-text.h"
#include "xmalloc.h"

/* Rows of a pane drawn at most (terminals are smaller). */
#define MAX_ROWS 1000
/* Values looked at for one screenful of transcript. */
#define MAX_VALUES 1024

enum {
    PAIR_VALUE = 1,
    PAIR_MATCH,
    PAIR_ERROR,
    PAIR_STOP,
    PAIR_ECHO,
    PAIR_MARK
};

/* The attributes of each look; set once by screen_draw_init(). */
static attr_t looks[SCREEN_LOOK_MARK + 1];
/* The terminal has colours for the program's cells; set once by
 * screen_draw_init(). */
static int term_colors;

void screen_draw_init(struct screen *s)
{
    const char *no_color = getenv("NO_COLOR");

    s->color = has_colors() && (no_color == NULL || *no_color == '\0');
    term_colors = has_colors();
    if (term_colors) {
        start_color();
        use_default_colors();
    }
    if (s->color) {
        init_pair(PAIR_VALUE, COLOR_CYAN, -1);
        init_pair(PAIR_MATCH, COLOR_BLACK, COLOR_YELLOW);
        init_pair(PAIR_ERROR, COLOR_RED, -1);
        init_pair(PAIR_STOP, COLOR_YELLOW, -1);
        init_pair(PAIR_ECHO, COLOR_GREEN, -1);
        init_pair(PAIR_MARK, COLOR_MAGENTA, -1);
        looks[SCREEN_LOOK_VALUE] = COLOR_PAIR(PAIR_VALUE) | A_UNDERLINE;
        looks[SCREEN_LOOK_SELECTED] = COLOR_PAIR(PAIR_VALUE) | A_REVERSE;
        looks[SCREEN_LOOK_MATCH] = COLOR_PAIR(PAIR_MATCH);
        looks[SCREEN_LOOK_ERROR] = COLOR_PAIR(PAIR_ERROR) | A_BOLD;
        looks[SCREEN_LOOK_STOP] = COLOR_PAIR(PAIR_STOP) | A_BOLD;
        looks[SCREEN_LOOK_ECHO] = COLOR_PAIR(PAIR_ECHO);
        looks[SCREEN_LOOK_MARK] = COLOR_PAIR(PAIR_MARK) | A_BOLD;
    } else {
        looks[SCREEN_LOOK_VALUE] = A_UNDERLINE;
        looks[SCREEN_LOOK_SELECTED] = A_REVERSE;
        looks[SCREEN_LOOK_MATCH] = A_STANDOUT | A_BOLD;
        looks[SCREEN_LOOK_ERROR] = A_BOLD;
        looks[SCREEN_LOOK_STOP] = A_BOLD;
        looks[SCREEN_LOOK_ECHO] = A_NORMAL;
        looks[SCREEN_LOOK_MARK] = A_BOLD;
    }
    looks[SCREEN_LOOK_TITLE] = A_BOLD;
    looks[SCREEN_LOOK_TITLE_FOCUS] = A_REVERSE | A_BOLD;
    looks[SCREEN_LOOK_STATUS] = A_REVERSE;
}

int screen_look(const struct screen *s, enum screen_look look)
{
    (void)s;
    return (int)looks[look];
}

/* Draw the character WC, CW columns wide, at Y, X. */
static void put_char(int y, int x, uint32_t wc, int cw)
{
    if (wc == '\t') {
        mvhline(y, x, ' ', cw);
    } else if (!ui_text_printable(wc)) {
        mvaddch(y, x, '?');
    } else if (wc < 0x80) {
        mvaddch(y, x, (chtype)wc);
    } else {
        wchar_t w[2];
        cchar_t cc;
        attr_t a;
        short pair;

        w[0] = (wchar_t)wc;
        w[1] = 0;
        attr_get(&a, &pair, NULL);
        setcchar(&cc, w, a, pair, NULL);
        mvadd_wch(y, x, &cc);
    }
}

/* Draw S[START..END) at Y, X in at most W columns, the character at
 * byte OFF with the attribute AT(OFF, ARG) (or ATTR when AT is NULL).
 * Returns the columns used. */
static int draw_chars(int y, int x, int w, const char *s, size_t start,
                      size_t end, attr_t (*at)(size_t, void *), void *arg,
                      attr_t attr)
{
    size_t i = start;
    int col = 0;

    attrset(attr);
    while (i < end) {
        uint32_t wc;
        size_t len = ui_text_decode(s + i, end - i, &wc);
        int cw = ui_text_cell_width(wc, col, w);

        if (col + cw > w)
            break;
        if (at != NULL)
            attrset(at(i, arg));
        if (cw > 0)
            put_char(y, x + col, wc, cw);
        col += cw;
        i += len;
    }
    attrset(A_NORMAL);
    return col;
}

int screen_draw_text(int y, int x, int w, const char *text, size_t n,
                     int attr)
{
    if (w <= 0)
        return 0;
    return draw_chars(y, x, w, text, 0, n, NULL, NULL, (attr_t)attr);
}

void screen_draw_title(struct screen *s, const struct ui_rect *r,
                       const char *title, int focused)
{
    attr_t a = looks[focused ? SCREEN_LOOK_TITLE_FOCUS : SCREEN_LOOK_TITLE];
    int used;

    (void)s;
    attrset(a);
    mvhline(r->y, r->x, ACS_HLINE, r->w);
    attrset(A_NORMAL);
    used = screen_draw_text(r->y, r->x + 2, r->w - 4, title, strlen(title),
                            (int)a);
    (void)used;
}

/* The state for the status line. */
static void state_text(struct screen *s, char *buf, size_t size)
{
    struct interp *in = s->in;
    int status, signo;
    char sig[32];

    switch (session_state(in->session)) {
    case SESSION_IDLE:
        if (session_replaying(in->session) &&
            session_ended(in->session, &status, &signo) == 2) {
            snprintf(buf, size, "play ended at event %llu",
                     (unsigned long long)noosa_event_at(in->noosa));
        } else if (session_replaying(in->session) &&
                   session_ended(in->session, &status, &signo)) {
            snprintf(buf, size, "played to the end");
        } else if (session_ended(in->session, &status, &signo)) {
            if (signo != 0)
                snprintf(buf, size, "killed by %s",
                         target_signal_name(signo, sig, sizeof sig));
            else
                snprintf(buf, size, "exited with status %d", status);
        } else {
            interp_idle_state(in, buf, size);
        }
        break;
    case SESSION_RUNNING:
        snprintf(buf, size, session_replaying(in->session) ? "playing"
                                                            : "running");
        break;
    case SESSION_STOPPED:
        snprintf(buf, size, "stopped at %s",
                 in->noosa->where != NULL ? in->noosa->where : "?");
        break;
    }
}

static void rate_text(double rate, char *buf, size_t size)
{
    if (rate < 1000)
        snprintf(buf, size, "%.0f ev/s", rate);
    else if (rate < 1e6)
        snprintf(buf, size, "%.1fk ev/s", rate / 1e3);
    else
        snprintf(buf, size, "%.1fM ev/s", rate / 1e6);
}

static void draw_status(struct screen *s)
{
    struct interp *in = s->in;
    char *const *argv = session_argv(in->session);
    struct breaks_info info;
    Tcl_DString prog, rest;
    char state[512], num[64], *base;
    unsigned int i;
    int nbreaks = 0, cols = s->lay.status.w, room;

    Tcl_DStringInit(&prog);
    Tcl_DStringInit(&rest);
    if (argv[0] != NULL) {
        char *copy = xstrdup(argv[0]);

        base = basename(copy);
        Tcl_DStringAppend(&prog, base, -1);
        free(copy);
        for (i = 1; argv[i] != NULL; i++) {
            Tcl_DStringAppend(&prog, " ", 1);
            Tcl_DStringAppend(&prog, argv[i], -1);
        }
    } else {
        Tcl_DStringAppend(&prog, "(no program)", -1);
    }
    if (session_pid(in->session) > 0) {
        /* <design#processes>: the current process, of how many */
        if (session_multi(in->session))
            snprintf(num, sizeof num, "  pid %d of %u processes",
                     (int)session_pid(in->session),
                     session_live(in->session));
        else
            snprintf(num, sizeof num, "  pid %d",
                     (int)session_pid(in->session));
        Tcl_DStringAppend(&rest, num, -1);
    }
    state_text(s, state, sizeof state);
    Tcl_DStringAppend(&rest, "  ", 2);
    Tcl_DStringAppend(&rest, state, -1);
    {
        /* <design#replay>: where the play of a recording stands */
        struct noosa_position pos;
        char at[32], line[128];

        if (noosa_position(in->noosa, &pos) &&
            session_state(in->session) == SESSION_STOPPED) {
            clock_format(pos.ns, at, sizeof at);
            snprintf(line, sizeof line, "  event %llu of %llu, %s",
                     (unsigned long long)pos.event,
                     (unsigned long long)pos.count, at);
            Tcl_DStringAppend(&rest, line, -1);
        }
    }
    if (session_state(in->session) == SESSION_RUNNING || s->rate != 0) {
        rate_text(s->rate, num, sizeof num);
        Tcl_DStringAppend(&rest, "  ", 2);
        Tcl_DStringAppend(&rest, num, -1);
    }
    for (i = 0; breaks_get(in->breaks, i, &info); i++)
        nbreaks += info.enabled;
    if (nbreaks > 0) {
        snprintf(num, sizeof num, "  %d breakpoint%s", nbreaks,
                 nbreaks == 1 ? "" : "s");
        Tcl_DStringAppend(&rest, num, -1);
    }
    /* where the keys go, when not to the command line */
    if (s->focus == UI_PANE_OUTPUT) {
        /* to the program: say how to get them back */
        Tcl_DStringAppend(&rest, "  keys: the program, "
                                 SCREEN_OUTPUT_LEAVE_NAME ": back to noosa",
                          -1);
    } else if (s->focus == UI_PANE_TRANSCRIPT) {
        Tcl_DStringAppend(&rest, "  keys: the transcript, Esc: back", -1);
    } else if (s->focus == UI_PANE_WINDOW && s->window != NULL) {
        snprintf(num, sizeof num, "  keys: the %s window, Esc: back",
                 s->window->name);
        Tcl_DStringAppend(&rest, num, -1);
    }

    attrset(looks[SCREEN_LOOK_STATUS]);
    mvhline(0, 0, ' ', cols);
    /* the program and its arguments give way to the state */
    room = cols - 1 - ui_text_columns(Tcl_DStringValue(&rest),
                                      (size_t)Tcl_DStringLength(&rest));
    if (room < 12)
        room = 12;
    if (ui_text_columns(Tcl_DStringValue(&prog),
                        (size_t)Tcl_DStringLength(&prog)) > room) {
        int used = screen_draw_text(0, 1, room - 3, Tcl_DStringValue(&prog),
                                    (size_t)Tcl_DStringLength(&prog),
                                    (int)looks[SCREEN_LOOK_STATUS]);

        screen_draw_text(0, 1 + used, 3, "...", 3,
                         (int)looks[SCREEN_LOOK_STATUS]);
        room = used + 3;
    } else {
        room = screen_draw_text(0, 1, room, Tcl_DStringValue(&prog),
                                (size_t)Tcl_DStringLength(&prog),
                                (int)looks[SCREEN_LOOK_STATUS]);
    }
    screen_draw_text(0, 1 + room, cols - 1 - room, Tcl_DStringValue(&rest),
                     (size_t)Tcl_DStringLength(&rest),
                     (int)looks[SCREEN_LOOK_STATUS]);
    attrset(A_NORMAL);
    Tcl_DStringFree(&prog);
    Tcl_DStringFree(&rest);
}

/* What a transcript row's characters look like. */
struct row_looks {
    const struct screen *s;
    const struct ui_tview_row *row;
    const struct tr_value **values;
    size_t nvalues;
    attr_t base;
};

static attr_t transcript_at(size_t off, void *arg)
{
    struct row_looks *rl = arg;
    const struct ui_tview *v = &rl->s->tv;
    size_t i;

    if (v->match && v->match_line == rl->row->line && off >= v->match_col &&
        off < (size_t)v->match_col + v->match_len)
        return looks[SCREEN_LOOK_MATCH];
    for (i = 0; i < rl->nvalues; i++) {
        const struct tr_value *val = rl->values[i];

        if (val->line == rl->row->line && off >= val->col &&
            off < (size_t)val->col + val->len)
            return looks[val->id == v->selected ? SCREEN_LOOK_SELECTED
                                                : SCREEN_LOOK_VALUE];
    }
    return rl->base;
}

/* How a whole transcript line looks, from how it starts. */
static attr_t line_look(const char *text, size_t len)
{
#define STARTS(p) (len >= sizeof(p) - 1 && memcmp(text, p, sizeof(p) - 1) == 0)
    if (STARTS("error:"))
        return looks[SCREEN_LOOK_ERROR];
    if (STARTS("Stopped at ") || STARTS("Program "))
        return looks[SCREEN_LOOK_STOP];
    if (STARTS("(noosa) "))
        return looks[SCREEN_LOOK_ECHO];
    return A_NORMAL;
#undef STARTS
}

static void draw_transcript(struct screen *s)
{
    static struct ui_tview_row rows[MAX_ROWS];
    static const struct tr_value *values[MAX_VALUES];
    const struct ui_rect *r = &s->lay.transcript;
    struct row_looks rl;
    size_t n, i, nvalues = 0;

    if (r->h <= 0)
        return;
    ui_tview_update(&s->tv);
    n = ui_tview_rows(&s->tv, rows, MAX_ROWS);
    if (n > 0)
        nvalues = transcript_values_in(s->in->transcript, rows[0].line,
                                       rows[n - 1].line, values, MAX_VALUES);
    rl.s = s;
    for (i = 0; i < n; i++) {
        size_t j, k = 0;

        rl.row = &rows[i];
        rl.base = line_look(rows[i].text, rows[i].len);
        /* the values of this line, for the look of each character */
        for (j = 0; j < nvalues; j++) {
            if (values[j]->line == rows[i].line)
                k++;
        }
        rl.values = values;
        rl.nvalues = nvalues;
        if (k == 0 && !(s->tv.match && s->tv.match_line == rows[i].line)) {
            draw_chars(r->y + (int)i, r->x, r->w, rows[i].text,
                       rows[i].start, rows[i].end, NULL, NULL, rl.base);
            continue;
        }
        draw_chars(r->y + (int)i, r->x, r->w, rows[i].text, rows[i].start,
                   rows[i].end, transcript_at, &rl, rl.base);
    }
}

/* The red, green and blue of colour C of the 256-colour palette. */
static void palette_rgb(int c, int rgb[3])
{
    static const int steps[6] = {0, 95, 135, 175, 215, 255};
    int i;

    if (c < 16) {
        int v = c >= 8 ? 255 : 192;

        for (i = 0; i < 3; i++)
            rgb[i] = (c & (1 << i)) ? v : (c == 8 ? 128 : 0);
        return;
    }
    if (c >= 232) {
        rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
        return;
    }
    c -= 16;
    rgb[0] = steps[c / 36];
    rgb[1] = steps[(c / 6) % 6];
    rgb[2] = steps[c % 6];
}

/* The curses colour for colour C of the program's terminal (-1: the
 * default), brought into the terminal's palette; a bright colour on
 * eight colours is the plain one, bold when BOLD is not NULL. */
static int term_colour(int c, attr_t *bold)
{
    int rgb[3], i, k = 0;

    if (c < 0 || c < COLORS)
        return c;
    if (c < 16) {
        if (bold != NULL)
            *bold |= A_BOLD;
        return c - 8 < COLORS ? c - 8 : -1;
    }
    palette_rgb(c, rgb);
    for (i = 0; i < 3; i++) {
        if (rgb[i] > 127)
            k |= 1 << i; /* COLOR_RED 1, COLOR_GREEN 2, COLOR_BLUE 4 */
    }
    return k < COLORS ? k : -1;
}

/* Draw the cells of a row of the program's terminal at Y, X. */
static void draw_term_row(int y, int x, const struct ui_term_cell *cells,
                          int n)
{
    static int last_fg = -2, last_bg = -2, last_pair;
    int i, j;

    for (i = 0; i < n; i++) {
        const struct ui_term_cell *c = &cells[i];
        wchar_t w[UI_TERM_CHARS + 1];
        attr_t a = A_NORMAL;
        cchar_t cc;
        int pair = 0, fg, bg;

        if (c->width == 0 && i > 0 && cells[i - 1].width == 2)
            continue; /* the right half of a wide character */
        for (j = 0; j < UI_TERM_CHARS && c->chars[j] != 0; j++)
            w[j] = ui_text_printable(c->chars[j]) || j > 0
                       ? (wchar_t)c->chars[j]
                       : L'?';
        if (j == 0)
            w[j++] = L' ';
        w[j] = 0;
        if (c->attrs & UI_TERM_BOLD)
            a |= A_BOLD;
        if (c->attrs & UI_TERM_UNDERLINE)
            a |= A_UNDERLINE;
        if (c->attrs & UI_TERM_ITALIC)
            a |= A_ITALIC;
        if (c->attrs & UI_TERM_BLINK)
            a |= A_BLINK;
        if (c->attrs & UI_TERM_REVERSE)
            a |= A_REVERSE;
        if (term_colors && (c->fg >= 0 || c->bg >= 0)) {
            fg = term_colour(c->fg, &a);
            bg = term_colour(c->bg, NULL);
            if (fg != last_fg || bg != last_bg) {
                last_pair = alloc_pair(fg, bg);
                last_fg = fg;
                last_bg = bg;
            }
            pair = last_pair > 0 ? last_pair : 0;
        }
        setcchar(&cc, w, a, (short)pair, NULL);
        mvadd_wch(y, x + i, &cc);
    }
}

static void draw_output(struct screen *s)
{
    static struct ui_term_cell *cells;
    static int ncells;
    const struct ui_rect *r = &s->lay.output;
    const char *elsewhere = screen_pty_elsewhere(s);
    char title[160];
    int focused = s->focus == UI_PANE_OUTPUT, offset, i;

    offset = ui_term_offset(s->out);
    if (elsewhere != NULL)
        snprintf(title, sizeof title, " Output: the program's terminal is %s ",
                 elsewhere);
    else if (focused && offset > 0)
        snprintf(title, sizeof title,
                 " Output: %d lines up (S-PgDn); keys go to the program, "
                 SCREEN_OUTPUT_LEAVE_NAME " leaves ",
                 offset);
    else if (focused)
        snprintf(title, sizeof title,
                 " Output: keys go to the program; "
                 SCREEN_OUTPUT_LEAVE_NAME " leaves ");
    else if (offset > 0)
        snprintf(title, sizeof title, " Output of the program: %d lines up ",
                 offset);
    else
        snprintf(title, sizeof title, " Output of the program ");
    screen_draw_title(s, &s->lay.output_title, title, focused);
    if (s->lay.transcript.h > 0 && !ui_tview_at_end(&s->tv)) {
        /* on the transcript's lower edge: there is more below */
        const char *more = " transcript: more below (End, PageDown) ";
        int w = (int)strlen(more), room;

        room = s->lay.output_title.w - 2 - (2 + (int)strlen(title) + 1);
        if (w > room) {
            more = " more below (End, PageDown) ";
            w = (int)strlen(more);
        }
        if (w <= room)
            screen_draw_text(s->lay.output_title.y,
                             s->lay.output_title.w - w - 2, w, more,
                             (size_t)w, (int)looks[SCREEN_LOOK_TITLE_FOCUS]);
    }
    if (r->w > ncells) {
        cells = xreallocarray(cells, (size_t)r->w, sizeof *cells);
        ncells = r->w;
    }
    for (i = 0; i < r->h; i++) {
        if (ui_term_row(s->out, i - offset, cells, r->w) == 0)
            draw_term_row(r->y + i, r->x, cells, r->w);
    }
}

/* The cursor's place on the command line: its column. */
static int draw_command(struct screen *s)
{
    const struct ui_rect *r = &s->lay.command;
    const char *prompt = screen_rl_prompt_text(), *line;
    size_t plen = strlen(prompt), start = 0, i, k = 0;
    char *clean = xmalloc(plen + 1);
    int point, pw, cw, x;

    /* readline marks invisible parts of a prompt with \001 and \002 */
    for (i = 0; i < plen; i++) {
        if (prompt[i] != '\001' && prompt[i] != '\002')
            clean[k++] = prompt[i];
    }
    clean[k] = '\0';
    line = screen_rl_line(&point);
    pw = ui_text_columns(clean, k);
    cw = ui_text_columns(line, (size_t)point);
    x = 0;
    if (pw + cw < r->w - 1) {
        x = screen_draw_text(r->y, 0, r->w, clean, k,
                             screen_rl_vi_command()
                                 ? (int)looks[SCREEN_LOOK_TITLE_FOCUS]
                                 : (int)A_BOLD);
    } else {
        /* too long: show the end of the line up to the cursor */
        mvaddch(r->y, 0, '<');
        x = 1;
        while (start < (size_t)point &&
               ui_text_columns(line + start, (size_t)point - start) >
                   r->w - 3) {
            uint32_t wc;

            start += ui_text_decode(line + start, strlen(line + start), &wc);
        }
    }
    free(clean);
    cw = ui_text_columns(line + start, (size_t)point - start);
    screen_draw_text(r->y, x, r->w - x, line + start, strlen(line + start),
                     A_NORMAL);
    return x + cw < r->w ? x + cw : r->w - 1;
}

/* The short help for the pane with the focus. */
static const char *hint(struct screen *s)
{
    static char *keys;
    Tcl_Interp *tcl = s->in->tcl;

    if (s->edit != NULL)
        return "Editing: C-s or C-x saves, Esc cancels; arrows, Home, End, "
               "C-k";
    if (s->prompt != SCREEN_PROMPT_COMMAND)
        return "Enter accepts, C-g cancels";
    switch (s->focus) {
    case UI_PANE_TRANSCRIPT:
        return "Tab/S-Tab values  Enter opens  / ? search  n N again  "
               "PgUp PgDn Home End  Esc back";
    case UI_PANE_OUTPUT:
        return "Keys go to the program  " SCREEN_OUTPUT_LEAVE_NAME
               " back to the command line  S-PgUp S-PgDn scroll  F6 next "
               "pane  C-c stops it";
    case UI_PANE_WINDOW:
        if (s->window != NULL && s->window->hint != NULL)
            return s->window->hint;
        return "Up Down PgUp PgDn scroll  Esc closes";
    default:
        break;
    }
    if (s->keyed || keys == NULL) {
        if (Tcl_EvalEx(tcl, "::noosa::screen::hints", -1, TCL_EVAL_GLOBAL) ==
            TCL_OK) {
            free(keys);
            keys = xstrdup(Tcl_GetStringResult(tcl));
        }
        Tcl_ResetResult(tcl);
    }
    return keys != NULL ? keys : "";
}

static void draw_bottom(struct screen *s)
{
    const struct ui_rect *r = &s->lay.bottom;
    const struct tr_value *v;
    char *text;

    if (s->ask != SCREEN_ASK_NONE && s->ask_text != NULL) {
        screen_draw_text(r->y, 0, r->w, s->ask_text, strlen(s->ask_text),
                         (int)looks[SCREEN_LOOK_TITLE_FOCUS]);
        return;
    }
    if (s->message != NULL) {
        screen_draw_text(r->y, 0, r->w, s->message, strlen(s->message),
                         s->message_error ? (int)looks[SCREEN_LOOK_ERROR]
                                          : (int)A_BOLD);
        return;
    }
    v = ui_tview_selection(&s->tv);
    if (v != NULL && s->focus == UI_PANE_TRANSCRIPT) {
        char key[160];
        const char *desc;

        snprintf(key, sizeof key, "%s,desc", v->type);
        desc = Tcl_GetVar2(s->in->tcl, "n", key, TCL_GLOBAL_ONLY);
        text = xasprintf("[%llu] %s:%s%s%s", (unsigned long long)v->id,
                         v->type, v->value, desc != NULL ? " - " : "",
                         desc != NULL ? desc : "");
        screen_draw_text(r->y, 0, r->w, text, strlen(text),
                         (int)looks[SCREEN_LOOK_VALUE]);
        free(text);
        return;
    }
    text = xstrdup(hint(s));
    screen_draw_text(r->y, 0, r->w, text, strlen(text), A_NORMAL);
    free(text);
}

static void draw_window(struct screen *s)
{
    if (s->lay.window.h <= 0)
        return;
    if (s->edit != NULL) {
        screen_edit_draw(s);
        return;
    }
    if (s->window != NULL)
        s->window->draw(s, screen_window_state(s, s->window),
                        &s->lay.window_title, &s->lay.window);
}

/* Put the cursor where typing goes (COL: on the command line). */
static void place_cursor(struct screen *s, int col)
{
    int row, tcol, visible;

    if (s->edit != NULL)
        return; /* screen_edit_draw() placed it */
    if (s->focus == UI_PANE_OUTPUT && s->prompt == SCREEN_PROMPT_COMMAND &&
        s->ask == SCREEN_ASK_NONE) {
        /* the program's cursor, where the program wants it */
        ui_term_cursor(s->out, &row, &tcol, &visible);
        row += ui_term_offset(s->out);
        if (visible && row >= 0 && row < s->lay.output.h && tcol >= 0 &&
            tcol < s->lay.output.w) {
            curs_set(1);
            move(s->lay.output.y + row, s->lay.output.x + tcol);
            return;
        }
        curs_set(0);
        return;
    }
    if (s->focus == UI_PANE_COMMAND || s->prompt != SCREEN_PROMPT_COMMAND) {
        curs_set(1);
        move(s->lay.command.y, col);
        return;
    }
    curs_set(0);
}

void screen_draw(struct screen *s)
{
    int col;

    if (!s->active)
        return;
    erase();
    if (!s->lay.ok) {
        char msg[128];

        size_t at = 0, len;
        int y = 0;

        snprintf(msg, sizeof msg,
                 "noosa: the terminal is too small (%dx%d); the screen needs "
                 "%dx%d",
                 COLS, LINES, UI_LAYOUT_MIN_COLS, UI_LAYOUT_MIN_ROWS);
        len = strlen(msg);
        while (at < len && y < LINES) {
            size_t end = ui_text_row_end(msg, len, at, COLS), sp = end;

            /* break between words */
            while (end < len && sp > at && msg[sp - 1] != ' ')
                sp--;
            if (end < len && sp > at)
                end = sp;
            screen_draw_text(y++, 0, COLS, msg + at, end - at, A_BOLD);
            at = end;
        }
        curs_set(0);
        refresh();
        return;
    }
    draw_status(s);
    draw_transcript(s);
    draw_output(s);
    col = draw_command(s);
    draw_bottom(s);
    /* last: the inline editor leaves the cursor in its text */
    draw_window(s);
    place_cursor(s, col);
    refresh();
}
