/* SPDX-License-Identifier: MIT */
/*
 * ui-term.c - the program's terminal over libvterm.  See ui-term.h.
 *
 * libvterm's state layer parses what the program writes and keeps the
 * cursor, the modes, the scrolling region and the pen; it tells us what
 * to do to the cells (put a glyph, scroll or move a rectangle, erase),
 * and we keep the cells here: two screens (the main one and the
 * alternate one), each an array of rows, and the scrollback, a ring of
 * the lines that scrolled off the top of the main screen.  libvterm's own
 * screen layer would do the same, but a line scrolling off would cost a
 * copy of the whole screen and a conversion of each of its cells; here
 * scrolling the whole width moves row pointers, and a line goes to the
 * scrollback as a copy of its used part (<design#screen>: a program
 * flooding its terminal must not slow the event path down).
 *
 * What libvterm has to say to the program goes to a buffer that the pty
 * drains.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "ui-term.h"
#include "xmalloc.h"

struct term_line {
    struct ui_term_cell *cells;
    int n;   /* cells used */
    int cap; /* cells allocated */
};

/* A screen: ROWS rows of COLS cells (the terminal's size). */
struct term_screen {
    struct ui_term_cell **row;
};

struct ui_term {
    VTerm *vt;
    VTermState *st;
    int rows, cols;
    uint64_t bytes;
    struct term_screen screens[2]; /* the main one, the alternate one */
    int altscreen;                 /* the one shown is screens[1] */
    int cursor_visible;
    struct ui_term_cell pen;       /* what erasing and glyphs take */

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

static const struct ui_term_cell blank_cell = {.width = 1, .fg = -1, .bg = -1};

/* A blank with the pen's background (as erasing leaves). */
static struct ui_term_cell erased(const struct ui_term *t)
{
    struct ui_term_cell c = blank_cell;

    c.bg = t->pen.bg;
    return c;
}

static struct ui_term_cell **rows_of(struct ui_term *t)
{
    return t->screens[t->altscreen].row;
}

static void fill(struct ui_term_cell *cells, int n, struct ui_term_cell c)
{
    int i;

    for (i = 0; i < n; i++)
        cells[i] = c;
}

/* A row of the main screen goes to the scrollback (its used part). */
static void sb_push(struct ui_term *t, const struct ui_term_cell *cells)
{
    struct term_line *l;
    int n = t->cols;

    if (t->sb_cap == 0)
        return;
    if (t->sb_n == t->sb_cap) {
        l = &t->sb[t->sb_head]; /* the oldest makes room */
        t->sb_head = (t->sb_head + 1) % t->sb_cap;
        t->sb_n--;
    } else {
        l = &t->sb[(t->sb_head + t->sb_n) % t->sb_cap];
    }
    while (n > 0 && (cells[n - 1].chars[0] == 0 ||
                     cells[n - 1].chars[0] == ' ') &&
           cells[n - 1].width == 1 && cells[n - 1].bg < 0 &&
           (cells[n - 1].attrs & (UI_TERM_REVERSE | UI_TERM_UNDERLINE |
                                  UI_TERM_STRIKE)) == 0)
        n--;
    if (n > l->cap) {
        l->cells = xreallocarray(l->cells, (size_t)n, sizeof *l->cells);
        l->cap = n;
    }
    if (n > 0)
        memcpy(l->cells, cells, (size_t)n * sizeof *cells);
    l->n = n;
    t->sb_n++;
    t->scrolled++;
    if (t->offset > 0 && (size_t)t->offset < t->sb_n)
        t->offset++; /* the view stays on the lines it shows */
}

/* The latest line of the scrollback back into CELLS (COLS of them);
 * 0 when there is none. */
static int sb_pop(struct ui_term *t, struct ui_term_cell *cells, int cols)
{
    struct term_line *l;
    int i;

    if (t->sb_n == 0)
        return 0;
    l = &t->sb[(t->sb_head + t->sb_n - 1) % t->sb_cap];
    for (i = 0; i < cols; i++)
        cells[i] = i < l->n ? l->cells[i] : blank_cell;
    t->sb_n--;
    if ((size_t)t->offset > t->sb_n)
        t->offset = (int)t->sb_n;
    return 1;
}

static int putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
    struct ui_term *t = user;
    struct ui_term_cell *c;
    int i;

