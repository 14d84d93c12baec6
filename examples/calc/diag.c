/* SPDX-License-Identifier: MIT */
/*
 * diag.c - diagnostics.  The file name and the stream are set once per run
 * by diag_init(); the count of errors lets the driver choose its exit
 * status.
 */
#include <stdarg.h>
#include <stdio.h>

#include "diag.h"

/* Set by diag_init() at the start of a run. */
static const char *diag_file = "calc";
static FILE *diag_stream;
static int diag_count;

/* Report against FILE (a name to show, not opened) on ERR from now on. */
void diag_init(const char *file, FILE *err)
{
    diag_file = file;
    diag_stream = err;
    diag_count = 0;
}

static void diag_vreport(const char *kind, int line, int col,
                         const char *fmt, va_list ap)
{
    FILE *f = diag_stream != NULL ? diag_stream : stderr;

    fprintf(f, "%s:%d:%d: %s: ", diag_file, line, col, kind);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

void diag_error(int line, int col, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_vreport("error", line, col, fmt, ap);
    va_end(ap);
    diag_count++;
}

void diag_note(int line, int col, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_vreport("note", line, col, fmt, ap);
    va_end(ap);
}

/* Errors reported since diag_init(). */
int diag_errors(void)
{
    return diag_count;
}
