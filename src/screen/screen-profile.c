/* SPDX-License-Identifier: MIT */
/*
 * screen-profile.c - the profile window (F11): the time profile or the
 * frequency profile, flat or as a tree, sorted, updated as the program
 * runs (the screen redraws twice a second then).  Its actions that change
 * something are the commands profile ... on|off|reset, echoed in the
 * transcript; the view's own choices (which profile, flat or tree, the
 * sort key) are the window's.  The rows come from profile_rows()
 * (profile-view.c), the same as `profile show` prints.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "profile.h"
#include "screen.h"
#include "xmalloc.h"

/* The window's choices, one for each screen. */
struct profile_window {
    int chosen; /* the user picked the profile: do not follow what is on */
    enum profile_kind kind;
    enum profile_view view;
    enum profile_sort sort;
    struct ui_list list;
};

static void *pw_create(struct screen *s)
{
    struct profile_window *pw = xcalloc(1, sizeof *pw);

    (void)s;
    pw->kind = PROFILE_TIME;
    pw->view = PROFILE_FLAT;
    pw->sort = PROFILE_SORT_DEFAULT;
    return pw;
}

static void pw_free(void *w)
{
    free(w);
}

static const char *sort_name(const struct profile_window *pw,
                             enum profile_sort s)
{
    switch (s) {
    case PROFILE_SORT_COUNT:
        return pw->kind == PROFILE_TIME ? "calls" : "count";
    case PROFILE_SORT_SELF:
        return "self";
    case PROFILE_SORT_TOTAL:
        return "total";
    case PROFILE_SORT_NAME:
        return "name";
    default:
        return pw->kind == PROFILE_FREQ ? "count"
               : pw->view == PROFILE_TREE ? "total"
                                         : "self";
    }
}

/* The profile to show: the one the user chose, else the time profile
 * when it is on or the frequency profile is not. */
static enum profile_kind shown(struct screen *s,
                               const struct profile_window *pw)
{
    if (pw->chosen)
        return pw->kind;
    if (profile_enabled(s->in->profile, PROFILE_TIME) ||
        !profile_enabled(s->in->profile, PROFILE_FREQ))
        return PROFILE_TIME;
    return PROFILE_FREQ;
}

/* The lines of the window for the rows R (the caller frees each). */
static char **lines_of(const struct profile_window *pw,
                       const struct profile_rows *r, size_t *n)
{
    char **lines = xcalloc(r->n * 2 + 1, sizeof *lines);
    const char *group = NULL;
    size_t i, k = 0;

    for (i = 0; i < r->n; i++) {
        const struct profile_row *row = &r->rows[i];

        if (pw->kind == PROFILE_TIME) {
            lines[k++] = xasprintf("%12.6f %5.1f%% %11.6f %5.1f%% %10llu  "
                                   "%*s%s",
                                   (double)row->self_ns / 1e9, row->self_pct,
                                   (double)row->total_ns / 1e9,
                                   row->total_pct,
                                   (unsigned long long)row->count,
                                   (int)(2 * row->depth), "", row->label);
            continue;
        }
        if (group == NULL || strcmp(group, row->event) != 0) {
            group = row->event;
            lines[k++] = xstrdup(group[0] != '\0' ? group : "(calls)");
        }
        lines[k++] = xasprintf("%10llu  %s", (unsigned long long)row->count,
                               row->label);
    }
    *n = k;
    return lines;
}