    if (pos.row < 0 || pos.row >= t->rows || pos.col < 0 ||
        pos.col >= t->cols)
        return 1;
    c = &rows_of(t)[pos.row][pos.col];
    *c = t->pen;
    for (i = 0; i < UI_TERM_CHARS - 1 && info->chars[i] != 0; i++)
        c->chars[i] = info->chars[i];
    c->chars[i] = 0;
    c->width = (int8_t)(info->width > 1 ? 2 : 1);
    if (info->width > 1 && pos.col + 1 < t->cols) {
        /* its right half */
        c[1] = t->pen;
        c[1].width = 0;
    }
    return 1;
}

static int movecursor(VTermPos pos, VTermPos oldpos, int visible, void *user)
{
    struct ui_term *t = user;

    (void)pos;
    (void)oldpos;
    t->cursor_visible = visible;
    return 1;
}

static int erase(VTermRect rect, int selective, void *user)
{
    struct ui_term *t = user;
    struct ui_term_cell **rows = rows_of(t), e = erased(t);
    int r;

    (void)selective; /* protected cells are not kept: all are erased */
    for (r = rect.start_row; r < rect.end_row && r < t->rows; r++) {
        if (r >= 0 && rect.start_col < rect.end_col)
            fill(rows[r] + rect.start_col, rect.end_col - rect.start_col, e);
    }
    return 1;
}

static int moverect(VTermRect dest, VTermRect src, void *user)
{
    struct ui_term *t = user;
    struct ui_term_cell **rows = rows_of(t);
    int h = src.end_row - src.start_row, w = src.end_col - src.start_col, i;

    if (w <= 0 || h <= 0)
        return 1;
    if (dest.start_row <= src.start_row) {
        for (i = 0; i < h; i++)
            memmove(rows[dest.start_row + i] + dest.start_col,
                    rows[src.start_row + i] + src.start_col,
                    (size_t)w * sizeof **rows);
    } else {
        for (i = h - 1; i >= 0; i--)
            memmove(rows[dest.start_row + i] + dest.start_col,
                    rows[src.start_row + i] + src.start_col,
                    (size_t)w * sizeof **rows);
    }
    return 1;
}

/* Scrolling the whole width: rows change places, the top ones of the
 * main screen going to the scrollback; anything else is left to
 * libvterm (moverect and erase). */
static int scrollrect(VTermRect rect, int downward, int rightward, void *user)
{
    struct ui_term *t = user;
    struct ui_term_cell **rows = rows_of(t), **tmp, *few[16];
    int h = rect.end_row - rect.start_row, n, i;

    if (rightward != 0 || rect.start_col != 0 || rect.end_col != t->cols ||
        h <= 0)
        return 0;
    n = downward > 0 ? downward : -downward;
    if (n > h)
        n = h;
    if (downward > 0 && rect.start_row == 0 && !t->altscreen) {
        for (i = 0; i < n; i++)
            sb_push(t, rows[i]);
    }
    if (n < h) {
        tmp = n <= 16 ? few : xmalloc((size_t)n * sizeof *tmp);
        if (downward > 0) {
            memcpy(tmp, rows + rect.start_row, (size_t)n * sizeof *tmp);
            memmove(rows + rect.start_row, rows + rect.start_row + n,
                    (size_t)(h - n) * sizeof *tmp);
            memcpy(rows + rect.end_row - n, tmp, (size_t)n * sizeof *tmp);
        } else {
            memcpy(tmp, rows + rect.end_row - n, (size_t)n * sizeof *tmp);
            memmove(rows + rect.start_row + n, rows + rect.start_row,
                    (size_t)(h - n) * sizeof *tmp);
            memcpy(rows + rect.start_row, tmp, (size_t)n * sizeof *tmp);
        }
        if (tmp != few)
            free(tmp);
    }
    /* the rows that came in are blank */
    for (i = 0; i < n; i++)
        fill(rows[downward > 0 ? rect.end_row - n + i : rect.start_row + i],
             t->cols, erased(t));
    return 1;
}

