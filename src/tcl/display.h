/* SPDX-License-Identifier: MIT */
/*
 * display.h - expressions shown again at every stop (display EXPR), as
 * gdb's display: numbered, each with its format, evaluated when the
 * program stops and their text kept for the screen's display window; in
 * batch mode (or while the screen shows no such window) said in the
 * transcript, "1: x = 5".
 */
#ifndef NOOSA_DISPLAY_H
#define NOOSA_DISPLAY_H

#include <stddef.h>

struct interp;

struct display {
    unsigned int num;
    char *expr;
    char format;   /* 0 or a print format letter */
    char *text;    /* what it showed at the last stop: "1: x = 5" */
};

/* Add EXPR (shown at once when the program is stopped). */
void display_add(struct interp *in, const char *expr, char format);
/* Forget display NUM: -1 when there is none. */
int display_delete(struct interp *in, unsigned int num);
void display_clear(struct interp *in);
/* Evaluate every display now (the program stopped); SAY: in the
 * transcript too, whatever the screen shows. */
void display_show(struct interp *in, int say);
/* The program stopped (once a stop): evaluate and show the displays. */
void display_stopped(struct interp *in);
/* The displays, in order, and how many. */
const struct display *display_list(struct interp *in, size_t *n);
/* info display */
void display_info(struct interp *in);

#endif /* NOOSA_DISPLAY_H */
