/* SPDX-License-Identifier: MIT */
/*
 * sink.h - where noosa's parts say things: lines for the transcript, and
 * the count of failures (failed commands, errors of the program that
 * end a run) that decides batch mode's exit status.
 * The composition root (src/root/noosa.c) owns the one sink of a session
 * and hands it to every facility, so that none of them needs the Tcl
 * layer or the screen to report.
 */
#ifndef NOOSA_SINK_H
#define NOOSA_SINK_H

#include <stdarg.h>

struct transcript;

struct sink {
    struct transcript *transcript; /* lines go here (values marked) */
    int failed;  /* failed commands and failing errors (batch exit status) */
    /* While muted (a replay's move hands events over quietly,
     * <design#checkpoints>), nothing is said; errors are counted, the
     * first kept (caller frees it when it unmutes). */
    int muted;
    unsigned long muted_errors;
    char *muted_first;
};

/* Append TEXT as it is (marked values become browsable). */
void sink_say(struct sink *s, const char *text);
void sink_sayf(struct sink *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sink_vsayf(struct sink *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Start a new line unless the transcript is at the start of one. */
void sink_fresh_line(struct sink *s);
/* Report an error on a line of its own ("error: ..."); it counts as a
 * failure only where the caller adds to failed. */
void sink_error(struct sink *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sink_verror(struct sink *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

#endif /* NOOSA_SINK_H */
