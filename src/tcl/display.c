/* SPDX-License-Identifier: MIT */
/*
 * display.c - display EXPR: expressions evaluated again at every stop.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cprint.h"
#include "debug.h"
#include "display.h"
#include "interp.h"
#include "noosa.h"
#include "xmalloc.h"

/* Evaluate display D: its text, "1: x = 5" (or the error in place of
 * the value, as gdb shows it). */
static void evaluate(struct interp *in, struct display *d)
{
    struct debug *g = in->noosa->debug;
    struct cprint_opts o;
    struct cvalue *v;
    char *cause = NULL, *text = NULL;
    char fmt[8] = "";

    cprint_defaults(&o);
    o.format = d->format;
    if (d->format != 0)
        snprintf(fmt, sizeof fmt, "/%c ", d->format);
    if (debug_eval(g, d->expr, &v, &cause) == 0) {
        text = cprint_top(v, &o, &cause);
        cvalue_free(v);
    }
    free(d->text);
    if (text != NULL)
        d->text = xasprintf("%u: %s%s = %s", d->num, fmt, d->expr, text);
    else
        d->text = xasprintf("%u: %s%s = <error: %s>", d->num, fmt, d->expr,
                            cause);
    free(text);
    free(cause);
}

static void say(struct interp *in, const struct display *d)
{
    sink_fresh_line(&in->noosa->sink);
    interp_sayf(in, "%s\n", d->text);
}

void display_add(struct interp *in, const char *expr, char format)
{
    struct display *d;

    in->displays = xgrow(in->displays, in->ndisplays, &in->displays_cap,
                         sizeof *in->displays);
    d = &in->displays[in->ndisplays++];
    memset(d, 0, sizeof *d);
    d->num = ++in->display_last;
    d->expr = xstrdup(expr);
    d->format = format;
    if (debug_stopped(in->noosa->debug)) {
        evaluate(in, d);
        /* (the screen opens its display window for it) */
        if (in->batch)
            say(in, d);
    }
}

int display_delete(struct interp *in, unsigned int num)
{
    for (size_t i = 0; i < in->ndisplays; i++) {
        if (in->displays[i].num != num)
            continue;
        free(in->displays[i].expr);
        free(in->displays[i].text);
        memmove(&in->displays[i], &in->displays[i + 1],
                (in->ndisplays - i - 1) * sizeof *in->displays);
        in->ndisplays--;
        return 0;
    }
    return -1;
}

void display_clear(struct interp *in)
{
    for (size_t i = 0; i < in->ndisplays; i++) {
        free(in->displays[i].expr);
        free(in->displays[i].text);
    }
    free(in->displays);
    in->displays = NULL;
    in->ndisplays = in->displays_cap = 0;
}

void display_show(struct interp *in, int say_all)
{
    if (!debug_stopped(in->noosa->debug))
        return;
    for (size_t i = 0; i < in->ndisplays; i++) {
        evaluate(in, &in->displays[i]);
        if (say_all || !in->display_window)
            say(in, &in->displays[i]);
    }
}

void display_stopped(struct interp *in)
{
    display_show(in, 0);
}

const struct display *display_list(struct interp *in, size_t *n)
{
    *n = in->ndisplays;
    return in->displays;
}

void display_info(struct interp *in)
{
    sink_fresh_line(&in->noosa->sink);
    if (in->ndisplays == 0) {
        interp_say(in, "There are no auto-display expressions now.\n");
        return;
    }
    interp_say(in, "Auto-display expressions now in effect:\n"
                   "Num Enb Expression\n");
    for (size_t i = 0; i < in->ndisplays; i++) {
        const struct display *d = &in->displays[i];

        if (d->format != 0)
            interp_sayf(in, "%u:   y  /%c %s\n", d->num, d->format, d->expr);
        else
            interp_sayf(in, "%u:   y  %s\n", d->num, d->expr);
    }
}