static void pw_draw(struct screen *s, void *w,
                         const struct ui_rect *title_rect,
                         const struct ui_rect *r)
{
    struct profile_window *pw = w;
    struct profile_query q;
    struct profile_rows rows;
    int focused = s->focus == UI_PANE_WINDOW, nrows = r->h - 1;
    char **lines = NULL, *title, *head;
    size_t n = 0, i;
    char *cause = NULL;

    memset(&q, 0, sizeof q);
    pw->kind = q.kind = shown(s, pw);
    q.view = pw->view;
    q.sort = pw->sort;
    if (profile_rows(s->in->profile, &q, &rows, &cause) == 0) {
        lines = lines_of(pw, &rows, &n);
        profile_rows_free(&rows);
    }
    title = xasprintf(" Profile: %s (%s), %s, by %s ",
                      pw->kind == PROFILE_TIME ? "time" : "frequency",
                      profile_enabled(s->in->profile, pw->kind) ? "on" : "off",
                      pw->view == PROFILE_TREE ? "tree" : "flat",
                      sort_name(pw, pw->sort));
    screen_draw_title(s, title_rect, title, focused);
    free(title);
    head = pw->kind == PROFILE_TIME
               ? xstrdup("        self      %       total      %      calls"
                         "  component")
               : xasprintf("     count  %s", pw->view == PROFILE_TREE
                                                 ? "event, then stacks"
                                                 : "event, then components");
    screen_draw_text(r->y, r->x, r->w, head, strlen(head), A_BOLD);
    free(head);
    ui_list_set(&pw->list, n, nrows > 0 ? nrows : 1);
    if (n == 0) {
        const char *none =
            cause != NULL ? cause
            : profile_enabled(s->in->profile, pw->kind)
                ? " Nothing counted yet."
                : " Off: o turns it on (profile time on / profile freq on),"
                  " then run the program.";

        screen_draw_text(r->y + 1, r->x, r->w, none, strlen(none), A_DIM);
    }
    for (i = pw->list.top; i < n && i < pw->list.top + (size_t)nrows; i++) {
        int a = A_NORMAL, y = r->y + 1 + (int)(i - pw->list.top);

        if (i == pw->list.sel && focused)
            a = A_REVERSE;
        else if (pw->kind == PROFILE_FREQ && lines[i][0] != ' ')
            a = A_BOLD; /* an event's name */
        attrset((attr_t)a);
        mvhline(y, r->x, ' ', r->w);
        attrset(A_NORMAL);
        screen_draw_text(y, r->x, r->w, lines[i], strlen(lines[i]), a);
    }
    for (i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    free(cause);
}

/* Run `profile KIND ACTION`, echoed. */
static void command(struct screen *s, const struct profile_window *pw,
                    const char *action)
{
    const char *argv[3];

    argv[0] = "profile";
    argv[1] = pw->kind == PROFILE_TIME ? "time" : "freq";
    argv[2] = action;
    screen_commandv(s, 3, argv, 1);
}

static int pw_key(struct screen *s, void *w, const struct ui_key *k)
{
    struct profile_window *pw = w;

    if (k->meta)
        return 0;
    pw->kind = shown(s, pw);
    if (screen_list_key(&pw->list, k))
        return 1;
    if (k->fn)
        return 0;
    switch (k->code) {
    case 't':
        pw->view = pw->view == PROFILE_TREE ? PROFILE_FLAT : PROFILE_TREE;
        pw->sort = PROFILE_SORT_DEFAULT;
        return 1;
    case 's': {
        /* the next key, from the view's default */
        static const enum profile_sort time_keys[] = {
            PROFILE_SORT_SELF, PROFILE_SORT_TOTAL, PROFILE_SORT_COUNT,
            PROFILE_SORT_NAME};
        static const enum profile_sort freq_keys[] = {PROFILE_SORT_COUNT,
                                                      PROFILE_SORT_NAME};
        const enum profile_sort *keys =
            pw->kind == PROFILE_TIME ? time_keys : freq_keys;
        size_t nkeys = pw->kind == PROFILE_TIME ? 4 : 2, i;
        enum profile_sort cur = pw->sort;

        if (cur == PROFILE_SORT_DEFAULT)
            cur = pw->kind == PROFILE_FREQ    ? PROFILE_SORT_COUNT
                  : pw->view == PROFILE_TREE ? PROFILE_SORT_TOTAL
                                            : PROFILE_SORT_SELF;
        for (i = 0; i < nkeys && keys[i] != cur; i++)
            ;
        pw->sort = keys[(i + 1) % nkeys];
        return 1;
    }
    case 'f':
        pw->chosen = 1;
        pw->kind = pw->kind == PROFILE_TIME ? PROFILE_FREQ : PROFILE_TIME;
        pw->sort = PROFILE_SORT_DEFAULT;
        pw->view = pw->kind == PROFILE_FREQ ? PROFILE_TREE : PROFILE_FLAT;
        return 1;
    case 'o':
        pw->chosen = 1;
        command(s, pw, profile_enabled(s->in->profile, pw->kind) ? "off" : "on");
        return 1;
    case 'r':
        command(s, pw, "reset");
        return 1;
    default:
        return 0;
    }
}

static void pw_click(struct screen *s, void *w, int row, int col)
{
    struct profile_window *pw = w;

    (void)s;
    (void)col;
    if (row >= 1 && pw->list.top + (size_t)(row - 1) < pw->list.n)
        ui_list_select(&pw->list, pw->list.top + (size_t)(row - 1));
}

static void pw_wheel(struct screen *s, void *w, int n)
{
    (void)s;
    ui_list_scroll(&((struct profile_window *)w)->list, n);
}

const struct screen_window_ops screen_window_profile = {
    .name = "profile",
    .hint = "f time/frequency  t tree/flat  s sort  o on/off  r reset  "
            "Up Down scroll  Esc close",
    .create = pw_create,
    .free = pw_free,
    .draw = pw_draw,
    .key = pw_key,
    .click = pw_click,
    .wheel = pw_wheel,
};
