/* SPDX-License-Identifier: MIT */
/*
 * ui-tview.c - a scrolling view of lines with wrapping, follow mode,
 * value selection and search.  See ui-tview.h.
 *
 * Positions are display rows (line, row of that line), compared in that
 * order.  Every operation walks at most a screenful of rows from a known
 * position (the top, the end, a value, a match), so nothing here is
 * proportional to the length of the transcript.
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ui-text.h"
#include "ui-tview.h"
#include "xmalloc.h"

static uint64_t tr_first(const void *arg)
{
    return transcript_first(arg);
}

static uint64_t tr_end(const void *arg)
{
    return transcript_end(arg);
}

static const char *tr_line(const void *arg, uint64_t n, size_t *len)
{
    return transcript_line(arg, n, len);
}

void ui_tview_src_transcript(struct ui_tview_src *src,
                             const struct transcript *t)
{
    src->first = tr_first;
    src->end = tr_end;
    src->line = tr_line;
    src->arg = t;
}

void ui_tview_init(struct ui_tview *v, const struct ui_tview_src *src,
                   const struct transcript *tr)
{
    memset(v, 0, sizeof *v);
    v->src = *src;
    v->tr = tr;
    v->follow = 1;
    v->cols = 1;
    v->top.line = src->first(src->arg);
}

void ui_tview_free(struct ui_tview *v)
{
    free(v->pattern);
    v->pattern = NULL;
}

static uint64_t first(const struct ui_tview *v)
{
    return v->src.first(v->src.arg);
}

static uint64_t end(const struct ui_tview *v)
{
    return v->src.end(v->src.arg);
}

static const char *text(const struct ui_tview *v, uint64_t line, size_t *len)
{
    const char *s = v->src.line(v->src.arg, line, len);

    if (s == NULL) {
        *len = 0;
        return "";
    }
    return s;
}

static unsigned int rows_of(const struct ui_tview *v, uint64_t line)
{
    size_t len;
    const char *s = text(v, line, &len);

    return ui_text_rows(s, len, v->cols);
}

static int cmp(struct ui_tview_pos a, struct ui_tview_pos b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    if (a.row != b.row)
        return a.row < b.row ? -1 : 1;
    return 0;
}

/* Move P one row down; 0 when it is the last row. */
static int next_row(const struct ui_tview *v, struct ui_tview_pos *p)
{
    if (p->row + 1 < rows_of(v, p->line)) {
        p->row++;
        return 1;
    }
    if (p->line + 1 < end(v)) {
        p->line++;
        p->row = 0;
        return 1;
    }
    return 0;
}

/* Move P one row up; 0 when it is the first row. */
static int prev_row(const struct ui_tview *v, struct ui_tview_pos *p)
{
    if (p->row > 0) {
        p->row--;
        return 1;
    }
    if (p->line > first(v)) {
        p->line--;
        p->row = rows_of(v, p->line) - 1;
        return 1;
    }
    return 0;
}

/* The last row of all (the first position when there are no lines). */
static struct ui_tview_pos last_pos(const struct ui_tview *v)
{
    struct ui_tview_pos p;

    if (end(v) == first(v)) {
        p.line = first(v);
        p.row = 0;
        return p;
    }
    p.line = end(v) - 1;
    p.row = rows_of(v, p.line) - 1;
    return p;
}

struct ui_tview_pos ui_tview_max_top(const struct ui_tview *v)
{
    struct ui_tview_pos p = last_pos(v);
    int i;

    for (i = 1; i < v->rows; i++) {
        if (!prev_row(v, &p))
            break;
    }
    return p;
}

/* The last row on screen. */
static struct ui_tview_pos bottom(const struct ui_tview *v)
{
    struct ui_tview_pos p = v->top;
    int i;

    for (i = 1; i < v->rows; i++) {
        if (!next_row(v, &p))
            break;
    }
    return p;
}

void ui_tview_resize(struct ui_tview *v, int rows, int cols)
{
    v->rows = rows < 0 ? 0 : rows;
    v->cols = cols < 1 ? 1 : cols;
    ui_tview_update(v);
}

void ui_tview_update(struct ui_tview *v)
{
    struct ui_tview_pos max;
    unsigned int n;

    if (v->follow) {
        v->top = ui_tview_max_top(v);
        return;
    }
    if (v->top.line < first(v)) {
        v->top.line = first(v);
        v->top.row = 0;
    }
    if (v->top.line >= end(v)) {
        v->top = last_pos(v);
    } else {
        n = rows_of(v, v->top.line);
        if (v->top.row >= n)
            v->top.row = n - 1;
    }
    max = ui_tview_max_top(v);
    if (cmp(v->top, max) >= 0) {
        /* the pane grew past the end: the end is in view again */
        v->top = max;
        v->follow = 1;
    }
}

void ui_tview_scroll(struct ui_tview *v, long n)
{
    struct ui_tview_pos max;

    ui_tview_update(v);
    max = ui_tview_max_top(v);
    for (; n > 0 && cmp(v->top, max) < 0; n--)
        next_row(v, &v->top);
    for (; n < 0 && prev_row(v, &v->top); n++)
        ;
    v->follow = cmp(v->top, max) >= 0;
}

