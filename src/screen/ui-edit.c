/* SPDX-License-Identifier: MIT */
/*
 * ui-edit.c - the inline editor's text and cursor.  See ui-edit.h.
 * Lines are separate strings: handler code is small, and this keeps every
 * edit a change to one or two lines.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ui-edit.h"
#include "ui-text.h"
#include "xmalloc.h"

/* Insert line S (owned) at index AT. */
static void insert_line(struct ui_edit *e, size_t at, char *s)
{
    if (e->n == e->cap) {
        e->cap = e->cap == 0 ? 16 : e->cap * 2;
        e->lines = xreallocarray(e->lines, e->cap, sizeof *e->lines);
    }
    memmove(&e->lines[at + 1], &e->lines[at], (e->n - at) * sizeof *e->lines);
    e->lines[at] = s;
    e->n++;
}

static void remove_line(struct ui_edit *e, size_t at)
{
    free(e->lines[at]);
    memmove(&e->lines[at], &e->lines[at + 1],
            (e->n - at - 1) * sizeof *e->lines);
    e->n--;
}

struct ui_edit *ui_edit_create(const char *text)
{
    struct ui_edit *e = xcalloc(1, sizeof *e);
    const char *p = text, *nl;

    for (;;) {
        nl = strchr(p, '\n');
        if (nl == NULL) {
            insert_line(e, e->n, xstrdup(p));
            break;
        }
        insert_line(e, e->n, xstrndup(p, (size_t)(nl - p)));
        p = nl + 1;
    }
    e->goal = -1;
    return e;
}

void ui_edit_free(struct ui_edit *e)
{
    size_t i;

    if (e == NULL)
        return;
    for (i = 0; i < e->n; i++)
        free(e->lines[i]);
    free(e->lines);
    free(e);
}

char *ui_edit_text(const struct ui_edit *e)
{
    size_t len = 0, i, at = 0;
    char *s;

    for (i = 0; i < e->n; i++)
        len += strlen(e->lines[i]) + 1;
    s = xmalloc(len + 1);
    for (i = 0; i < e->n; i++) {
        size_t n = strlen(e->lines[i]);

        memcpy(s + at, e->lines[i], n);
        at += n;
        if (i + 1 < e->n)
            s[at++] = '\n';
    }
    s[at] = '\0';
    return s;
}

void ui_edit_newline(struct ui_edit *e)
{
    char *line = e->lines[e->cy];

    insert_line(e, e->cy + 1, xstrdup(line + e->cx));
    line[e->cx] = '\0';
    e->cy++;
    e->cx = 0;
    e->goal = -1;
    e->modified = 1;
}

void ui_edit_insert(struct ui_edit *e, const char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t k = nl != NULL ? (size_t)(nl - (s + i)) : n - i;
        char *line = e->lines[e->cy];
        size_t len = strlen(line);

        if (k > 0) {
            line = xrealloc(line, len + k + 1);
            memmove(line + e->cx + k, line + e->cx, len - e->cx + 1);
            memcpy(line + e->cx, s + i, k);
            e->lines[e->cy] = line;
            e->cx += k;
            e->modified = 1;
        }
        i += k;
        if (nl != NULL) {
            ui_edit_newline(e);
            i++;
        }
    }
    e->goal = -1;
}

/* Length of the character before byte AT of S. */
static size_t prev_len(const char *s, size_t at)
{
    size_t i = at;

    while (i > 0) {
        i--;
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            break;
    }
    return at - i;
}

static size_t next_len(const char *s, size_t at)
{
    uint32_t wc;
    size_t len = strlen(s + at);

    return len == 0 ? 0 : ui_text_decode(s + at, len, &wc);
}

void ui_edit_backspace(struct ui_edit *e)
{
    char *line = e->lines[e->cy];

    if (e->cx > 0) {
        size_t k = prev_len(line, e->cx);

        memmove(line + e->cx - k, line + e->cx, strlen(line + e->cx) + 1);
        e->cx -= k;
    } else if (e->cy > 0) {
        char *above = e->lines[e->cy - 1];
        size_t len = strlen(above);

        above = xrealloc(above, len + strlen(line) + 1);
        strcpy(above + len, line);
        e->lines[e->cy - 1] = above;
        remove_line(e, e->cy);
        e->cy--;
        e->cx = len;
    } else {
        return;
    }
    e->goal = -1;
    e->modified = 1;
}

void ui_edit_delete(struct ui_edit *e)
{
    char *line = e->lines[e->cy];
    size_t k = next_len(line, e->cx);

    if (k > 0) {
        memmove(line + e->cx, line + e->cx + k, strlen(line + e->cx + k) + 1);
    } else if (e->cy + 1 < e->n) {
        char *below = e->lines[e->cy + 1];
        size_t len = strlen(line);

        line = xrealloc(line, len + strlen(below) + 1);
        strcpy(line + len, below);
        e->lines[e->cy] = line;
        remove_line(e, e->cy + 1);
    } else {
        return;
    }
    e->goal = -1;
    e->modified = 1;
}

void ui_edit_kill_line(struct ui_edit *e)
{
    char *line = e->lines[e->cy];

    if (line[e->cx] == '\0') {
        ui_edit_delete(e);
        return;
    }
    line[e->cx] = '\0';
    e->goal = -1;
    e->modified = 1;
}

void ui_edit_left(struct ui_edit *e)
{
    if (e->cx > 0) {
        e->cx -= prev_len(e->lines[e->cy], e->cx);
    } else if (e->cy > 0) {
        e->cy--;
        e->cx = strlen(e->lines[e->cy]);
    }
    e->goal = -1;
}

void ui_edit_right(struct ui_edit *e)
{
    size_t k = next_len(e->lines[e->cy], e->cx);

    if (k > 0) {
        e->cx += k;
    } else if (e->cy + 1 < e->n) {
        e->cy++;
        e->cx = 0;
    }
    e->goal = -1;
}

/* Move to line Y keeping the goal column. */
static void to_line(struct ui_edit *e, size_t y)
{
    const char *line;

    if (e->goal < 0)
        e->goal = ui_text_columns(e->lines[e->cy], e->cx);
    e->cy = y;
    line = e->lines[y];
    e->cx = ui_text_offset_at(line, 0, strlen(line), e->goal);
}

void ui_edit_up(struct ui_edit *e, size_t lines)
{
    to_line(e, e->cy > lines ? e->cy - lines : 0);
}

void ui_edit_down(struct ui_edit *e, size_t lines)
{
    to_line(e, e->cy + lines < e->n ? e->cy + lines : e->n - 1);
}

void ui_edit_home(struct ui_edit *e)
{
    e->cx = 0;
    e->goal = -1;
}

void ui_edit_end(struct ui_edit *e)
{
    e->cx = strlen(e->lines[e->cy]);
    e->goal = -1;
}

void ui_edit_scroll(struct ui_edit *e, int rows)
{
    size_t r = rows > 0 ? (size_t)rows : 1;

    if (e->cy < e->top)
        e->top = e->cy;
    if (e->cy >= e->top + r)
        e->top = e->cy - r + 1;
}
