/* SPDX-License-Identifier: MIT */
/*
 * ui-term.c - the program's terminal over libvterm.  See ui-term.h.
 *
 * libvterm keeps the screen (both of them, with the alternate one) and
 * hands over each line that scrolls off the top of the main screen
 * (sb_pushline); those lines are kept here in a ring of our own cells,
 * trimmed of trailing blanks, and handed back when the screen grows
 * (sb_popline).  What libvterm has to say to the program goes to a
 * buffer that the pty drains.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "ui-term.h"
#include "xmalloc.h"

struct term_line {
    struct ui_term_cell *cells;
    int n;
};

struct ui_term {
    VTerm *vt;
    VTermScreen *vs;
    VTermState *st;
    int rows, cols;
    uint64_t bytes;
    int altscreen;
    int cursor_visible;

    struct term_line *sb; /* ring of sb_cap lines */
    size_t sb_cap;
    size_t sb_head;       /* slot of the oldest */
    size_t sb_n;
    uint64_t scrolled;
    int offset;           /* the view, rows up into the scrollback */

    char *out;            /* bytes for the program */
    size_t out_len, out_cap;
};

/* The 256-colour palette index nearest to R, G, B (the 6x6x6 cube or
 * the grey ramp). */
static int nearest(int r, int g, int b)
{
    static const int steps[6] = {0, 95, 135, 175, 215, 255};
    int ci[3], c[3] = {r, g, b}, i, k, best, d, grey, gi, gd, cd;

    for (i = 0; i < 3; i++) {
        best = 0;
        for (k = 1; k < 6; k++) {
            if (abs(steps[k] - c[i]) < abs(steps[best] - c[i]))
                best = k;
        }
        ci[i] = best;
    }
    cd = 0;
    for (i = 0; i < 3; i++) {
        d = steps[ci[i]] - c[i];
        cd += d * d;
    }
    grey = (r + g + b) / 3;
    gi = grey < 8 ? 0 : grey > 238 ? 23 : (grey - 8) / 10;
    gd = 0;
    for (i = 0; i < 3; i++) {
        d = 8 + 10 * gi - c[i];
        gd += d * d;
    }
    if (gd < cd)
        return 232 + gi;
    return 16 + 36 * ci[0] + 6 * ci[1] + ci[2];
}

