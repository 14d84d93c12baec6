/* SPDX-License-Identifier: MIT */
/*
 * ui-text.h - measuring text for the screen: UTF-8 characters, their
 * width in terminal columns, and how a line breaks into rows of a given
 * width.  Pure functions over bytes; the screen's models and its drawing
 * both use them, so that what is measured is what is drawn.
 *
 * A character that cannot be shown (an invalid byte, a control
 * character, a character the locale does not know) is drawn as one '?'
 * column; a tab runs to the next multiple of UI_TEXT_TAB columns of its
 * row.
 */
#ifndef NOOSA_UI_TEXT_H
#define NOOSA_UI_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define UI_TEXT_TAB 8

/* Decode the character at S (N > 0 bytes).  Returns its length in bytes
 * (1 for an invalid or truncated sequence, with *WC = 0xFFFD). */
size_t ui_text_decode(const char *s, size_t n, uint32_t *wc);

/* Columns the character WC takes when it starts at column COL of its row
 * (COL matters for tabs only): 0 for a combining character, else 1 or 2. */
int ui_text_width(uint32_t wc, int col);

/* The same in a row of COLS columns: a tab stops at the row's end. */
int ui_text_cell_width(uint32_t wc, int col, int cols);

/* Whether WC is drawn as itself (else as '?'). */
int ui_text_printable(uint32_t wc);

/* Columns of S[0..N) drawn from column 0 on one row. */
int ui_text_columns(const char *s, size_t n);

/* The end (byte offset) of the row of at most COLS columns that starts at
 * byte OFF of the line S[0..N): at least one character, never the middle
 * of one.  When OFF == N, returns N. */
size_t ui_text_row_end(const char *s, size_t n, size_t off, int cols);

/* Rows a line takes at COLS columns: at least 1 (an empty line is one
 * empty row). */
unsigned int ui_text_rows(const char *s, size_t n, int cols);

/* The row (0 for the first) that holds byte OFF of the line, at COLS
 * columns; OFF == N counts as the last row. */
unsigned int ui_text_row_of(const char *s, size_t n, size_t off, int cols);

/* The byte offset of row ROW of the line (N when past its rows). */
size_t ui_text_row_start(const char *s, size_t n, unsigned int row, int cols);

/* The byte offset in the row S[START..END) under column COL (counted from
 * the row's start); END when COL is past the row's text. */
size_t ui_text_offset_at(const char *s, size_t start, size_t end, int col);

#endif /* NOOSA_UI_TEXT_H */