void ui_tview_page(struct ui_tview *v, int pages)
{
    long step = v->rows > 1 ? v->rows - 1 : 1;

    ui_tview_scroll(v, step * pages);
}

void ui_tview_home(struct ui_tview *v)
{
    v->top.line = first(v);
    v->top.row = 0;
    v->follow = cmp(v->top, ui_tview_max_top(v)) >= 0;
}

void ui_tview_end(struct ui_tview *v)
{
    v->follow = 1;
    ui_tview_update(v);
}

int ui_tview_at_end(const struct ui_tview *v)
{
    return cmp(bottom(v), last_pos(v)) >= 0;
}

size_t ui_tview_rows(const struct ui_tview *v, struct ui_tview_row *out,
                     size_t max)
{
    struct ui_tview_pos p = v->top;
    size_t n = 0, off = 0;
    uint64_t line = UINT64_MAX;
    const char *s = "";
    size_t len = 0;

    if (end(v) == first(v) || p.line < first(v) || p.line >= end(v))
        return 0;
    while (n < max && n < (size_t)v->rows) {
        if (p.line != line) {
            line = p.line;
            s = text(v, line, &len);
            off = ui_text_row_start(s, len, p.row, v->cols);
        }
        out[n].line = p.line;
        out[n].row = p.row;
        out[n].text = s;
        out[n].len = len;
        out[n].start = off;
        out[n].end = ui_text_row_end(s, len, off, v->cols);
        off = out[n].end;
        n++;
        if (!next_row(v, &p))
            break;
    }
    return n;
}

/* The display row of byte OFF of LINE. */
static struct ui_tview_pos pos_of(const struct ui_tview *v, uint64_t line,
                                  size_t off)
{
    struct ui_tview_pos p;
    size_t len;
    const char *s = text(v, line, &len);

    p.line = line;
    p.row = ui_text_row_of(s, len, off, v->cols);
    return p;
}

void ui_tview_show(struct ui_tview *v, uint64_t line, size_t off)
{
    struct ui_tview_pos p, b;
    int i;

    if (line < first(v) || line >= end(v))
        return;
    ui_tview_update(v);
    p = pos_of(v, line, off);
    if (cmp(p, v->top) < 0) {
        v->top = p;
    } else {
        b = bottom(v);
        if (cmp(p, b) > 0) {
            v->top = p;
            for (i = 1; i < v->rows; i++) {
                if (!prev_row(v, &v->top))
                    break;
            }
        }
    }
    v->follow = cmp(v->top, ui_tview_max_top(v)) >= 0;
}

void ui_tview_show_output(struct ui_tview *v, uint64_t from)
{
    struct ui_tview_pos p;
    int n = 1;

    if (from < first(v))
        from = first(v);
    if (from >= end(v)) {
        ui_tview_update(v);
        return;
    }
    p.line = from;
    p.row = 0;
    while (n <= v->rows && next_row(v, &p))
        n++;
    if (n <= v->rows) {
        ui_tview_end(v);
        return;
    }
    v->top.line = from;
    v->top.row = 0;
    v->follow = 0;
}

/* The value holding byte OFF of LINE, or NULL. */
static const struct tr_value *value_at(const struct ui_tview *v,
                                       uint64_t line, size_t off)
{
    const struct tr_value *val;

    if (v->tr == NULL || off >= UINT_MAX)
        return NULL;
    val = transcript_value_before(v->tr, line, (unsigned int)off + 1);
    if (val == NULL || val->line != line || off < val->col ||
        off >= (size_t)val->col + val->len)
        return NULL;
    return val;
}

uint64_t ui_tview_value_at(const struct ui_tview *v, int row, int col)
{
    struct ui_tview_row r[1];
    struct ui_tview tmp;
    const struct tr_value *val;
    size_t off;
    int i;

    if (row < 0 || row >= v->rows || col < 0 || col >= v->cols)
        return 0;
    tmp = *v;
    for (i = 0; i < row; i++) {
        if (!next_row(v, &tmp.top))
            return 0;
    }
    tmp.rows = 1;
    if (ui_tview_rows(&tmp, r, 1) != 1)
        return 0;
    off = ui_text_offset_at(r[0].text, r[0].start, r[0].end, col);
    if (off >= r[0].end)
        return 0;
    val = value_at(v, r[0].line, off);
    return val != NULL ? val->id : 0;
}

const struct tr_value *ui_tview_selection(const struct ui_tview *v)
{
    if (v->tr == NULL || v->selected == 0)
        return NULL;
    return transcript_value(v->tr, v->selected);
}

/* Whether value VAL starts on screen. */
static int on_screen(const struct ui_tview *v, const struct tr_value *val)
{
    struct ui_tview_pos p;

    if (val->line < first(v) || val->line >= end(v))
        return 0;
    p = pos_of(v, val->line, val->col);
    return cmp(p, v->top) >= 0 && cmp(p, bottom(v)) <= 0;
}