static int16_t colour(const VTermColor *c, int fg)
{
    if (fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
        return -1;
    if (VTERM_COLOR_IS_INDEXED(c))
        return c->indexed.idx;
    return (int16_t)nearest(c->rgb.red, c->rgb.green, c->rgb.blue);
}

/* Our cell from libvterm's. */
static void from_vterm(struct ui_term_cell *d, const VTermScreenCell *c)
{
    int i;

    memset(d, 0, sizeof *d);
    for (i = 0; i < UI_TERM_CHARS - 1 && i < VTERM_MAX_CHARS_PER_CELL &&
                c->chars[i] != 0 && c->chars[i] != (uint32_t)-1;
         i++)
        d->chars[i] = c->chars[i];
    d->width = (int8_t)c->width;
    d->attrs = (uint8_t)((c->attrs.bold ? UI_TERM_BOLD : 0) |
                         (c->attrs.underline ? UI_TERM_UNDERLINE : 0) |
                         (c->attrs.italic ? UI_TERM_ITALIC : 0) |
                         (c->attrs.blink ? UI_TERM_BLINK : 0) |
                         (c->attrs.reverse ? UI_TERM_REVERSE : 0) |
                         (c->attrs.strike ? UI_TERM_STRIKE : 0));
    d->fg = colour(&c->fg, 1);
    d->bg = colour(&c->bg, 0);
}

/* libvterm's cell from ours (a line coming back from the scrollback). */
static void to_vterm(VTermScreenCell *d, const struct ui_term_cell *c)
{
    int i;

    memset(d, 0, sizeof *d);
    for (i = 0; i < UI_TERM_CHARS && c->chars[i] != 0; i++)
        d->chars[i] = c->chars[i];
    d->width = c->width;
    d->attrs.bold = (c->attrs & UI_TERM_BOLD) != 0;
    d->attrs.underline = (c->attrs & UI_TERM_UNDERLINE) != 0;
    d->attrs.italic = (c->attrs & UI_TERM_ITALIC) != 0;
    d->attrs.blink = (c->attrs & UI_TERM_BLINK) != 0;
    d->attrs.reverse = (c->attrs & UI_TERM_REVERSE) != 0;
    d->attrs.strike = (c->attrs & UI_TERM_STRIKE) != 0;
    if (c->fg < 0) {
        vterm_color_indexed(&d->fg, 7);
        d->fg.type |= VTERM_COLOR_DEFAULT_FG;
    } else {
        vterm_color_indexed(&d->fg, (uint8_t)c->fg);
    }
    if (c->bg < 0) {
        vterm_color_indexed(&d->bg, 0);
        d->bg.type |= VTERM_COLOR_DEFAULT_BG;
    } else {
        vterm_color_indexed(&d->bg, (uint8_t)c->bg);
    }
}

/* Whether libvterm's cell C shows nothing (a space without a background
 * or a line through it). */
static int vterm_blank(const VTermScreenCell *c)
{
    return (c->chars[0] == 0 || c->chars[0] == ' ') && c->width == 1 &&
           VTERM_COLOR_IS_DEFAULT_BG(&c->bg) && !c->attrs.reverse &&
           !c->attrs.underline && !c->attrs.strike;
}

static int sb_push(int cols, const VTermScreenCell *cells, void *user)
{
    struct ui_term *t = user;
    struct term_line *l;
    int n = cols, i;

    if (t->sb_cap == 0)
        return 1;
    if (t->sb_n == t->sb_cap) {
        l = &t->sb[t->sb_head]; /* the oldest makes room */
        t->sb_head = (t->sb_head + 1) % t->sb_cap;
        t->sb_n--;
    } else {
        l = &t->sb[(t->sb_head + t->sb_n) % t->sb_cap];
    }
    /* only up to the last cell that is not blank: lines are mostly
     * shorter than the terminal (and a flood of them is the cost) */
    while (n > 0 && vterm_blank(&cells[n - 1]))
        n--;
    if (n > l->n || l->cells == NULL)
        l->cells = xreallocarray(l->cells, (size_t)(n > 0 ? n : 1),
                                 sizeof *l->cells);
    for (i = 0; i < n; i++) {
        from_vterm(&l->cells[i], &cells[i]);
        if (i > 0 && l->cells[i - 1].width == 2)
            l->cells[i].width = 0;
    }
    l->n = n;
    t->sb_n++;
    t->scrolled++;
    if (t->offset > 0 && (size_t)t->offset < t->sb_n)
        t->offset++; /* the view stays on the lines it shows */
    return 1;
}

static int sb_pop(int cols, VTermScreenCell *cells, void *user)
{
    struct ui_term *t = user;
    struct term_line *l;
    struct ui_term_cell sp;
    int i;

    if (t->sb_n == 0)
        return 0;
    l = &t->sb[(t->sb_head + t->sb_n - 1) % t->sb_cap];
    memset(&sp, 0, sizeof sp);
    sp.width = 1;
    sp.fg = sp.bg = -1;
    for (i = 0; i < cols; i++)
        to_vterm(&cells[i], i < l->n ? &l->cells[i] : &sp);
    t->sb_n--;
    if ((size_t)t->offset > t->sb_n)
        t->offset = (int)t->sb_n;
    return 1;
}

static int settermprop(VTermProp prop, VTermValue *val, void *user)
{
    struct ui_term *t = user;

    switch (prop) {
    case VTERM_PROP_ALTSCREEN:
        t->altscreen = val->boolean;
        t->offset = 0;
        break;
    case VTERM_PROP_CURSORVISIBLE:
        t->cursor_visible = val->boolean;
        break;
    default:
        break;
    }
    return 1;
}

static void output(const char *s, size_t len, void *user)
{
    struct ui_term *t = user;

    if (t->out_len + len > t->out_cap) {
        t->out_cap = (t->out_len + len) * 2;
        t->out = xrealloc(t->out, t->out_cap);
    }
    memcpy(t->out + t->out_len, s, len);
    t->out_len += len;
}

static const VTermScreenCallbacks callbacks = {
    .settermprop = settermprop,
    .sb_pushline = sb_push,
    .sb_popline = sb_pop,
};

struct ui_term *ui_term_create(int rows, int cols, size_t max_scrollback)
{
    struct ui_term *t = xcalloc(1, sizeof *t);

    t->rows = rows > 0 ? rows : 1;
    t->cols = cols > 0 ? cols : 1;
    t->vt = vterm_new(t->rows, t->cols);
    if (t->vt == NULL)
        abort(); /* libvterm's allocation failed: as xmalloc's */
    vterm_set_utf8(t->vt, 1);
    vterm_output_set_callback(t->vt, output, t);
    t->vs = vterm_obtain_screen(t->vt);
    t->st = vterm_obtain_state(t->vt);
    vterm_screen_set_callbacks(t->vs, &callbacks, t);
    vterm_screen_set_damage_merge(t->vs, VTERM_DAMAGE_SCROLL);
    vterm_screen_enable_altscreen(t->vs, 1);
    vterm_screen_reset(t->vs, 1);
    t->cursor_visible = 1;
    t->sb_cap = max_scrollback;
    if (t->sb_cap > 0)
        t->sb = xcalloc(t->sb_cap, sizeof *t->sb);
    return t;
}

void ui_term_free(struct ui_term *t)
{
    size_t i;

    if (t == NULL)
        return;
    vterm_free(t->vt);
    for (i = 0; i < t->sb_cap; i++)
        free(t->sb[i].cells);
    free(t->sb);
    free(t->out);
    free(t);
}

void ui_term_feed(struct ui_term *t, const char *data, size_t len)
{
    t->bytes += len;
    vterm_input_write(t->vt, data, len);
    vterm_screen_flush_damage(t->vs);
}

uint64_t ui_term_bytes(const struct ui_term *t)
{
    return t->bytes;
}

void ui_term_resize(struct ui_term *t, int rows, int cols)
{
    if (rows <= 0 || cols <= 0 || (rows == t->rows && cols == t->cols))
        return;
    t->rows = rows;
    t->cols = cols;
    vterm_set_size(t->vt, rows, cols);
    vterm_screen_flush_damage(t->vs);
}

int ui_term_rows(const struct ui_term *t)
{
    return t->rows;
}

int ui_term_cols(const struct ui_term *t)
{
    return t->cols;
}

size_t ui_term_scrollback(const struct ui_term *t)
{
    return t->sb_n;
}

uint64_t ui_term_scrolled(const struct ui_term *t)
{
    return t->scrolled;
}

int ui_term_altscreen(const struct ui_term *t)
{
    return t->altscreen;
}

int ui_term_row(const struct ui_term *t, int row, struct ui_term_cell *cells,
                int cols)
{
    struct ui_term_cell sp;
    int i;

    if (row >= t->rows || row < -(int)t->sb_n)
        return -1;
    memset(&sp, 0, sizeof sp);
    sp.width = 1;
    sp.fg = sp.bg = -1;
    if (row < 0) {
        const struct term_line *l =
            &t->sb[(t->sb_head + t->sb_n + (size_t)row) % t->sb_cap];

        for (i = 0; i < cols; i++)
            cells[i] = i < l->n ? l->cells[i] : sp;
        /* a wide character cut at the right edge */
        if (cols > 0 && cells[cols - 1].width == 2)
            cells[cols - 1] = sp;
        return 0;
    }
    for (i = 0; i < cols; i++) {
        VTermScreenCell c;
        VTermPos pos = {.row = row, .col = i};

        if (i >= t->cols || !vterm_screen_get_cell(t->vs, pos, &c))
            cells[i] = sp;
        else
            from_vterm(&cells[i], &c);
        if (i > 0 && cells[i - 1].width == 2)
            cells[i].width = 0; /* the right half of a wide character */
    }
    if (cols > 0 && cols < t->cols && cells[cols - 1].width == 2)
        cells[cols - 1] = sp;
    return 0;
}

/* Put the code point C as UTF-8 at *N in BUF of SIZE (room kept for the
 * terminating byte). */
static void put_utf8(char *buf, size_t size, size_t *n, uint32_t c)
{
    char tmp[4];
    size_t k;

    if (c < 0x80) {
        tmp[0] = (char)c;
        k = 1;
    } else if (c < 0x800) {
        tmp[0] = (char)(0xc0 | (c >> 6));
        tmp[1] = (char)(0x80 | (c & 0x3f));
        k = 2;
    } else if (c < 0x10000) {
        tmp[0] = (char)(0xe0 | (c >> 12));
        tmp[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        tmp[2] = (char)(0x80 | (c & 0x3f));
        k = 3;
    } else {
        tmp[0] = (char)(0xf0 | (c >> 18));
        tmp[1] = (char)(0x80 | ((c >> 12) & 0x3f));
        tmp[2] = (char)(0x80 | ((c >> 6) & 0x3f));
        tmp[3] = (char)(0x80 | (c & 0x3f));
        k = 4;
    }
    if (*n + k < size) {
        memcpy(buf + *n, tmp, k);
        *n += k;
    }
}

size_t ui_term_row_text(const struct ui_term *t, int row, char *buf,
                        size_t size)
{
    int cols = t->cols, i, j, end;
    struct ui_term_cell *cells;
    size_t n = 0;

    if (size == 0)
        return 0;
    buf[0] = '\0';
    if (row < 0 && row >= -(int)t->sb_n) {
        const struct term_line *l =
            &t->sb[(t->sb_head + t->sb_n + (size_t)row) % t->sb_cap];

        if (l->n > cols)
            cols = l->n;
    }
    cells = xcalloc((size_t)cols, sizeof *cells);
    if (ui_term_row(t, row, cells, cols) != 0) {
        free(cells);
        return 0;
    }
    end = cols;
    while (end > 0 && (cells[end - 1].chars[0] == 0 ||
                       cells[end - 1].chars[0] == ' '))
        end--;
    for (i = 0; i < end; i++) {
        if (cells[i].width == 0 && i > 0 && cells[i - 1].width == 2)
            continue;
        if (cells[i].chars[0] == 0)
            put_utf8(buf, size, &n, ' ');
        for (j = 0; j < UI_TERM_CHARS && cells[i].chars[j] != 0; j++)
            put_utf8(buf, size, &n, cells[i].chars[j]);
    }
    buf[n] = '\0';
    free(cells);
    return n;
}

void ui_term_cursor(const struct ui_term *t, int *row, int *col,
                    int *visible)
{
    VTermPos pos;

    vterm_state_get_cursorpos(t->st, &pos);
    *row = pos.row;
    *col = pos.col;
    *visible = t->cursor_visible;
}

int ui_term_offset(const struct ui_term *t)
{
    return t->offset;
}

void ui_term_scroll(struct ui_term *t, int n)
{
    long o = (long)t->offset - n;

    if (t->altscreen || o < 0)
        o = 0;
    if ((size_t)o > t->sb_n)
        o = (long)t->sb_n;
    t->offset = (int)o;
}

void ui_term_scroll_end(struct ui_term *t)
{
    t->offset = 0;
}

void ui_term_char(struct ui_term *t, uint32_t c, int mod)
{
    vterm_keyboard_unichar(t->vt, c, (VTermModifier)mod);
}

void ui_term_key(struct ui_term *t, VTermKey key, int mod)
{
    vterm_keyboard_key(t->vt, key, (VTermModifier)mod);
}

void ui_term_paste(struct ui_term *t, const char *text, size_t len)
{
    vterm_keyboard_start_paste(t->vt);
    output(text, len, t);
    vterm_keyboard_end_paste(t->vt);
}

size_t ui_term_output(struct ui_term *t, char *buf, size_t size)
{
    size_t n = t->out_len < size ? t->out_len : size;

    memcpy(buf, t->out, n);
    memmove(t->out, t->out + n, t->out_len - n);
    t->out_len -= n;
    return n;
}
