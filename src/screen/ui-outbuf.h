/* SPDX-License-Identifier: MIT */
/*
 * ui-outbuf.h - what the program wrote to its terminal, as lines for the
 * output pane: enough of a terminal to show ordinary output right
 * (carriage returns overwrite, backspaces move back, tabs expand, erase
 * to the end of line), with every other escape sequence and control
 * character dropped.  It is not a terminal emulator: a full-screen
 * program will not look right here, but it cannot disturb the screen.
 *
 * A bounded number of lines is kept; the oldest are dropped.  The last
 * line is the one being written (possibly empty), as on a terminal.
 */
#ifndef NOOSA_UI_OUTBUF_H
#define NOOSA_UI_OUTBUF_H

#include <stddef.h>
#include <stdint.h>

struct ui_outbuf;
struct ui_tview_src;

/* Bytes a single line may grow to before it is broken. */
#define UI_OUTBUF_MAX_LINE (1024 * 1024)

struct ui_outbuf *ui_outbuf_create(size_t max_lines);
void ui_outbuf_free(struct ui_outbuf *o);

/* Take LEN bytes the program wrote (sequences may be split anywhere
 * between calls). */
void ui_outbuf_feed(struct ui_outbuf *o, const char *data, size_t len);

/* Lines: absolute numbers from first to end - 1; the last is the one
 * being written.  Text is valid until the next feed. */
uint64_t ui_outbuf_first(const struct ui_outbuf *o);
uint64_t ui_outbuf_end(const struct ui_outbuf *o);
const char *ui_outbuf_line(const struct ui_outbuf *o, uint64_t n,
                           size_t *len);
/* Where the next character goes: the last line, at byte *OFF. */
void ui_outbuf_cursor(const struct ui_outbuf *o, uint64_t *line,
                      size_t *off);
/* Bytes taken in all. */
uint64_t ui_outbuf_bytes(const struct ui_outbuf *o);

/* A source for a view of the lines (ui-tview.h). */
void ui_outbuf_src(const struct ui_outbuf *o, struct ui_tview_src *src);

#endif /* NOOSA_UI_OUTBUF_H */
