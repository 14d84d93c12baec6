/* SPDX-License-Identifier: MIT */
/*
 * ui-layout.c - the panes' rectangles at a terminal size.  See
 * ui-layout.h.
 */
#include "config.h"

#include <string.h>

#include "ui-layout.h"

/* Rows the transcript keeps at least when the output pane grows. */
#define MIN_TRANSCRIPT 3
/* Rows above the output from which an open window leaves half of them
 * to the transcript. */
#define SPLIT_ROWS 20

static struct ui_rect rect(int y, int x, int h, int w)
{
    struct ui_rect r;

    r.y = y;
    r.x = x;
    r.h = h;
    r.w = w;
    return r;
}

void ui_layout_compute(struct ui_layout *l, int rows, int cols,
                       enum ui_layout_window window, int output_rows)
{
    int middle, out, upper, win;

    memset(l, 0, sizeof *l);
    l->rows = rows;
    l->cols = cols;
    if (rows < UI_LAYOUT_MIN_ROWS || cols < UI_LAYOUT_MIN_COLS)
        return;
    l->ok = 1;
    l->status = rect(0, 0, 1, cols);
    l->bottom = rect(rows - 1, 0, 1, cols);
    l->command = rect(rows - 2, 0, 1, cols);

    middle = rows - 3;
    out = output_rows > 0 ? output_rows : middle / 4;
    if (out < 2)
        out = 2;
    if (out > middle - 1 - MIN_TRANSCRIPT)
        out = middle - 1 - MIN_TRANSCRIPT;
    l->output = rect(rows - 2 - out, 0, out, cols);
    l->output_title = rect(l->output.y - 1, 0, 1, cols);

    upper = l->output_title.y - 1; /* rows 1 .. output title - 1 */
    if (window == UI_LAYOUT_NO_WINDOW) {
        l->transcript = rect(1, 0, upper, cols);
        return;
    }
    win = upper >= SPLIT_ROWS && window == UI_LAYOUT_WINDOW ? upper / 2
                                                            : upper;
    l->window_title = rect(1, 0, 1, cols);
    l->window = rect(2, 0, win - 1, cols);
    l->transcript = rect(1 + win, 0, upper - win, cols);
}

static int inside(const struct ui_rect *r, int y, int x)
{
    return r->h > 0 && y >= r->y && y < r->y + r->h && x >= r->x &&
           x < r->x + r->w;
}

enum ui_pane ui_layout_pane_at(const struct ui_layout *l, int y, int x)
{
    if (!l->ok)
        return UI_PANE_NONE;
    if (inside(&l->command, y, x))
        return UI_PANE_COMMAND;
    if (inside(&l->transcript, y, x))
        return UI_PANE_TRANSCRIPT;
    if (inside(&l->output, y, x) || inside(&l->output_title, y, x))
        return UI_PANE_OUTPUT;
    if (inside(&l->window, y, x) || inside(&l->window_title, y, x))
        return UI_PANE_WINDOW;
    return UI_PANE_NONE;
}

int ui_layout_has(const struct ui_layout *l, enum ui_pane pane)
{
    if (!l->ok)
        return pane == UI_PANE_COMMAND;
    switch (pane) {
    case UI_PANE_COMMAND:
        return 1;
    case UI_PANE_TRANSCRIPT:
        return l->transcript.h > 0;
    case UI_PANE_OUTPUT:
        return l->output.h > 0;
    case UI_PANE_WINDOW:
        return l->window.h > 0;
    default:
        return 0;
    }
}

enum ui_pane ui_layout_next_focus(const struct ui_layout *l,
                                  enum ui_pane focus, int dir)
{
    /* the program's pane first: one key from the command line */
    static const enum ui_pane order[4] = {UI_PANE_COMMAND, UI_PANE_OUTPUT,
                                          UI_PANE_TRANSCRIPT, UI_PANE_WINDOW};
    int p = 0, i;

    for (i = 0; i < 4; i++) {
        if (order[i] == focus)
            p = i;
    }
    for (i = 0; i < 4; i++) {
        p = (p + (dir > 0 ? 1 : 3)) % 4;
        if (ui_layout_has(l, order[p]))
            return order[p];
    }
    return UI_PANE_COMMAND;
}
