/* SPDX-License-Identifier: MIT */
/*
 * ui-edit.h - the text of the inline editor (a handler's code when no
 * $VISUAL or $EDITOR is set, or when asked for): lines, a cursor, and
 * the first line shown.  The model only; the screen draws it and maps
 * keys to these calls.
 */
#ifndef NOOSA_UI_EDIT_H
#define NOOSA_UI_EDIT_H

#include <stddef.h>

struct ui_edit {
    char **lines;
    size_t n;
    size_t cap;
    size_t cy;      /* cursor line */
    size_t cx;      /* cursor byte offset in it (a character boundary) */
    int goal;       /* column kept while moving up and down; -1: none */
    size_t top;     /* first line shown */
    int modified;
};

/* Start editing TEXT (lines separated by newlines). */
struct ui_edit *ui_edit_create(const char *text);
void ui_edit_free(struct ui_edit *e);
/* The text, lines joined with newlines (caller frees). */
char *ui_edit_text(const struct ui_edit *e);

/* Insert N bytes of S at the cursor; newlines split the line. */
void ui_edit_insert(struct ui_edit *e, const char *s, size_t n);
void ui_edit_newline(struct ui_edit *e);
/* Delete the character before the cursor (joining lines at a start). */
void ui_edit_backspace(struct ui_edit *e);
/* Delete the character under the cursor (joining lines at an end). */
void ui_edit_delete(struct ui_edit *e);
/* Delete from the cursor to the end of the line (or the newline there). */
void ui_edit_kill_line(struct ui_edit *e);

void ui_edit_left(struct ui_edit *e);
void ui_edit_right(struct ui_edit *e);
void ui_edit_up(struct ui_edit *e, size_t lines);
void ui_edit_down(struct ui_edit *e, size_t lines);
void ui_edit_home(struct ui_edit *e);
void ui_edit_end(struct ui_edit *e);

/* Keep the cursor's line among ROWS lines shown from e->top. */
void ui_edit_scroll(struct ui_edit *e, int rows);

#endif /* NOOSA_UI_EDIT_H */
