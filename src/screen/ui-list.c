/* SPDX-License-Identifier: MIT */
/*
 * ui-list.c - the selection in a list on screen.  See ui-list.h.
 */
#include "config.h"

#include "ui-list.h"

/* Keep the selection in range and TOP such that it is on screen, and no
 * rows are left empty at the bottom when items above could fill them
 * (once the list has rows). */
static void fix(struct ui_list *l)
{
    size_t rows = (size_t)l->rows;

    if (l->n == 0) {
        l->sel = l->top = 0;
        return;
    }
    if (l->sel >= l->n)
        l->sel = l->n - 1;
    if (l->rows <= 0)
        return; /* not on screen yet: nothing to scroll */
    if (l->top + rows > l->n)
        l->top = l->n > rows ? l->n - rows : 0;
    if (l->sel < l->top)
        l->top = l->sel;
    if (l->sel >= l->top + rows)
        l->top = l->sel - rows + 1;
}

void ui_list_set(struct ui_list *l, size_t n, int rows)
{
    l->n = n;
    l->rows = rows;
    fix(l);
}

void ui_list_move(struct ui_list *l, long delta)
{
    if (delta < 0 && (size_t)-delta > l->sel)
        l->sel = 0;
    else
        l->sel += (size_t)delta;
    if (l->n > 0 && l->sel >= l->n)
        l->sel = l->n - 1;
    fix(l);
}

void ui_list_page(struct ui_list *l, int pages)
{
    long step = l->rows > 1 ? l->rows - 1 : 1;

    ui_list_move(l, step * pages);
}

void ui_list_select(struct ui_list *l, size_t i)
{
    l->sel = i;
    fix(l);
}

void ui_list_scroll(struct ui_list *l, long delta)
{
    size_t rows = l->rows > 0 ? (size_t)l->rows : 1;

    if (delta < 0 && (size_t)-delta > l->top)
        l->top = 0;
    else
        l->top += (size_t)delta;
    if (l->top + rows > l->n)
        l->top = l->n > rows ? l->n - rows : 0;
    if (l->sel < l->top)
        l->sel = l->top;
    if (l->sel >= l->top + rows)
        l->sel = l->top + rows - 1;
    fix(l);
}
