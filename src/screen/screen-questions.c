/* SPDX-License-Identifier: MIT */
/*
 * screen-questions.c - the questions window: every question's answer as
 * `question show` prints it (the table, the histograms as bars, what was
 * not counted), read from the program's tables each time the screen is
 * drawn, so it follows the program as it runs.  Its actions that change
 * something are the commands question reset|delete, echoed in the
 * transcript; the sort order is the window's.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "question.h"
#include "screen.h"
#include "xmalloc.h"

struct questions_window {
    enum question_sort sort;
    struct ui_list list;
};

static const char *const sort_names[] = {"count", "key", "sum", "max", "avg"};

static void *qw_create(struct screen *s)
{
    (void)s;
    return xcalloc(1, sizeof(struct questions_window));
}

static void qw_free(void *w)
{
    free(w);
}

/* Append the lines of TEXT to *LINES (*N of them). */
static void add_lines(char ***lines, size_t *n, size_t *cap, const char *text)
{
    const char *p = text, *nl;

    while (*p != '\0') {
        nl = strchr(p, '\n');
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            *lines = xreallocarray(*lines, *cap, sizeof **lines);
        }
        (*lines)[(*n)++] = nl != NULL ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
        if (nl == NULL)
            break;
        p = nl + 1;
    }
}

/* The window's lines: each question's answer, or why it has none. */
static char **lines_of(struct screen *s, const struct questions_window *qw, size_t *n)
{
    struct questions *qs = s->in->questions;
    char **lines = NULL, *cause, *desc, *where, *text;
    size_t cap = 0;
    unsigned int i;

    *n = 0;
    for (i = 0; i < questions_count(qs); i++) {
        const char *name = questions_name(qs, i);
        struct question_answer a;

        cause = NULL;
        desc = questions_describe(qs, name);
        where = questions_where(qs, name);
        if (questions_answer(qs, name, &a, &cause) == 0) {
            question_sort(&a, qw->sort);
            text = question_format(&a, name, desc, 0);
            add_lines(&lines, n, &cap, text);
            free(text);
            question_answer_free(&a);
        } else {
            text = xasprintf("question %s: %s\n  %s\n", name, desc, cause);
            add_lines(&lines, n, &cap, text);
            free(text);
        }
        text = xasprintf("  %s\n", where);
        add_lines(&lines, n, &cap, text);
        free(text);
        free(cause);
        free(desc);
        free(where);
    }
    return lines;
}

static void qw_draw(struct screen *s, void *w, const struct ui_rect *title_rect,
                    const struct ui_rect *r)
{
    struct questions_window *qw = w;
    int focused = s->focus == UI_PANE_WINDOW, nrows = r->h;
    size_t n, i;
    char **lines = lines_of(s, qw, &n), *title;

    title = xasprintf(" Questions: %u, by %s ", questions_count(s->in->questions),
                      sort_names[qw->sort]);
    screen_draw_title(s, title_rect, title, focused);
    free(title);
    ui_list_set(&qw->list, n, nrows > 0 ? nrows : 1);
    if (n == 0) {
        const char *none = " No questions: question add NAME EVENT ?VALUE? ... asks one"
                           " (help question).";

        screen_draw_text(r->y, r->x, r->w, none, strlen(none), A_DIM);
    }
    for (i = qw->list.top; i < n && i < qw->list.top + (size_t)nrows; i++) {
        int a = A_NORMAL, y = r->y + (int)(i - qw->list.top);

        if (i == qw->list.sel && focused)
            a = A_REVERSE;
        else if (strncmp(lines[i], "question ", 9) == 0)
            a = A_BOLD;
        attrset((attr_t)a);
        mvhline(y, r->x, ' ', r->w);
        attrset(A_NORMAL);
        screen_draw_text(y, r->x, r->w, lines[i], strlen(lines[i]), a);
    }
    for (i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

static int qw_key(struct screen *s, void *w, const struct ui_key *k)
{
    struct questions_window *qw = w;
    const char *argv[2];

    if (k->meta)
        return 0;
    if (screen_list_key(&qw->list, k))
        return 1;
    if (k->fn)
        return 0;
    switch (k->code) {
    case 's':
        qw->sort = (enum question_sort)((qw->sort + 1) %
                                        (sizeof sort_names / sizeof sort_names[0]));
        return 1;
    case 'r':
        argv[0] = "question";
        argv[1] = "reset";
        screen_commandv(s, 2, argv, 1);
        return 1;
    default:
        return 0;
    }
}

static void qw_click(struct screen *s, void *w, int row, int col)
{
    struct questions_window *qw = w;

    (void)s;
    (void)col;
    if (row >= 0 && qw->list.top + (size_t)row < qw->list.n)
        ui_list_select(&qw->list, qw->list.top + (size_t)row);
}

static void qw_wheel(struct screen *s, void *w, int n)
{
    (void)s;
    ui_list_scroll(&((struct questions_window *)w)->list, n);
}

const struct screen_window_ops screen_window_questions = {
    .name = "questions",
    .hint = "s sort  r reset all  Up Down scroll  Esc close",
    .create = qw_create,
    .free = qw_free,
    .draw = qw_draw,
    .key = qw_key,
    .click = qw_click,
    .wheel = qw_wheel,
};