static int initpen(void *user)
{
    struct ui_term *t = user;

    t->pen = blank_cell;
    return 1;
}

static int setpenattr(VTermAttr attr, VTermValue *val, void *user)
{
    struct ui_term *t = user;
    int bit = 0;

    switch (attr) {
    case VTERM_ATTR_BOLD:
        bit = UI_TERM_BOLD;
        break;
    case VTERM_ATTR_UNDERLINE:
        bit = UI_TERM_UNDERLINE;
        break;
    case VTERM_ATTR_ITALIC:
        bit = UI_TERM_ITALIC;
        break;
    case VTERM_ATTR_BLINK:
        bit = UI_TERM_BLINK;
        break;
    case VTERM_ATTR_REVERSE:
        bit = UI_TERM_REVERSE;
        break;
    case VTERM_ATTR_STRIKE:
        bit = UI_TERM_STRIKE;
        break;
    case VTERM_ATTR_FOREGROUND:
        t->pen.fg = colour(&val->color, 1);
        return 1;
    case VTERM_ATTR_BACKGROUND:
        t->pen.bg = colour(&val->color, 0);
        return 1;
    default:
        return 1;
    }
    /* underline is a number (its kind), the others booleans */
    if (attr == VTERM_ATTR_UNDERLINE ? val->number != 0 : val->boolean)
        t->pen.attrs |= (uint8_t)bit;
    else
        t->pen.attrs &= (uint8_t)~bit;
    return 1;
}

