/* SPDX-License-Identifier: MIT */
/*
 * ui-layout.h - where each pane of the screen goes at a given terminal
 * size, and the order in which the focus moves between panes.  The model
 * only: drawing takes its rectangles from here.
 *
 *     status line                 program, pid, state, events/s, breakpoints
 *     [window title + window]     handlers, breakpoints or help, when open
 *     transcript
 *     output title + output       the program's terminal
 *     command line                readline
 *     bottom line                 value description, messages, key hints
 *
 * An open window shares the space above the output with the transcript
 * when there is room for both, else (or when asked) takes it all.
 */
#ifndef NOOSA_UI_LAYOUT_H
#define NOOSA_UI_LAYOUT_H

#define UI_LAYOUT_MIN_ROWS 10
#define UI_LAYOUT_MIN_COLS 40

enum ui_pane {
    UI_PANE_COMMAND,
    UI_PANE_TRANSCRIPT,
    UI_PANE_OUTPUT,
    UI_PANE_WINDOW,
    UI_PANE_NONE = -1
};

struct ui_rect {
    int y, x, h, w;
};

struct ui_layout {
    int rows, cols;
    int ok; /* the terminal is big enough: the rectangles below are set */
    struct ui_rect status;
    struct ui_rect window_title;
    struct ui_rect window;      /* h == 0 when no window is open */
    struct ui_rect transcript;  /* h == 0 when the window took its place */
    struct ui_rect output_title;
    struct ui_rect output;
    struct ui_rect command;
    struct ui_rect bottom;
};

/* How a window is open. */
enum ui_layout_window {
    UI_LAYOUT_NO_WINDOW,
    UI_LAYOUT_WINDOW,      /* shares the room with the transcript */
    UI_LAYOUT_WINDOW_FULL  /* takes the transcript's room */
};

/* Lay the screen out at ROWS x COLS, with a window open as WINDOW says,
 * and OUTPUT_ROWS rows for the program's output (0: a quarter of the
 * room, at least 2; it is cut down when the terminal is short). */
void ui_layout_compute(struct ui_layout *l, int rows, int cols,
                       enum ui_layout_window window, int output_rows);

/* The pane that holds cell Y, X (the title rows count as their panes),
 * or UI_PANE_NONE (the status and bottom lines). */
enum ui_pane ui_layout_pane_at(const struct ui_layout *l, int y, int x);

/* Whether PANE can have the focus (it is on screen). */
int ui_layout_has(const struct ui_layout *l, enum ui_pane pane);

/* The pane after FOCUS (DIR > 0) or before it, among those on screen, in
 * the order command, transcript, output, window. */
enum ui_pane ui_layout_next_focus(const struct ui_layout *l,
                                  enum ui_pane focus, int dir);

#endif /* NOOSA_UI_LAYOUT_H */
