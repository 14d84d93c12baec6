/* SPDX-License-Identifier: MIT */
/*
 * ui-tview.h - a view of lines in a pane of the screen: which display
 * rows show (long lines wrap), follow mode, scrolling, and for the
 * transcript the selected value and the search.  The model only: no
 * drawing here, so it is tested without a terminal.
 *
 * Lines come from a source (the transcript, the program's output) by
 * absolute number; the view keeps its top as a line and a row of it, so
 * that its cost does not depend on how many lines there are: only the
 * lines on screen, and a screenful at the end, are ever measured.
 */
#ifndef NOOSA_UI_TVIEW_H
#define NOOSA_UI_TVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "transcript.h"

/* Where lines come from. */
struct ui_tview_src {
    uint64_t (*first)(const void *arg);
    uint64_t (*end)(const void *arg);
    /* The text of line N (not NUL-terminated), NULL when out of range. */
    const char *(*line)(const void *arg, uint64_t n, size_t *len);
    const void *arg;
};

/* A display row: row ROW (0 for the first) of line LINE. */
struct ui_tview_pos {
    uint64_t line;
    unsigned int row;
};

/* A row on screen: bytes START..END of line LINE, whose text is TEXT. */
struct ui_tview_row {
    uint64_t line;
    unsigned int row;
    const char *text;
    size_t len;
    size_t start;
    size_t end;
};

struct ui_tview {
    struct ui_tview_src src;
    const struct transcript *tr; /* values and search; NULL: none */
    int rows;
    int cols;
    struct ui_tview_pos top;
    int follow;           /* new lines keep the end in view */
    uint64_t selected;    /* value id; 0: none */

    char *pattern;        /* the last search, NULL: none */
    int search_flags;     /* TR_* */
    int match;            /* the match below is shown */
    int wrapped;          /* the last search went round an end */
    uint64_t match_line;
    unsigned int match_col;
    unsigned int match_len;
};

/* A source reading the transcript T. */
void ui_tview_src_transcript(struct ui_tview_src *src,
                             const struct transcript *t);

/* Set up V over SRC; TR (may be NULL) gives values and search.  The view
 * starts in follow mode with no size. */
void ui_tview_init(struct ui_tview *v, const struct ui_tview_src *src,
                   const struct transcript *tr);
void ui_tview_free(struct ui_tview *v);

/* The pane is ROWS x COLS now. */
void ui_tview_resize(struct ui_tview *v, int rows, int cols);
/* Lines were added or dropped: follow the end, or keep the top in range.
 * Cheap; called before each drawing. */
void ui_tview_update(struct ui_tview *v);

/* Scroll by ROWS display rows (negative: up).  Reaching the end turns
 * follow mode on; leaving it turns it off. */
void ui_tview_scroll(struct ui_tview *v, long rows);
/* A page is the pane's height less one row. */
void ui_tview_page(struct ui_tview *v, int pages);
void ui_tview_home(struct ui_tview *v);
void ui_tview_end(struct ui_tview *v);
/* Whether the last row is on screen. */
int ui_tview_at_end(const struct ui_tview *v);
/* The largest top: the one that shows the last row at the bottom. */
struct ui_tview_pos ui_tview_max_top(const struct ui_tview *v);

/* The rows on screen, top first; at most MAX.  Returns how many. */
size_t ui_tview_rows(const struct ui_tview *v, struct ui_tview_row *out,
                     size_t max);

/* Scroll as little as needed to show byte OFF of LINE. */
void ui_tview_show(struct ui_tview *v, uint64_t line, size_t off);
/* After a command wrote lines FROM.. (to the end): show the end when
 * they fit on screen, else their start (and stop following). */
void ui_tview_show_output(struct ui_tview *v, uint64_t from);

/* The value under screen cell ROW, COL of the pane, or 0. */
uint64_t ui_tview_value_at(const struct ui_tview *v, int row, int col);
/* The selected value, or NULL (none, or dropped from the transcript). */
const struct tr_value *ui_tview_selection(const struct ui_tview *v);
/* Select the next value (DIR > 0) or the previous one (DIR < 0): the one
 * after or before the selection when it is on screen, else the first or
 * the last one on screen, else the nearest one below or above it; and
 * show it.  Returns the id selected, 0 when there is none that way (the
 * selection stays). */
uint64_t ui_tview_select(struct ui_tview *v, int dir);
/* Select value ID and show it; 0 when there is no such value. */
int ui_tview_select_id(struct ui_tview *v, uint64_t id);
void ui_tview_unselect(struct ui_tview *v);

/* TR_NOCASE when PATTERN has no upper-case letter, else 0. */
int ui_tview_smartcase(const char *pattern);
/* Search for PATTERN with FLAGS (TR_REGEX, TR_NOCASE, TR_BACKWARD) from
 * the screen (forward from its top, backward from its bottom) and show
 * the match.  Returns 1 when found, 0 when not, -1 with *cause for a bad
 * pattern. */
int ui_tview_search(struct ui_tview *v, const char *pattern, int flags,
                    char **cause);
/* Search again from the match shown (the other way when REVERSE). */
int ui_tview_search_next(struct ui_tview *v, int reverse, char **cause);
/* Forget the match shown (the pattern stays for search_next). */
void ui_tview_clear_match(struct ui_tview *v);

#endif /* NOOSA_UI_TVIEW_H */
