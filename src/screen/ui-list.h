/* SPDX-License-Identifier: MIT */
/*
 * ui-list.h - the selection in a list shown in a pane of ROWS rows: the
 * selected item and the first one shown, kept so that the selection is
 * always on screen.  Used by the handlers, breakpoints and help windows.
 * The model only: the items themselves are the caller's.
 */
#ifndef NOOSA_UI_LIST_H
#define NOOSA_UI_LIST_H

#include <stddef.h>

struct ui_list {
    size_t n;    /* items */
    size_t sel;  /* selected item (0 when there are none) */
    size_t top;  /* first item shown */
    int rows;    /* rows of the pane */
};

/* The list now has N items and ROWS rows: keep the selection in range
 * and on screen. */
void ui_list_set(struct ui_list *l, size_t n, int rows);
/* Move the selection by DELTA items (clamped at the ends). */
void ui_list_move(struct ui_list *l, long delta);
/* Move the selection by pages (a page is ROWS - 1 items). */
void ui_list_page(struct ui_list *l, int pages);
void ui_list_select(struct ui_list *l, size_t i);
/* Scroll the view by DELTA items without moving the selection past the
 * screen (it is dragged along when it would leave it). */
void ui_list_scroll(struct ui_list *l, long delta);

#endif /* NOOSA_UI_LIST_H */
