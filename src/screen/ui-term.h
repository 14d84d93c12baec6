/* SPDX-License-Identifier: MIT */
/*
 * ui-term.h - the program's terminal as the output pane shows it: a
 * terminal emulator (libvterm) fed with what the program writes to its
 * pty, and a scrollback of its own.  It knows colours, attributes, cursor
 * movement, the alternate screen, UTF-8 and wide characters; it turns
 * keys into the bytes a terminal sends (as the program's modes want
 * them) and answers the program's questions (cursor position, device
 * attributes).  It is a model: it holds no curses and draws nothing;
 * screen-draw.c draws its cells.
 *
 * Rows are numbered from the top of the terminal: 0 .. rows - 1 are the
 * screen, -1 .. -scrollback are the lines that scrolled off the top (-1
 * the latest).  The view is the screen moved up by an offset into the
 * scrollback (0: the screen itself).  Colours are -1 (the terminal's
 * default) or an index of the 256-colour palette (direct colours are
 * brought to the nearest there).
 */
#ifndef NOOSA_UI_TERM_H
#define NOOSA_UI_TERM_H

#include <stddef.h>
#include <stdint.h>

#include <vterm_keycodes.h>

struct ui_term;

/* Attributes of a cell. */
#define UI_TERM_BOLD 0x01
#define UI_TERM_UNDERLINE 0x02
#define UI_TERM_ITALIC 0x04
#define UI_TERM_BLINK 0x08
#define UI_TERM_REVERSE 0x10
#define UI_TERM_STRIKE 0x20

/* Code points a cell holds at most: the character and its combining
 * marks. */
#define UI_TERM_CHARS 4

struct ui_term_cell {
    uint32_t chars[UI_TERM_CHARS]; /* 0-terminated; empty: a blank */
    int8_t width;  /* 1, or 2 for a wide character (the next cell is
                    * its right half, width 0) */
    uint8_t attrs; /* UI_TERM_BOLD ... */
    int16_t fg, bg; /* -1: default; else 0 .. 255 */
};

/* A terminal of ROWS x COLS keeping MAX_SCROLLBACK lines that scroll off
 * its top (the oldest are dropped). */
struct ui_term *ui_term_create(int rows, int cols, size_t max_scrollback);
void ui_term_free(struct ui_term *t);

/* Take LEN bytes the program wrote (sequences may be split anywhere
 * between calls). */
void ui_term_feed(struct ui_term *t, const char *data, size_t len);
/* Bytes taken in all. */
uint64_t ui_term_bytes(const struct ui_term *t);

/* Change the size; lines the screen loses at the top go to the
 * scrollback, lines it gains come back from there. */
void ui_term_resize(struct ui_term *t, int rows, int cols);
int ui_term_rows(const struct ui_term *t);
int ui_term_cols(const struct ui_term *t);

/* Lines in the scrollback, and lines that went through it in all. */
size_t ui_term_scrollback(const struct ui_term *t);
uint64_t ui_term_scrolled(const struct ui_term *t);
/* Whether the program has switched to the alternate screen. */
int ui_term_altscreen(const struct ui_term *t);

/* Row ROW (see above) into CELLS, COLS of them (blanks past the row's
 * end); 0, or -1 when there is no such row. */
int ui_term_row(const struct ui_term *t, int row, struct ui_term_cell *cells,
                int cols);
/* Row ROW as UTF-8 text without its trailing blanks, into BUF of SIZE
 * bytes (always terminated); returns its length. */
size_t ui_term_row_text(const struct ui_term *t, int row, char *buf,
                        size_t size);

/* The cursor's place on the screen, and whether the program shows it. */
void ui_term_cursor(const struct ui_term *t, int *row, int *col,
                    int *visible);

/* The view: how far up into the scrollback it is (0: at the screen).
 * Scrolling by N rows (negative: up) stays within the scrollback. */
int ui_term_offset(const struct ui_term *t);
void ui_term_scroll(struct ui_term *t, int n);
void ui_term_scroll_end(struct ui_term *t);

/* Keys typed to the program: a character C or a key KEY with the
 * modifiers MOD (VTERM_MOD_*), as the bytes a terminal in the program's
 * modes sends; pasted text, bracketed when the program asked for it.
 * The bytes wait in the output (below). */
void ui_term_char(struct ui_term *t, uint32_t c, int mod);
void ui_term_key(struct ui_term *t, VTermKey key, int mod);
void ui_term_paste(struct ui_term *t, const char *text, size_t len);

/* What the terminal sends the program (keys, answers to its
 * questions): up to SIZE bytes into BUF, taken out; returns how many. */
size_t ui_term_output(struct ui_term *t, char *buf, size_t size);

#endif /* NOOSA_UI_TERM_H */