int ui_tview_select_id(struct ui_tview *v, uint64_t id)
{
    const struct tr_value *val;

    if (v->tr == NULL || (val = transcript_value(v->tr, id)) == NULL)
        return 0;
    v->selected = id;
    ui_tview_show(v, val->line, val->col);
    return 1;
}

void ui_tview_unselect(struct ui_tview *v)
{
    v->selected = 0;
}

uint64_t ui_tview_select(struct ui_tview *v, int dir)
{
    const struct tr_value *cur, *val;
    struct ui_tview_row r[1];
    struct ui_tview tmp;

    if (v->tr == NULL)
        return 0;
    ui_tview_update(v);
    cur = ui_tview_selection(v);
    if (cur != NULL && on_screen(v, cur)) {
        if (dir > 0)
            val = transcript_value(v->tr, cur->id + 1);
        else
            val = cur->id > 1 ? transcript_value(v->tr, cur->id - 1) : NULL;
    } else if (dir > 0) {
        tmp = *v;
        tmp.rows = 1;
        if (ui_tview_rows(&tmp, r, 1) != 1)
            return 0;
        val = transcript_value_after(v->tr, r[0].line,
                                     (unsigned int)r[0].start);
    } else {
        tmp = *v;
        tmp.top = bottom(v);
        tmp.rows = 1;
        if (ui_tview_rows(&tmp, r, 1) != 1)
            return 0;
        if (r[0].end >= r[0].len)
            val = transcript_value_before(v->tr, r[0].line + 1, 0);
        else
            val = transcript_value_before(v->tr, r[0].line,
                                          (unsigned int)r[0].end);
    }
    if (val == NULL)
        return 0;
    v->selected = val->id;
    ui_tview_show(v, val->line, val->col);
    return val->id;
}

int ui_tview_smartcase(const char *pattern)
{
    for (; *pattern != '\0'; pattern++) {
        if (isupper((unsigned char)*pattern))
            return 0;
    }
    return TR_NOCASE;
}

/* Search from (LINE, COL) with FLAGS; show and remember the match. */
static int search_from(struct ui_tview *v, uint64_t line, unsigned int col,
                       int flags, char **cause)
{
    uint64_t mline;
    unsigned int mcol, mlen;
    int rc;

    rc = transcript_search(v->tr, v->pattern, flags, line, col, &mline,
                           &mcol, &mlen, cause);
    if (rc != 1)
        return rc;
    if ((flags & TR_BACKWARD) == 0)
        v->wrapped = mline < line || (mline == line && mcol <= col);
    else
        v->wrapped = mline > line || (mline == line && mcol >= col);
    v->match = 1;
    v->match_line = mline;
    v->match_col = mcol;
    v->match_len = mlen;
    ui_tview_show(v, mline, mcol);
    return 1;
}

int ui_tview_search(struct ui_tview *v, const char *pattern, int flags,
                    char **cause)
{
    struct ui_tview_row r[1];
    struct ui_tview tmp;
    uint64_t line;
    int rc;

    if (v->tr == NULL) {
        xcause(cause, "nothing to search here");
        return -1;
    }
    free(v->pattern);
    v->pattern = xstrdup(pattern);
    v->search_flags = flags;
    v->match = 0;
    v->wrapped = 0;
    if (end(v) == first(v))
        return 0;
    ui_tview_update(v);
    if ((flags & TR_BACKWARD) == 0) {
        /* from the end of the line before the top (the last line when
         * the top is the first), so that the top line is searched whole */
        uint64_t top = v->top.line;

        line = top > first(v) ? top - 1 : end(v) - 1;
        rc = search_from(v, line, UINT_MAX - 1, flags, cause);
        if (rc == 1)
            v->wrapped = v->match_line < top;
        return rc;
    }
    tmp = *v;
    tmp.top = bottom(v);
    tmp.rows = 1;
    if (ui_tview_rows(&tmp, r, 1) != 1)
        return 0;
    rc = search_from(v, r[0].line,
                     r[0].end >= r[0].len ? UINT_MAX - 1
                                          : (unsigned int)r[0].end,
                     flags, cause);
    if (rc == 1)
        v->wrapped = v->match_line > r[0].line ||
                     (v->match_line == r[0].line && v->match_col >= r[0].end);
    return rc;
}

int ui_tview_search_next(struct ui_tview *v, int reverse, char **cause)
{
    int flags;

    if (v->pattern == NULL) {
        xcause(cause, "no search yet");
        return -1;
    }
    flags = v->search_flags ^ (reverse ? TR_BACKWARD : 0);
    if (!v->match || v->match_line < first(v) || v->match_line >= end(v)) {
        char *pattern = xstrdup(v->pattern);
        int saved = v->search_flags, rc;

        rc = ui_tview_search(v, pattern, flags, cause);
        v->search_flags = saved;
        free(pattern);
        return rc;
    }
    return search_from(v, v->match_line, v->match_col, flags, cause);
}

void ui_tview_clear_match(struct ui_tview *v)
{
    v->match = 0;
}