static int settermprop(VTermProp prop, VTermValue *val, void *user)
{
    struct ui_term *t = user;

    switch (prop) {
    case VTERM_PROP_ALTSCREEN:
        /* libvterm erases the alternate screen as it comes in */
        t->altscreen = val->boolean != 0;
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

/* Rows of COLS blank cells for a screen of ROWS. */
static struct ui_term_cell **new_rows(int rows, int cols)
{
    struct ui_term_cell **r = xcalloc((size_t)rows, sizeof *r);
    int i;

    for (i = 0; i < rows; i++) {
        r[i] = xmalloc((size_t)cols * sizeof **r);
        fill(r[i], cols, blank_cell);
    }
    return r;
}

static void free_rows(struct ui_term_cell **r, int rows)
{
    int i;

    if (r == NULL)
        return;
    for (i = 0; i < rows; i++)
        free(r[i]);
    free(r);
}

static int row_blank(const struct ui_term_cell *cells, int cols)
{
    int i;

    for (i = 0; i < cols; i++) {
        if (cells[i].chars[0] != 0 && cells[i].chars[0] != ' ')
            return 0;
    }
    return 1;
}

/* libvterm's resize: both screens take the new size.  A screen keeps
 * its bottom (where the cursor is): when it shrinks, blank rows under the
 * cursor go first, then rows at the top (to the scrollback, from the main
 * screen); when the main screen grows, lines come back from the
 * scrollback above its rows.  *DELTA moves the cursor with its text. */
static int resize(int rows, int cols, VTermPos *delta, void *user)
{
    struct ui_term *t = user;
    VTermPos cur;
    int k, i, j;

    vterm_state_get_cursorpos(t->st, &cur);
    for (k = 0; k < 2; k++) {
        struct ui_term_cell **old = t->screens[k].row, **nr;
        int first = 0, end = t->rows, at = 0;

        nr = new_rows(rows, cols);
        if (rows < t->rows) {
            while (end > rows && end - 1 > cur.row &&
                   row_blank(old[end - 1], t->cols))
                end--;
            first = end > rows ? end - rows : 0;
            if (k == 0) {
                for (i = 0; i < first; i++)
                    sb_push(t, old[i]);
            }
        } else if (k == 0 && rows > t->rows) {
            at = rows - t->rows;
            if ((size_t)at > t->sb_n)
                at = (int)t->sb_n;
            for (i = at - 1; i >= 0; i--)
                sb_pop(t, nr[i], cols);
        }
        for (i = first; i < end; i++) {
            struct ui_term_cell *d = nr[at + i - first];

            for (j = 0; j < cols && j < t->cols; j++)
                d[j] = old[i][j];
            if (cols < t->cols && d[cols - 1].width == 2)
                d[cols - 1] = blank_cell; /* a wide character cut */
        }
        free_rows(old, t->rows);
        t->screens[k].row = nr;
        if (k == t->altscreen)
            delta->row = at - first;
    }
    t->rows = rows;
    t->cols = cols;
    return 1;
}

static void output(const char *s, size_t len, void *user)
{
    struct ui_term *t = user;

    if (len == 0)
        return;
    if (t->out_len + len > t->out_cap) {
        t->out_cap = (t->out_len + len) * 2;
        t->out = xrealloc(t->out, t->out_cap);
    }
    memcpy(t->out + t->out_len, s, len);
    t->out_len += len;
}

static const VTermStateCallbacks callbacks = {
    .putglyph = putglyph,
    .movecursor = movecursor,
    .scrollrect = scrollrect,
    .moverect = moverect,
    .erase = erase,
    .initpen = initpen,
    .setpenattr = setpenattr,
    .settermprop = settermprop,
    .resize = resize,
};

struct ui_term *ui_term_create(int rows, int cols, size_t max_scrollback)
{
    struct ui_term *t = xcalloc(1, sizeof *t);

    t->rows = rows > 0 ? rows : 1;
    t->cols = cols > 0 ? cols : 1;
    t->screens[0].row = new_rows(t->rows, t->cols);
    t->screens[1].row = new_rows(t->rows, t->cols);
    t->pen = blank_cell;
    t->cursor_visible = 1;
    t->sb_cap = max_scrollback;
    if (t->sb_cap > 0)
        t->sb = xcalloc(t->sb_cap, sizeof *t->sb);
    t->vt = vterm_new(t->rows, t->cols);
    if (t->vt == NULL)
        abort(); /* libvterm's allocation failed: as xmalloc's */
    vterm_set_utf8(t->vt, 1);
    vterm_output_set_callback(t->vt, output, t);
    t->st = vterm_obtain_state(t->vt);
    vterm_state_set_callbacks(t->st, &callbacks, t);
    vterm_state_reset(t->st, 1);
    return t;
}

void ui_term_free(struct ui_term *t)
{
    size_t i;

    if (t == NULL)
        return;
    vterm_free(t->vt);
    free_rows(t->screens[0].row, t->rows);
    free_rows(t->screens[1].row, t->rows);
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
}

uint64_t ui_term_bytes(const struct ui_term *t)
{
    return t->bytes;
}

void ui_term_resize(struct ui_term *t, int rows, int cols)
{
    if (rows <= 0 || cols <= 0 || (rows == t->rows && cols == t->cols))
        return;
    vterm_set_size(t->vt, rows, cols);
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
    const struct ui_term_cell *src;
    int i, n;

    if (row >= t->rows || row < -(int)t->sb_n)
        return -1;
    if (row < 0) {
        const struct term_line *l =
            &t->sb[(t->sb_head + t->sb_n + (size_t)row) % t->sb_cap];

        src = l->cells;
        n = l->n;
    } else {
        src = t->screens[t->altscreen].row[row];
        n = t->cols;
    }
    for (i = 0; i < cols; i++)
        cells[i] = i < n ? src[i] : blank_cell;
    /* a wide character cut at the right edge */
    if (cols > 0 && cols < n && cells[cols - 1].width == 2)
        cells[cols - 1] = blank_cell;
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

    if (n == 0)
        return 0;
    memcpy(buf, t->out, n);
    memmove(t->out, t->out + n, t->out_len - n);
    t->out_len -= n;
    return n;
}
